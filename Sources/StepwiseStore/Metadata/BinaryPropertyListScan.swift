import Foundation
import StepwiseModel

/// Looks inside a binary property list (`bplist00`) for what swift-corelibs-foundation can't
/// read safely, before `PropertyListSerialization` is given it.
///
/// On Linux, `PropertyListSerialization.propertyList(from:options:format:)` crashes the process
/// (a segmentation fault while bridging `NSSet` to `Set<AnyHashable>`) on a binary property list
/// that holds a non-empty set, a type the binary format has (marker `0xC`) but that is not a
/// property-list type and that Core Data never writes. A damaged or hostile `Z_PLIST` must be
/// refused with an error instead. Found by `Scripts/fuzz metadata`.
///
/// The format is described at ``BinaryPropertyList``, whose offset table this scan reads.
enum BinaryPropertyListScan {
    /// Whether `data` is a binary property list with a set among its objects.
    ///
    /// Every object of the offset table is looked at, reachable or not. Anything that is not a
    /// well-formed offset table answers `false`: `PropertyListSerialization` rejects that itself.
    static func containsSet(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard let table = BinaryPropertyList.OffsetTable(bytes) else { return false }
        return table.offsets.contains { $0 >= 8 && $0 < table.trailer && bytes[$0] & 0xF0 == 0xC0 }
    }
}

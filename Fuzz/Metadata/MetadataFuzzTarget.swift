import Foundation
import FuzzDriver
import StepwiseStore

/// libFuzzer's entry point: one input is a `Z_PLIST` blob, the property list in a store's
/// `Z_METADATA` row.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    MetadataFuzzTarget.test(FuzzDriver.data(bytes, count))
    return 0
}

/// Fuzzes the metadata reader the way every store open uses it: decode `Z_PLIST` into
/// ``StoreMetadata`` (with `Z_UUID` NULL, so the list's own `NSStoreUUID` is read too), then
/// encode it back as a migration writes it to the new store.
///
/// Any input may be rejected with a `StoreError`; a crash, a hang, a leak or memory misuse is
/// a finding.
@main
enum MetadataFuzzTarget {
    static func main() {
        FuzzDriver.main(target: "metadata", testOneInput: testOneInput)
    }

    static func test(_ data: Data) {
        guard let metadata = try? StoreMetadata.decode(plist: data, uuid: nil, path: "Z_PLIST") else { return }
        _ = try? metadata.encodedPropertyList()
    }
}

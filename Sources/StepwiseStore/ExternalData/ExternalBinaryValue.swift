import Foundation

/// The column value of a Binary attribute that allows external storage
/// (`allowsExternalBinaryDataStorage`): one marker byte, then either the bytes themselves or
/// the name of the file that holds them.
///
/// | First byte | Then | Meaning |
/// |---|---|---|
/// | `0x01` | the bytes | stored inline, in the row |
/// | `0x02` | 36 ASCII characters of an uppercase UUID, then `0x00` | stored in `_EXTERNAL_DATA/<UUID>` (``ExternalDataFolder``) |
///
/// Seen in the real Wire stores of the corpus (`wire-data-model/stores/store1-24.wiredatabase`,
/// `ZUSER.ZIMAGEMEDIUMDATA`): row 1 holds the 38 bytes `02` "3CB1E3E3-FC84-44F1-B128-C461F91819F3"
/// `00`; row 6 holds `01 FFD8FFE0…`, a 31,321-byte JPEG inline. Inline values of up to 99,813
/// bytes sit beside external ones there, and every value of those columns starts with 0x01 or
/// 0x02. Forensic tools describe the same two forms (cpdb's notes on Paste's
/// `ZPASTEBOARDITEMS`; a Journal.app reader's `0x02 + UUID = Core Data external storage`).
///
/// Only such attributes hold marker-encoded values: a plain Binary column holds raw bytes,
/// even bytes that happen to start with 0x01 or 0x02.
///
/// Stepwise always writes values inline (``inlineColumnValue(_:)``): Core Data reads inline
/// values of any size, and moves a large one out to a file itself on its next save of the object.
package enum ExternalBinaryValue: Sendable, Hashable {
    /// The bytes, held in the row.
    case inline(Data)
    /// The value lives in the file of this name (an uppercase UUID) in the store's
    /// `_EXTERNAL_DATA` folder.
    case external(fileName: String)

    /// The marker of an inline value.
    package static let inlineMarker: UInt8 = 0x01
    /// The marker of a reference to a file.
    package static let externalMarker: UInt8 = 0x02
    /// The length of a file reference's UUID text.
    package static let uuidLength = 36

    /// Reads a column value; nil when it has no valid marker, with the reason in `problem`.
    ///
    /// - parameter column: The bytes of the column (never NULL: NULL is nil, with no marker).
    package static func parse(_ column: Data) -> Result<ExternalBinaryValue, ExternalBinaryValueProblem> {
        guard let marker = column.first else { return .failure(.empty) }
        switch marker {
        case inlineMarker:
            return .success(.inline(Data(column.dropFirst())))
        case externalMarker:
            // The UUID's text, then a NUL (store1-24's 38-byte references). A reference
            // without its NUL is read too: the text alone says which file.
            var text = column.dropFirst()
            if text.last == 0 { text = text.dropLast() }
            guard text.count == uuidLength, let name = String(data: Data(text), encoding: .ascii),
                UUID(uuidString: name) != nil
            else { return .failure(.malformedReference(bytes: column.count)) }
            return .success(.external(fileName: name))
        default:
            return .failure(.unknownMarker(marker))
        }
    }

    /// The column value of `bytes` stored inline: `0x01` then the bytes.
    package static func inlineColumnValue(_ bytes: Data) -> Data {
        var column = Data(capacity: bytes.count + 1)
        column.append(inlineMarker)
        column.append(bytes)
        return column
    }

    /// The column value referring to the file `fileName` (an uppercase UUID): `0x02`, its
    /// text, `0x00`, as Core Data writes it. For tests that build a store with external files.
    package static func externalColumnValue(fileName: String) -> Data {
        var column = Data([externalMarker])
        column.append(Data(fileName.utf8))
        column.append(0)
        return column
    }
}

/// Why a column value of an external-storage attribute can't be read.
package enum ExternalBinaryValueProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero bytes: not even a marker.
    case empty
    /// The first byte is neither 0x01 nor 0x02.
    case unknownMarker(UInt8)
    /// 0x02, but not followed by a UUID's 36 characters (and a NUL).
    case malformedReference(bytes: Int)

    package var description: String {
        switch self {
        case .empty:
            "the value is 0 bytes, without the marker byte (0x01 inline, 0x02 external) Core Data writes"
        case .unknownMarker(let byte):
            "the value starts with 0x\(String(byte, radix: 16, uppercase: true)), not the marker 0x01 (inline) or 0x02 (external file) Core Data writes"
        case .malformedReference(let bytes):
            "the value is a reference to an external file (0x02) but its \(bytes) bytes don't hold a UUID"
        }
    }
}

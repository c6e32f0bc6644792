import Foundation
import StepwiseModel

/// Three versions whose second was edited in place after it shipped, for the tests of
/// shipped records (`stepwise ship`, ``/StepwiseModel/ShippedRecords``, upgrading a store of the
/// version as shipped). It is not one of the `Versions/` samples.
///
/// | Notes | Notes 2 as shipped | Notes 2 now | Notes 3 |
/// | --- | --- | --- | --- |
/// | Note(title) | Note(title, body, words: Integer 16) | + rating (default 3), words: Integer 32 | + pinned (default NO) |
package enum EditedNotesHistory {
    package static let v1 = ObjectModel("Notes") {
        Entity("Note") { Attribute("title", .string) }
    }

    /// Notes 2 as it shipped.
    package static let v2Shipped = ObjectModel("Notes 2") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
            Attribute("words", .integer16)
        }
    }

    /// Notes 2 after an edit in place: `rating` added with a default, `words` widened.
    package static let v2Edited = ObjectModel("Notes 2") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
            Attribute("words", .integer32)
            Attribute("rating", .integer16).required().defaultValue("3")
        }
    }

    package static let v3 = ObjectModel("Notes 3") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
            Attribute("words", .integer32)
            Attribute("rating", .integer16).required().defaultValue("3")
            Attribute("pinned", .boolean).required().defaultValue("NO")
        }
    }

    /// The history as it is now: Notes, the edited Notes 2, Notes 3.
    package static let history = VersionHistory([v1, v2Edited, v3])

    /// Notes 2's record as it shipped.
    package static let record = ShippedVersion(
        model: v2Shipped, contents: XcodeModelWriter.contents(of: v2Shipped), shippedAt: Date(timeIntervalSince1970: 0))

    /// Writes `Notes.xcdatamodeld` in `folder` holding `versions`, the last one current, over
    /// what is there: call it again to edit a version in place.
    @discardableResult
    package static func writeBundle(_ versions: [ObjectModel], in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("Notes.xcdatamodeld")
        try XcodeModelWriter.writeBundle(versions, current: versions.last?.name ?? "", to: url)
        return url
    }
}

import Foundation
import StepwiseModel
import StepwiseTesting
import Testing

/// The matrix seeds a store from each version as shipped and upgrades it to the newest.
@Suite("UpgradeMatrix and shipped records")
struct UpgradeMatrixShippedTests {
    static let v1 = ObjectModel("Notes") {
        Entity("Note") { Attribute("title", .string) }
    }
    static let v2 = ObjectModel("Notes 2") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
        }
    }
    static let v2Edited = ObjectModel("Notes 2") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
            Attribute("rating", .integer16).required().defaultValue("3")
        }
    }
    static let v3 = ObjectModel("Notes 3") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
            Attribute("rating", .integer16).required().defaultValue("3")
            Attribute("pinned", .boolean).required().defaultValue("NO")
        }
    }

    static let record = ShippedVersion(
        model: v2, contents: XcodeModelWriter.contents(of: v2), shippedAt: Date(timeIntervalSince1970: 0))

    @Test func everyShippedRecordIsACase() throws {
        let matrix = UpgradeMatrix(history: VersionHistory([Self.v1, Self.v2Edited, Self.v3]), shipped: [Self.record])
        let shippedPair = UpgradeMatrix.Pair(from: "Notes 2 (as shipped)", to: "Notes 3")
        #expect(matrix.cases.contains(shippedPair))
        #expect(matrix.cases.count == 4)
        #expect(matrix.unreachable.isEmpty)
        let result = try matrix.check(shippedPair)
        #expect(result.steps.first?.hasPrefix("Notes 2 (as shipped) → ") == true)
        #expect(result.copiedEntities == ["Note"])
        #expect(result.seededRows > 0)
    }

    @Test func aBundleMatrixReadsTheShippedFolder() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.path("Notes.xcdatamodeld")
        try XcodeModelWriter.writeBundle([Self.v1, Self.v2], current: "Notes 2", to: bundle)
        _ = try ShippedRecords.record(of: bundle)
        try XcodeModelWriter.writeBundle([Self.v1, Self.v2Edited, Self.v3], current: "Notes 3", to: bundle)
        let matrix = try UpgradeMatrix(bundleAt: bundle)
        #expect(matrix.asShipped.map(\.name) == ["Notes 2 (as shipped)"])
        #expect(matrix.cases.last == UpgradeMatrix.Pair(from: "Notes 2 (as shipped)", to: "Notes 3"))
    }
}

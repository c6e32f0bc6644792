import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The matrix seeds a store from each version as shipped and upgrades it to the newest.
@Suite("UpgradeMatrix and shipped records")
struct UpgradeMatrixShippedTests {
    typealias Notes = EditedNotesHistory

    @Test func everyShippedRecordIsACase() throws {
        let matrix = try UpgradeMatrix(history: Notes.history, shipped: [Notes.record])
        let shippedPair = UpgradeMatrix.Pair(from: "Notes 2 (as shipped)", to: "Notes 3")
        #expect(matrix.cases.count == 4)
        #expect(matrix.cases.last == shippedPair)
        #expect(matrix.unreachable.isEmpty)
        let result = try matrix.check(shippedPair)
        #expect(result.steps.first?.hasPrefix("Notes 2 (as shipped) → ") == true)
        #expect(result.copiedEntities == ["Note"])
        #expect(result.seededRows > 0)
    }

    /// The matrix makes its upgraders from the same history value, so a record the upgrader
    /// would refuse is refused here, when the matrix is made, rather than left out of the cases.
    @Test func aShippedRecordThatCantBeReadIsRefusedWhenTheMatrixIsMade() {
        var broken = Notes.record
        broken.contents = "not a model file"
        #expect(throws: ModelError.self) {
            try UpgradeMatrix(history: Notes.history, shipped: [broken])
        }
    }

    @Test func aBundleMatrixReadsTheShippedFolder() throws {
        let directory = try TemporaryDirectory()
        let bundle = try Notes.writeBundle([Notes.v1, Notes.v2Shipped], in: directory.url)
        _ = try ShippedRecords.record(of: bundle)
        try Notes.writeBundle([Notes.v1, Notes.v2Edited, Notes.v3], in: directory.url)
        let matrix = try UpgradeMatrix(bundleAt: bundle)
        #expect(matrix.asShipped.map(\.name) == ["Notes 2 (as shipped)"])
        #expect(matrix.cases.last == UpgradeMatrix.Pair(from: "Notes 2 (as shipped)", to: "Notes 3"))
    }
}

import Testing

@testable import StepwiseMapping

/// The order in-place steps rename columns and tables in: straight to the new name when it is
/// free, through a temporary name only when every new name is held by one still to move.
@Suite("Renames without collisions")
struct RenameOrderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var renames: [(from: String, to: String)]
        var occupied: [String]
        /// The `ALTER`s expected, in order.
        var expected: [String]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "free names: one rename each", renames: [("Z_16USERS", "Z_15USERS"), ("Z_20USERS", "Z_19USERS")],
            occupied: ["Z_16USERS", "Z_20USERS", "ZUSER"],
            expected: ["Z_16USERS→Z_15USERS", "Z_20USERS→Z_19USERS"]),
        Case(
            label: "a chain runs from its free end", renames: [("Z_15USERS", "Z_14USERS"), ("Z_16USERS", "Z_15USERS")],
            occupied: ["Z_15USERS", "Z_16USERS"],
            expected: ["Z_15USERS→Z_14USERS", "Z_16USERS→Z_15USERS"]),
        Case(
            label: "a swap goes through one temporary name", renames: [("A", "B"), ("B", "A")],
            occupied: ["A", "B"],
            expected: ["A→stepwise_renaming_1", "B→A", "stepwise_renaming_1→B"]),
        Case(
            label: "names differ only in case", renames: [("zname", "ZNAME")], occupied: ["zname"],
            expected: ["zname→stepwise_renaming_1", "stepwise_renaming_1→ZNAME"]),
        Case(
            label: "a name held by something else is left for SQLite to refuse", renames: [("A", "INDEXNAME")],
            occupied: ["A", "INDEXNAME"], expected: ["A→INDEXNAME"]),
    ]

    @Test(arguments: cases)
    func renamesInAnOrderThatNeverCollides(_ test: Case) throws {
        var names = Set(test.occupied.map { $0.uppercased() })
        var statements: [String] = []
        var temporaryNames = 0
        try InPlaceMigration.renameWithoutCollisions(
            test.renames, occupied: test.occupied, temporaryNames: &temporaryNames
        ) { from, to in
            statements.append("\(from)→\(to)")
            // What SQLite checks: the old name exists, the new one is free (unless it is a
            // name outside the renames, which this case expects SQLite to refuse).
            #expect(names.remove(from.uppercased()) != nil)
            names.insert(to.uppercased())
        }
        #expect(statements == test.expected)
        let renamed = Set(test.renames.map { $0.to.uppercased() })
        #expect(renamed.isSubset(of: names))
        #expect(!names.contains { $0.hasPrefix("STEPWISE_RENAMING") })
    }
}

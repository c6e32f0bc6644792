import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// The planner never takes a path that drops data while one that drops nothing exists
/// (issue 42): not for an explicit shortcut, nor for a merged step. Only when every path drops
/// something does a lossy one run, and then the one naming the fewest drops.
@Suite("Upgrade planner: lossless paths first")
struct UpgradePlannerLosslessTests {
    /// Three versions; Tag stays throughout.
    ///
    /// | Shelf | Shelf 2 | Shelf 3 |
    /// | --- | --- | --- |
    /// | Book(title), Tag(name) | Book(title, author), Tag(name) | Book(title, author, year), Tag(name) |
    static let v1 = ObjectModel("Shelf") {
        Entity("Book") { Attribute("title", .string) }
        Entity("Tag") { Attribute("name", .string) }
    }
    static let v2 = ObjectModel("Shelf 2") {
        Entity("Book") {
            Attribute("title", .string)
            Attribute("author", .string)
        }
        Entity("Tag") { Attribute("name", .string) }
    }
    static let v3 = ObjectModel("Shelf 3") {
        Entity("Book") {
            Attribute("title", .string)
            Attribute("author", .string)
            Attribute("year", .integer32)
        }
        Entity("Tag") { Attribute("name", .string) }
    }
    static let history = VersionHistory([v1, v2, v3])

    /// An explicit mapping a team wrote for a step: one that carries every entity, or one that
    /// leaves `Tag` out, as a team that forgot it would.
    enum Written: String, Sendable {
        case carriesEverything, leavesOutTags

        func mapping(from source: ObjectModel, to destination: ObjectModel) throws -> MappingModel {
            let inferred = try MappingInference.inferMapping(from: source, to: destination)
            let written = MappingModel(from: source.name, to: destination.name, entityMappings: inferred.entityMappings)
            return self == .carriesEverything ? written : written.leavingOut(entity: "Tag")
        }
    }

    /// One history's mappings and the plan from Shelf to Shelf 3 they must give.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var mappings: [(from: String, to: String, written: Written)]
        var expected: [String]
        var drops: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a shortcut that drops, against a chain of one explicit and one inferred step",
            mappings: [("Shelf", "Shelf 2", .carriesEverything), ("Shelf", "Shelf 3", .leavesOutTags)],
            expected: ["Shelf → Shelf 2 explicit", "Shelf 2 → Shelf 3 inferred"], drops: 0),
        Case(
            name: "a shortcut that drops, against a chain of two explicit steps",
            mappings: [
                ("Shelf", "Shelf 2", .carriesEverything), ("Shelf 2", "Shelf 3", .carriesEverything),
                ("Shelf", "Shelf 3", .leavesOutTags),
            ],
            expected: ["Shelf → Shelf 2 explicit", "Shelf 2 → Shelf 3 explicit"], drops: 0),
        Case(
            name: "a shortcut that drops nothing, against a longer chain",
            mappings: [("Shelf", "Shelf 2", .carriesEverything), ("Shelf", "Shelf 3", .carriesEverything)],
            expected: ["Shelf → Shelf 3 explicit"], drops: 0),
        Case(
            name: "only paths that drop: the one with the fewest drops",
            mappings: [
                ("Shelf", "Shelf 2", .leavesOutTags), ("Shelf 2", "Shelf 3", .leavesOutTags),
                ("Shelf", "Shelf 3", .leavesOutTags),
            ],
            expected: ["Shelf → Shelf 3 explicit"], drops: 1),
    ]

    @Test(arguments: cases)
    func thePlanDropsNothingWhenSomePathDropsNothing(_ testCase: Case) throws {
        var mappings: [MappingDirectory.StepKey: [MappingModel]] = [:]
        for (from, to, written) in testCase.mappings {
            let source = try #require(Self.history.version(named: from))
            let destination = try #require(Self.history.version(named: to))
            mappings[MappingDirectory.StepKey(from, to)] = [try written.mapping(from: source, to: destination)]
        }
        let plan = try UpgradePlanner(history: Self.history, mappings: mappings).plan(from: "Shelf", to: "Shelf 3")
        #expect(plan.steps.map { "\($0.from) → \($0.to) \($0.kind.rawValue)" } == testCase.expected)
        #expect(plan.steps.flatMap(UpgradePlanner.drops(of:)).count == testCase.drops)
    }

    /// Costs add up edge by edge, drops first: fewer drops beat fewer explicit steps, fewer
    /// explicit steps beat fewer steps.
    @Test func aPathCostComparesDropsThenExplicitStepsThenSteps() {
        typealias Cost = UpgradePlanner.PathCost
        #expect(Cost(drops: 0, explicit: 5, steps: 9) < Cost(drops: 1, explicit: 0, steps: 1))
        #expect(Cost(drops: 1, explicit: 0, steps: 9) < Cost(drops: 1, explicit: 1, steps: 1))
        #expect(Cost(drops: 1, explicit: 1, steps: 1) < Cost(drops: 1, explicit: 1, steps: 2))
        #expect(!(Cost(drops: 2, explicit: 0, steps: 1) < Cost(drops: 2, explicit: 0, steps: 1)))
    }

    /// A merged step that would drop what its steps keep is not taken: here the run's composed
    /// mapping is replaced, before planning, by inferring Pets → Pets 3 directly, which drops
    /// every row (`RenameChainHistory`); the plan keeps the two steps.
    @Test func aMergeThatWouldDropWhatItsStepsKeepIsNotTaken() throws {
        let planner = UpgradePlanner(history: RenameChainHistory.history)
        let direct = try MappingInference.inferMapping(from: RenameChainHistory.v1, to: RenameChainHistory.v3)
        _ = planner.inferences.composedMapping(
            through: ["Pets", "Pets 2", "Pets 3"], from: RenameChainHistory.v1, to: RenameChainHistory.v3, { direct })
        let directStep = PlannedStep(
            from: RenameChainHistory.v1, to: RenameChainHistory.v3, kind: .inferred, mappingModels: [direct])
        #expect(UpgradePlanner.drops(of: directStep).map(\.place).sorted() == ["Person", "Pet"])

        let plan = try planner.plan(from: "Pets", to: "Pets 3")
        #expect(plan.steps.map(\.description) == ["Pets → Pets 2 (inferred)", "Pets 2 → Pets 3 (inferred)"])
        #expect(plan.steps.flatMap(UpgradePlanner.drops(of:)) == [])
    }

    /// Composition itself keeps what the steps keep: the merged step of a renames-only chain
    /// names no drop, and passes the check merging makes.
    @Test func aMergedStepOfALosslessChainDropsNothing() throws {
        let separate = try UpgradePlanner(history: RenameChainHistory.history, mergesInferredSteps: false)
            .plan(from: "Pets", to: "Pets 3").steps
        let merged = try #require(
            try UpgradePlanner(history: RenameChainHistory.history).plan(from: "Pets", to: "Pets 3").steps.first)
        #expect(merged.via == ["Pets 2"])
        #expect(UpgradePlanner.drops(of: merged) == [])
        #expect(separate.count == 2)
        #expect(UpgradePlanner.dropsNothingMore(merged, than: separate[0], separate[1]))
    }
}

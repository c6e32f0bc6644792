import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import Testing

@testable import Stepwise

@Suite("Upgrade planner")
struct UpgradePlannerTests {
    static func mappings(_ sample: String) throws -> (VersionHistory, [MappingDirectory.StepKey: [MappingModel]]) {
        let bundle = Corpus.packageRoot.appendingPathComponent("Versions/\(sample).xcdatamodeld")
        let history = try ModelBundle(contentsOf: bundle).history
        let directory = try MappingDirectory(contentsOf: MappingDirectory.defaultURL(for: bundle), history: history)
        return (history, directory.steps)
    }

    static func describe(_ plan: UpgradePlan) -> [String] {
        plan.steps.map { "\($0.from) → \($0.to) \($0.kind.rawValue)" }
    }

    @Test func recipesChainsTwoExplicitStepsAndOneInferredStep() throws {
        let (history, mappings) = try Self.mappings("Recipes")
        let plan = try UpgradePlanner(history: history, mappings: mappings).plan(from: "Recipes", to: "Recipes 4")
        #expect(
            Self.describe(plan) == [
                "Recipes → Recipes 2 explicit", "Recipes 2 → Recipes 3 explicit", "Recipes 3 → Recipes 4 inferred",
            ])
        #expect(plan.explicitStepCount == 2)
        #expect(plan.steps.last?.mappingModels.first?.isInferred == true)
    }

    @Test(arguments: [
        ("University", "University", "University 4", 3),
        ("University", "University 2", "University 4", 2),
        ("Events", "Events", "Events 2", 1),
        ("Recipes", "Recipes 3", "Recipes 4", 1),
        ("Recipes", "Recipes 4", "Recipes 4", 0),
    ])
    func everySampleVersionHasAPathToTheNewest(sample: String, from: String, to: String, steps: Int) throws {
        let (history, mappings) = try Self.mappings(sample)
        let plan = try UpgradePlanner(history: history, mappings: mappings).plan(from: from, to: to)
        #expect(plan.steps.count == steps)
        // No sample has two inferred steps in a row, so nothing is merged.
        #expect(plan.steps.allSatisfy { $0.via.isEmpty })
        #expect(plan.steps.first?.from ?? from == from)
        #expect(plan.steps.last?.to ?? to == to)
    }

    @Test func aMissingMappingIsNamedAsTheGapWithInferencesReasons() throws {
        let (history, mappings) = try Self.mappings("Recipes")
        var withoutFirst = mappings
        withoutFirst[MappingDirectory.StepKey("Recipes", "Recipes 2")] = nil
        let error = try #require(throws: UpgradeError.self) {
            try UpgradePlanner(history: history, mappings: withoutFirst).plan(from: "Recipes", to: "Recipes 4")
        }
        guard case .noPath(let from, let to, let gap, let problems) = error.kind else {
            Issue.record("expected noPath")
            return
        }
        #expect(from == "Recipes")
        #expect(to == "Recipes 4")
        #expect(gap?.from == "Recipes")
        #expect(gap?.to == "Recipes 2")
        #expect(problems.contains { $0.entity == "Recipe" && $0.property == "cuisine" })
        #expect(error.description.contains("Add a mapping file 'Recipes to Recipes 2.json'"))
    }

    /// A shortcut whose entity mappings carry every entity of Recipes 2 (those of the written
    /// Recipes 2 → 3 mapping): it drops nothing, so it wins on the explicit steps and the steps.
    @Test func anExplicitShortcutThatDropsNothingWinsOverALongerChainWithTheSameHeavyweightCount() throws {
        let (history, mappings) = try Self.mappings("Recipes")
        var withShortcut = mappings
        let written = try #require(mappings[MappingDirectory.StepKey("Recipes 2", "Recipes 3")]?.first)
        let shortcut = MappingModel(from: "Recipes 2", to: "Recipes 4", entityMappings: written.entityMappings)
        withShortcut[MappingDirectory.StepKey("Recipes 2", "Recipes 4")] = [shortcut]
        let plan = try UpgradePlanner(history: history, mappings: withShortcut).plan(from: "Recipes", to: "Recipes 4")
        #expect(Self.describe(plan) == ["Recipes → Recipes 2 explicit", "Recipes 2 → Recipes 4 explicit"])
    }

    /// The same shortcut with no entity mappings leaves every entity out: the chain, one step
    /// longer, drops nothing and wins.
    @Test func anExplicitShortcutThatLeavesEntitiesOutLosesToTheChainThatKeepsThem() throws {
        let (history, mappings) = try Self.mappings("Recipes")
        var withShortcut = mappings
        let shortcut = MappingModel(from: "Recipes 2", to: "Recipes 4", entityMappings: [])
        withShortcut[MappingDirectory.StepKey("Recipes 2", "Recipes 4")] = [shortcut]
        let planner = UpgradePlanner(history: history, mappings: withShortcut)
        let plan = try planner.plan(from: "Recipes", to: "Recipes 4")
        #expect(
            Self.describe(plan) == [
                "Recipes → Recipes 2 explicit", "Recipes 2 → Recipes 3 explicit", "Recipes 3 → Recipes 4 inferred",
            ])
        #expect(plan.steps.flatMap(UpgradePlanner.drops(of:)) == [])
        let skipped = try #require(planner.edges().first { $0.from == "Recipes 2" && $0.to == "Recipes 4" })
        #expect(UpgradePlanner.drops(of: skipped).map(\.reason).allSatisfy { $0 == .leftOutOfMapping })
        #expect(!UpgradePlanner.drops(of: skipped).isEmpty)
    }

    @Test func aDowngradeNeedsAnExplicitMapping() throws {
        let (history, mappings) = try Self.mappings("University")
        #expect(throws: UpgradeError.self) {
            try UpgradePlanner(history: history, mappings: mappings).plan(from: "University 2", to: "University")
        }
        var withDowngrade = mappings
        withDowngrade[MappingDirectory.StepKey("University 2", "University")] = [
            MappingModel(from: "University 2", to: "University", entityMappings: [])
        ]
        let plan = try UpgradePlanner(history: history, mappings: withDowngrade).plan(
            from: "University 2", to: "University")
        #expect(Self.describe(plan) == ["University 2 → University explicit"])
    }

    @Test func anUnknownVersionListsTheAvailableOnes() throws {
        let (history, mappings) = try Self.mappings("Events")
        let error = try #require(throws: UpgradeError.self) {
            try UpgradePlanner(history: history, mappings: mappings).plan(from: "Events", to: "Events 9")
        }
        #expect(error.description.contains("Events 9"))
        #expect(error.description.contains("Events, Events 2"))
    }
}

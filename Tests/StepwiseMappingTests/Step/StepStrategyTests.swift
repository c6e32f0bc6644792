import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import StepwiseMapping

/// A step chooses its strategy in one place, and its report says which, as `strategy` and,
/// for one release, the derived `inPlace`.
@Suite("Step strategy")
struct StepStrategyTests {
    typealias Kitchen = SetBasedRelinkTests.Kitchen

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A step whose shape takes `strategy`, and a seeded source for it: an inferred step that
    /// only renames, adds and drops (in place); an explicit one mixing plain copies with a
    /// real mapping (partial rebuild); the same naming a policy (rebuild).
    func step(taking strategy: StepStrategy) throws -> (MigrationStep, source: URL) {
        let source = directory.path("\(strategy).sqlite")
        switch strategy {
        case .inPlace:
            try StepFixtures.store(at: source, model: InPlaceStepTests.before) { objects in
                _ = try objects.insert("Customer", ["name": "Ada", "legacyCode": "L1"])
            }
            return (MigrationStep(from: InPlaceStepTests.before, to: InPlaceStepTests.after), source)
        case .partialRebuild, .rebuild:
            try StepFixtures.store(at: source, model: Kitchen.v1, Kitchen.seed(deleting: false))
            var policies = PolicyRegistry()
            policies.register("Passive") { SetBasedRelinkTests.PassivePolicy() }
            let mapping = Kitchen.mapping(policy: strategy == .rebuild ? "Passive" : nil)
            let models = try StepFixtures.mappingModels([mapping], from: Kitchen.v1, to: Kitchen.v2)
            return (MigrationStep(from: Kitchen.v1, to: Kitchen.v2, mappingModels: models, policies: policies), source)
        }
    }

    @Test("each kind of step chooses its strategy, and its report and JSON say so", arguments: StepStrategy.allCases)
    func chosenStrategyIsReported(_ expected: StepStrategy) throws {
        let (step, source) = try step(taking: expected)
        let models = try step.resolvedMappingModels()
        let (_, layouts, _) = try step.prepareSource(source, models: models, readOnly: false)
        let chosen = try step.chooseStrategy(source: source, access: .privateCopy, models: models, layouts: layouts)
        #expect(chosen.strategy == expected)

        let report = try step.run(source: source, destination: directory.path("\(expected) out.sqlite"))
        #expect(report.strategy == expected)
        #expect(report.inPlace == (expected == .inPlace))
        #expect(report.keptTables.isEmpty == (expected != .partialRebuild))

        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(json["strategy"] as? String == expected.rawValue)
        #expect(json["inPlace"] as? Bool == (expected == .inPlace))
        #expect(try JSONDecoder().decode(StepReport.self, from: JSONEncoder().encode(report)) == report)
    }

    /// A report the previous release wrote (in a journal an interrupted upgrade left, say):
    /// `inPlace` and `keptTables`, no `strategy`.
    static func oldReport(inPlace: Bool, keptTables: [String]) -> Data {
        Data(
            """
            {"from": "Recipes 3", "to": "Recipes 4", "kind": "inferred", "mappingModels": ["Recipes 3 to 4"],
             "entityMappings": [{"name": "RecipeToRecipe", "instances": 4, "links": 0, "setBased": true}],
             "rows": 4, "objects": 6, "seconds": 0.25, "inPlace": \(inPlace), "drops": [],
             "keptTables": \(keptTables), "resumed": false}
            """.utf8)
    }

    @Test(
        "a report written before `strategy` existed reads its strategy from `inPlace` and `keptTables`",
        arguments: [
            (true, [], StepStrategy.inPlace), (false, ["ZCHEF"], .partialRebuild), (false, [], .rebuild),
        ] as [(Bool, [String], StepStrategy)])
    func oldReportDecodes(inPlace: Bool, keptTables: [String], expected: StepStrategy) throws {
        let report = try JSONDecoder().decode(
            StepReport.self, from: Self.oldReport(inPlace: inPlace, keptTables: keptTables))
        #expect(report.strategy == expected)
        #expect(report.inPlace == inPlace)
        #expect(report.keptTables == keptTables)
        #expect(report.entityMappings.map(\.name) == ["RecipeToRecipe"])
    }

    @Test func theStrategyNamesItselfForPeople() {
        var report = StepReport(
            from: "A", to: "B", kind: .explicit, mappingModels: [], entityMappings: [], rows: 0, objects: 0,
            seconds: 0, strategy: .partialRebuild)
        report.keptTables = ["ZCHEF", "ZTAG"]
        #expect(report.strategySummary == "partial rebuild: kept 2 tables")
        report.keptTables = ["ZCHEF"]
        #expect(report.strategySummary == "partial rebuild: kept 1 table")
        report.strategy = .inPlace
        #expect(report.strategySummary == "in place")
        report.strategy = .rebuild
        #expect(report.strategySummary == "rebuilt")
    }
}

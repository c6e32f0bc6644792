import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Consecutive inferred steps of a plan run as one pass when their mappings compose exactly.
@Suite("Upgrade planner: merged inferred steps")
struct UpgradePlannerMergingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static func describe(_ plan: UpgradePlan) -> [String] {
        plan.steps.map { step in
            "\(step.from) → \(step.to) \(step.kind.rawValue)" + (step.via.isEmpty ? "" : " via \(step.via)")
        }
    }

    /// What a Pets 3 store holds, in the seed's terms: keepers with their creatures (sorted by
    /// label), and the creatures nobody keeps.
    static func petsContents(of url: URL) throws -> (
        people: Set<RenameChainHistory.Person>, strays: [RenameChainHistory.Pet]
    ) {
        let layout = try StoreLayout(model: RenameChainHistory.v3)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            func pet(_ creature: StoredObject) -> RenameChainHistory.Pet {
                RenameChainHistory.Pet(name: creature.string("label") ?? "", age: creature.int("age").map(Int.init))
            }
            var people: Set<RenameChainHistory.Person> = []
            for keeper in try objects.fetch("Keeper") {
                let creatures = try objects.related(keeper.id, "creatures").map { try pet(objects.object($0)) }
                people.insert(
                    RenameChainHistory.Person(
                        name: keeper.string("displayName") ?? "", nickname: keeper.string("nickname"),
                        pets: creatures.sorted { $0.name < $1.name }))
            }
            let strays = try objects.fetch("Creature").filter { try objects.related($0.id, "keeper").isEmpty }.map(pet)
            return (people, strays)
        }
    }

    @Test func aRenamesOnlyChainCollapsesIntoOnePass() throws {
        let plan = try UpgradePlanner(history: RenameChainHistory.history).plan(from: "Pets", to: "Pets 3")
        #expect(Self.describe(plan) == ["Pets → Pets 3 inferred via [\"Pets 2\"]"])
        let step = try #require(plan.steps.first)
        #expect(step.versions == ["Pets", "Pets 2", "Pets 3"])
        #expect(step.isMerged)
        #expect(step.mappingModels.map(\.name) == ["Pets → Pets 3"])
        #expect(step.mappingModels.allSatisfy { $0.isInferred })

        // Run that one step on a seeded store: every value reaches its final name.
        let source = directory.path("Pets.sqlite")
        try RenameChainHistory.seed(at: source)
        let destination = directory.path("Pets 3.sqlite")
        let report = try MigrationStep(
            from: RenameChainHistory.v1, to: RenameChainHistory.v3, mappingModels: step.mappingModels
        ).run(source: source, destination: destination)
        #expect(report.kind == .inferred)
        #expect(report.rows == 7)
        let contents = try Self.petsContents(of: destination)
        let expected = Set(
            RenameChainHistory.people.map { person in
                var sorted = person
                sorted.pets.sort { $0.name < $1.name }
                return sorted
            })
        #expect(contents.people == expected)
        #expect(contents.strays == [RenameChainHistory.stray])
        let identification = try VersionRegistry(history: RenameChainHistory.history).identify(storeAt: destination)
        #expect(identification.version?.name == "Pets 3")
        #expect(identification.matchedBy == .hash)
    }

    @Test func theMergedStepLeavesWhatTheStepsOneAfterTheOtherLeave() throws {
        let source = directory.path("Pets.sqlite")
        try RenameChainHistory.seed(at: source)
        let separate = try UpgradePlanner(history: RenameChainHistory.history, mergesInferredSteps: false)
            .plan(from: "Pets", to: "Pets 3")
        #expect(Self.describe(separate) == ["Pets → Pets 2 inferred", "Pets 2 → Pets 3 inferred"])
        var current = source
        for step in separate.steps {
            let next = directory.path("\(step.to) (separate).sqlite")
            _ = try MigrationStep(
                from: try #require(RenameChainHistory.history.version(named: step.from)),
                to: try #require(RenameChainHistory.history.version(named: step.to)),
                mappingModels: step.mappingModels
            ).run(source: current, destination: next)
            current = next
        }
        let merged = try #require(
            try UpgradePlanner(history: RenameChainHistory.history).plan(from: "Pets", to: "Pets 3").steps.first)
        let onePass = directory.path("Pets 3 (one pass).sqlite")
        _ = try MigrationStep(
            from: RenameChainHistory.v1, to: RenameChainHistory.v3, mappingModels: merged.mappingModels
        ).run(source: source, destination: onePass)
        let (separatePeople, separateStrays) = try Self.petsContents(of: current)
        let (onePassPeople, onePassStrays) = try Self.petsContents(of: onePass)
        #expect(onePassPeople == separatePeople)
        #expect(onePassStrays == separateStrays)
        #expect(onePassPeople.count == 3)
    }

    /// Integer 64 → Double → String stores `"3.0"` in two steps, `"3"` in one: not merged.
    @Test func aChainThatCantBeComposedExactlyStaysAsSeparateSteps() throws {
        let v1 = ObjectModel("Scores") { Entity("Score") { Attribute("points", .integer64) } }
        let v2 = ObjectModel("Scores 2") { Entity("Score") { Attribute("points", .double) } }
        let v3 = ObjectModel("Scores 3") { Entity("Score") { Attribute("points", .string) } }
        let history = VersionHistory([v1, v2, v3])
        let plan = try UpgradePlanner(history: history).plan(from: "Scores", to: "Scores 3")
        #expect(Self.describe(plan) == ["Scores → Scores 2 inferred", "Scores 2 → Scores 3 inferred"])
        #expect(plan.steps.allSatisfy { !$0.isMerged })

        var current = directory.path("Scores.sqlite")
        try StoreCreator.createStore(at: current, model: v1)
        let queue = try DatabaseQueue(path: current.path)
        try queue.write { db in _ = try ObjectContext(db, layout: StoreLayout(model: v1)).insert("Score", ["points": 3])
        }
        try queue.close()
        for step in plan.steps {
            let next = directory.path("\(step.to).sqlite")
            _ = try MigrationStep(
                from: try #require(history.version(named: step.from)),
                to: try #require(history.version(named: step.to)),
                mappingModels: step.mappingModels
            ).run(source: current, destination: next)
            current = next
        }
        let final = try DatabaseQueue(path: current.path)
        defer { try? final.close() }
        let points = try final.read { db in
            try ObjectContext(db, layout: StoreLayout(model: v3)).fetch("Score").map { $0.string("points") }
        }
        #expect(points == ["3.0"])
    }

    /// The run so far is kept when the next step doesn't compose with it, and a new run starts.
    @Test func mergingFoldsLeftAndStartsANewRunWhereCompositionStops() throws {
        let v1 = ObjectModel("Log") { Entity("Entry") { Attribute("count", .integer16) } }
        let v2 = ObjectModel("Log 2") {
            Entity("Entry") { Attribute("total", .integer32).renamed(from: "count") }
        }
        let v3 = ObjectModel("Log 3") {
            Entity("Record") { Attribute("total", .integer32) }.renamed(from: "Entry")
        }
        let v4 = ObjectModel("Log 4") { Entity("Record") { Attribute("total", .string) } }
        let v5 = ObjectModel("Log 5") {
            Entity("Record") { Attribute("sum", .string).renamed(from: "total") }
        }
        let planner = UpgradePlanner(history: VersionHistory([v1, v2, v3, v4, v5]))
        let plan = try planner.plan(from: "Log", to: "Log 5")
        #expect(
            Self.describe(plan) == [
                "Log → Log 3 inferred via [\"Log 2\"]", "Log 3 → Log 5 inferred via [\"Log 4\"]",
            ])
        #expect(
            plan.steps.map { $0.mappingModels.flatMap(\.summaryLines) } == [
                ["EntryToRecord: total=$source.count {stepwise.widening=integer16→integer32}"],
                ["RecordToRecord: sum=$source.total {stepwise.widening=integer32→string}"],
            ])
    }

    /// A step with a migration stage must run between its own two versions.
    @Test func aStepKeptApartIsNeverMerged() throws {
        let planner = UpgradePlanner(
            history: RenameChainHistory.history, stepsKeptApart: [MappingDirectory.StepKey("Pets 2", "Pets 3")])
        let plan = try planner.plan(from: "Pets", to: "Pets 3")
        #expect(Self.describe(plan) == ["Pets → Pets 2 inferred", "Pets 2 → Pets 3 inferred"])
    }

    @Test func anExplicitStepBreaksARunOfInferredSteps() throws {
        let written = MappingModel(
            from: "Pets 2", to: "Pets 3",
            entityMappings: try MappingInference.inferMapping(from: RenameChainHistory.v2, to: RenameChainHistory.v3)
                .entityMappings)
        let planner = UpgradePlanner(
            history: RenameChainHistory.history, mappings: [MappingDirectory.StepKey("Pets 2", "Pets 3"): [written]])
        let plan = try planner.plan(from: "Pets", to: "Pets 3")
        #expect(Self.describe(plan) == ["Pets → Pets 2 inferred", "Pets 2 → Pets 3 explicit"])
    }
}

extension MappingModel {
    /// `EntryToRecord: total=$source.count {key=value}` for each entity mapping with properties.
    fileprivate var summaryLines: [String] {
        entityMappings.filter { !$0.attributeMappings.isEmpty }.map { mapping in
            let properties = mapping.attributeMappings.map { property in
                let info = property.userInfo.keys.sorted().map { "\($0)=\(property.userInfo[$0] ?? "")" }
                return "\(property.name)=\(property.valueExpression?.description ?? "nil")"
                    + (info.isEmpty ? "" : " {\(info.joined(separator: ", "))}")
            }
            return "\(mapping.name): \(properties.joined(separator: ", "))"
        }
    }
}

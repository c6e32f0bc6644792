import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Deliberately broken upgrades: each must fail its check, and the failure must name the
/// pair, the entity, the seeded row and the property.
@Suite("UpgradeMatrix: failures")
struct UpgradeMatrixFailureTests {
    /// The Recipes history with its mapping files from `Versions/`, and `stages` and `policies`.
    func recipes(
        stages: [MigrationStage] = [], policies: PolicyRegistry = SamplePolicies.registry
    ) throws -> UpgradeMatrix {
        let folder = Corpus.packageRoot.appendingPathComponent("Versions/Recipes.mappings")
        let mappings = try MappingDirectory(contentsOf: folder, history: RecipesHistory.history).steps
        return try UpgradeMatrix(
            history: RecipesHistory.history, mappings: mappings, policies: policies, stages: stages)
    }

    func failureOf(_ body: () throws -> Void) -> UpgradeMatrixFailure? {
        do {
            try body()
            return nil
        } catch {
            return error as? UpgradeMatrixFailure
        }
    }

    @Test("a failure's kind, check and localized description")
    func kindAndLocalizedDescription() {
        let seeding = UpgradeMatrixFailure(.invalidRowCount(entity: "Tag", count: -1), path: "/x/Seed.sqlite")
        #expect(seeding.check == nil && seeding.pair == nil)
        #expect(seeding.caseName == "invalidRowCount")
        #expect(seeding.subjectPath == "/x/Seed.sqlite")
        #expect(
            seeding.localizedDescription
                == "/x/Seed.sqlite: can't seed -1 rows of 'Tag': give 0 or more rows, to concrete entities of the model."
        )
        let pair = UpgradeMatrix.Pair(from: "Recipes 3", to: "Recipes 4")
        let cell = UpgradeMatrixFailure(pair: pair, check: .value, entity: "Recipe", detail: "differs")
        #expect(cell.kind == .checkFailed(.value, detail: "differs"))
        #expect(cell.check == .value)
        #expect(cell.caseName == "value")
        #expect(cell.localizedDescription == cell.description)
        #expect(cell.description == "Recipes 3 → Recipes 4: value check failed for Recipe: differs")
    }

    @Test("a stage that rewrites a copied value fails the value check, naming the row and property")
    func changedValue() throws {
        let matrix = try recipes(stages: [
            MigrationStage(
                from: "Recipes 3", to: "Recipes 4",
                didMigrate: { db, _ in
                    try db.execute(sql: "UPDATE ZRECIPE SET ZNAME = 'tampered' WHERE Z_PK = 3")
                })
        ])
        let pair = UpgradeMatrix.Pair(from: "Recipes 3", to: "Recipes 4")
        let failure = try #require(failureOf { try matrix.check(pair) })
        #expect(failure.check == .value)
        #expect(failure.entity == "Recipe")
        #expect(failure.sourcePrimaryKey == 3)
        #expect(failure.property == "name")
        #expect(
            failure.description.hasPrefix(
                "Recipes 3 → Recipes 4: value check failed for Recipe, source row Z_PK 3, property 'name': "))
        #expect(failure.description.contains("the upgraded store holds \"tampered\""))
        // Through the explicit step before it, the same row is still named by its seeded key.
        let longer = try #require(
            failureOf { try matrix.check(UpgradeMatrix.Pair(from: "Recipes 2", to: "Recipes 4")) })
        #expect(longer.check == .value)
        #expect(longer.property == "name")
        #expect(longer.sourcePrimaryKey == 3)
    }

    @Test("a stage that deletes a copied row fails the row count check")
    func lostRow() throws {
        let matrix = try recipes(stages: [
            MigrationStage(
                from: "Recipes 3", to: "Recipes 4",
                didMigrate: { db, _ in
                    try db.execute(sql: "DELETE FROM ZUNITOFMEASURE WHERE Z_PK = 1")
                    try db.execute(sql: "UPDATE ZRECIPEINGREDIENT SET ZUNIT = NULL WHERE ZUNIT = 1")
                })
        ])
        let failure = try #require(
            failureOf { try matrix.check(UpgradeMatrix.Pair(from: "Recipes 3", to: "Recipes 4")) })
        #expect(failure.check == .rowCount)
        #expect(failure.entity == "UnitOfMeasure")
        #expect(failure.description.contains("the seeded store has 20 rows, the upgraded store 19"))
        // The fix, when a policy writes the entity on purpose.
        #expect(failure.description.contains(#"writesOtherEntities: [String: Set<String>] { ["UnitOfMeasure": []] }"#))
    }

    @Test("a policy that throws on one row fails the upgrade, naming the entity, row and property")
    func throwingPolicy() throws {
        var policies = SamplePolicies.registry
        policies.register("ChefNamePolicy") { ASCIINamePolicy() }
        let matrix = try recipes(policies: policies)
        let failure = try #require(failureOf { try matrix.check(UpgradeMatrix.Pair(from: "Recipes", to: "Recipes 4")) })
        // The first chef whose seeded name isn't ASCII; Chef rows have keys 1, 2, 3…
        let name = try #require(RecipesHistory.v1[entity: "Chef"]?.attribute(named: "name"))
        let values = SeededValues(seed: UpgradeMatrix.defaultSeed)
        let row = try #require(
            try (0..<UpgradeMatrix.defaultRows).first { row in
                let value = try values.value(of: name, entity: "Chef", row: row, primaryKey: Int64(row + 1))
                return String.fromDatabaseValue(value)?.unicodeScalars.allSatisfy(\.isASCII) == false
            })
        #expect(failure.check == .upgrade)
        #expect(failure.entity == "Chef")
        #expect(failure.sourcePrimaryKey == Int64(row + 1))
        #expect(failure.property == "name")
        #expect(
            failure.description.contains(
                "Recipes → Recipes 4: upgrade failed for Chef, source row Z_PK \(row + 1), property 'name'"))
        #expect(failure.description.contains("only ASCII names"))
        // Its work isn't kept for a resume, as an app's would be: the matrix says so.
        #expect(!failure.description.contains("so that the next upgrade resumes"))
        #expect(failure.description.contains("the matrix deletes the pair's stores and work folders"), "\(failure)")
    }

    @Test("a policy whose values differ on every run fails path independence, unless the property is ignored")
    func pathDependentPolicy() throws {
        let history = VersionHistory([TicketHistory.v1, TicketHistory.v2, TicketHistory.v3])
        var policies = PolicyRegistry()
        policies.register("SerialPolicy") { SerialPolicy() }
        let mapping = MappingModel(
            from: "Tickets", to: "Tickets 2",
            entityMappings: [
                EntityMapping(
                    kind: .custom, source: "Ticket", destination: "Ticket", policyName: "SerialPolicy",
                    attributeMappings: [PropertyMapping("title", .source("title"))])
            ])
        let mappings = [MappingDirectory.StepKey("Tickets", "Tickets 2"): [mapping]]
        let pair = UpgradeMatrix.Pair(from: "Tickets", to: "Tickets 3")
        let matrix = try UpgradeMatrix(history: history, mappings: mappings, policies: policies)
        let failure = try #require(failureOf { try matrix.check(pair) })
        #expect(failure.check == .pathIndependence)
        #expect(failure.entity == "Ticket")
        #expect(failure.property == "serial")
        #expect(failure.description.contains("stopping at Tickets 2 gives"))

        let ignoring = try UpgradeMatrix(
            history: history, mappings: mappings, policies: policies, ignoring: ["Ticket.serial"])
        let result = try ignoring.check(pair)
        #expect(result.pathsCompared == 2)
    }

    /// The Recipes mappings with `Cuisine` left out of `Recipes 2 to Recipes 3.json`, as the
    /// issue's new user did with `Tag`: both versions have the entity, and the upgrade empties it.
    func recipesLeavingOutCuisine(declaring: Bool = false, allowing: Set<String> = []) throws -> UpgradeMatrix {
        let folder = Corpus.packageRoot.appendingPathComponent("Versions/Recipes.mappings")
        var mappings = try MappingDirectory(contentsOf: folder, history: RecipesHistory.history).steps
        let key = MappingDirectory.StepKey("Recipes 2", "Recipes 3")
        var models = try #require(mappings[key]).map { $0.leavingOut(entity: "Cuisine") }
        if declaring {
            models[0].entityMappings.append(EntityMapping(kind: .remove, source: "Cuisine", destination: nil))
        }
        mappings[key] = models
        return try UpgradeMatrix(
            history: RecipesHistory.history, mappings: mappings, policies: SamplePolicies.registry,
            allowingDrops: allowing)
    }

    @Test("an entity left out of an explicit mapping fails the dropped rows check, unless the drop is declared")
    func leftOutEntity() throws {
        let pair = UpgradeMatrix.Pair(from: "Recipes 2", to: "Recipes 3")
        let failure = try #require(failureOf { try recipesLeavingOutCuisine().check(pair) })
        #expect(failure.check == .droppedRows)
        #expect(failure.entity == "Cuisine")
        #expect(failure.description.contains("the seeded store has 20 rows and the upgraded store none"))
        #expect(
            failure.description.contains(
                "step 1 (Recipes 2 → Recipes 3, explicit) drops its rows (left out of the mapping)"))
        // Declared by an entity mapping with no destination, or by the matrix: it passes, and
        // Cuisine is neither copied nor counted as covered.
        for matrix in [
            try recipesLeavingOutCuisine(declaring: true), try recipesLeavingOutCuisine(allowing: ["Cuisine"]),
        ] {
            let result = try matrix.check(pair)
            #expect(result.pair == pair)
            #expect(!result.copiedEntities.contains("Cuisine"))
            #expect(result.copiedEntities.contains("Chef"))
        }
    }

    @Test("a passing pair lists what no check covered")
    func uncheckedIsListed() throws {
        let result = try recipes().check(UpgradeMatrix.Pair(from: "Recipes 3", to: "Recipes 4"))
        // Recipes 4 adds Chef.email, Recipe.notes and Recipe.prepMinutes: no value to compare.
        #expect(result.unchecked == ["Chef.email", "Recipe.notes", "Recipe.prepMinutes"])
    }

    @Test("a pair outside the matrix is refused")
    func unknownPair() throws {
        let matrix = try UpgradeMatrix(history: RecipesHistory.history)
        // Without mapping files only the inferable steps are left: 2 → 3 is inferred as Core
        // Data infers it, leaving out the ingredient links; 1 → 2 can't be.
        #expect(
            matrix.cases.map(\.description) == [
                "Recipes 2 → Recipes 3", "Recipes 2 → Recipes 4", "Recipes 3 → Recipes 4",
            ])
        #expect(matrix.unreachable.count == 3)
        let failure = try #require(failureOf { try matrix.check(UpgradeMatrix.Pair(from: "Recipes", to: "Recipes 2")) })
        #expect(failure.check == .plan)
        #expect(failure.description.contains("Recipes to Recipes 2.json"))
    }
}

/// Recipes 1 → 2's chef-name functions, refusing names that aren't ASCII.
final class ASCIINamePolicy: EntityMigrationPolicy {
    override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        guard let name = arguments.first?.stringValue else { return .null }
        guard name.unicodeScalars.allSatisfy(\.isASCII) else {
            throw MappingError(.invalidValue("only ASCII names can be split"), property: "name")
        }
        let parts = name.split(separator: " ", maxSplits: 1)
        return .string(selector == "firstNameOf:" ? parts.first.map(String.init) ?? "" : parts.dropFirst().joined())
    }
}

/// Gives every ticket a fresh serial: a different value on every run.
final class SerialPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let ticket = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
        try manager.destination.update(ticket, ["serial": UUID().uuidString])
    }
}

/// Tickets gain a serial number (an explicit step with a policy), then an optional note
/// (an inferred step).
enum TicketHistory {
    static let v1 = ObjectModel("Tickets") {
        Entity("Ticket") { Attribute("title", .string) }
    }
    static let v2 = ObjectModel("Tickets 2") {
        Entity("Ticket") {
            Attribute("serial", .string)
            Attribute("title", .string)
        }
    }
    static let v3 = ObjectModel("Tickets 3") {
        Entity("Ticket") {
            Attribute("note", .string)
            Attribute("serial", .string)
            Attribute("title", .string)
        }
    }
}

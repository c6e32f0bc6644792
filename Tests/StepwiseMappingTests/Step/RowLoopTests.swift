import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// The row-by-row path's shortcuts (issue 12) leave what it writes unchanged: prepared
/// statements, primary keys reserved in ranges, compiled expressions, and the opt-in
/// set-based pass 2 for policies that keep the default hook.
@Suite("Row loop")
struct RowLoopTests {
    typealias Library = SetBasedPathTests.Library

    /// Keeps the default pass-2 hook and says so.
    final class DefaultRelationshipsPolicy: EntityMigrationPolicy {
        override var createsRelationshipsByDefault: Bool { true }
    }

    /// Splits a name in its policy function, as the sample chef policy does.
    final class UpperNamePolicy: EntityMigrationPolicy {
        override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
            -> MappingValue
        {
            guard selector == "upper:" else {
                return try super.function(named: selector, arguments: arguments, manager: manager)
            }
            return arguments.first?.stringValue.map { .string($0.uppercased()) } ?? .null
        }
    }

    /// Runs the inferred Library step with `policy` registered on every entity mapping.
    static func runLibrary(
        policy: @escaping @Sendable () -> EntityMigrationPolicy, in directory: TemporaryDirectory, name: String
    ) throws -> (URL, StepReport, URL) {
        let source = directory.path("\(name)-source.sqlite")
        try StepFixtures.store(at: source, model: Library.v1, Library.seed)
        var mapping = try MappingInference.inferMapping(from: Library.v1, to: Library.v2)
        for index in mapping.entityMappings.indices {
            mapping.entityMappings[index].policyName = "Test"
        }
        var policies = PolicyRegistry()
        policies.register("Test", policy)
        let destination = directory.path("\(name).sqlite")
        let report = try MigrationStep(
            from: Library.v1, to: Library.v2, mappingModels: [mapping], policies: policies
        ).run(source: source, destination: destination)
        return (destination, report, source)
    }

    @Test func aPolicyKeepingTheDefaultHookLinksSetBasedWithTheSameResult() throws {
        let directory = try TemporaryDirectory()
        let (optedIn, report, source) = try Self.runLibrary(
            policy: { DefaultRelationshipsPolicy() }, in: directory, name: "opted-in")
        let (rowByRow, _, _) = try Self.runLibrary(
            policy: { SetBasedPathTests.PassivePolicy() }, in: directory, name: "row-by-row")
        let setBased = directory.path("set-based.sqlite")
        _ = try MigrationStep(from: Library.v1, to: Library.v2).run(source: source, destination: setBased)
        // Pass 1 still ran row by row (the policy sees every row).
        #expect(report.entityMappings.allSatisfy { !$0.setBased })
        let optedInRows = try StepFixtures.dump(optedIn)
        for other in [rowByRow, setBased] {
            let otherRows = try StepFixtures.dump(other)
            #expect(optedInRows.keys.sorted() == otherRows.keys.sorted())
            for table in optedInRows.keys.sorted() {
                let differences = zip(optedInRows[table] ?? [], otherRows[table] ?? []).filter { $0 != $1 }.prefix(3)
                #expect((optedInRows[table] ?? []).count == (otherRows[table] ?? []).count, "\(table)")
                #expect(differences.isEmpty, "\(table): \(Array(differences))")
            }
        }
    }

    @Test func zMaxIsTheLastKeyOfEachHierarchyAfterARowByRowStep() throws {
        let directory = try TemporaryDirectory()
        let (destination, _, _) = try Self.runLibrary(
            policy: { SetBasedPathTests.PassivePolicy() }, in: directory, name: "row-by-row")
        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: Library.v2)
        try queue.read { db in
            for entity in layout.entities where entity.isRoot {
                let zMax = try Int64.fetchOne(
                    db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [entity.number])
                let last = try Int64.fetchOne(
                    db, sql: "SELECT COALESCE(MAX(Z_PK), 0) FROM \(entity.tableName.quotedSQLIdentifier)")
                #expect(zMax == last, "\(entity.name)")
            }
        }
    }

    @Test func compiledPolicyFunctionsAndKeyPathsWriteWhatTheEvaluatorDoes() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try StepFixtures.store(at: source, model: Library.v1, Library.seed)
        let text = """
            {
              "source": "Library", "destination": "Library 2",
              "entityMappings": [
                { "name": "PublisherToPublisher", "source": "Publisher", "destination": "Publisher",
                  "policy": "Upper", "copyMatchingProperties": false,
                  "attributes": {
                    "name": "FUNCTION($entityPolicy, \\"upper:\\", $source.name)",
                    "country": "$source.country"
                  } }
              ]
            }
            """
        let mapping = try MappingFile.decode(Data(text.utf8), source: Library.v1, destination: Library.v2)
        var policies = PolicyRegistry()
        policies.register("Upper") { UpperNamePolicy() }
        let destination = directory.path("destination.sqlite")
        _ = try MigrationStep(from: Library.v1, to: Library.v2, mappingModels: [mapping], policies: policies)
            .run(source: source, destination: destination)
        let expected = try StepFixtures.read(source, Library.v1) { objects in
            try objects.fetch("Publisher").map { ($0.string("name")?.uppercased(), $0.string("country") ?? "unknown") }
        }
        let written = try StepFixtures.read(destination, Library.v2) { objects in
            try objects.fetch("Publisher").map { ($0.string("name"), $0.string("country")) }
        }
        #expect(written.map(\.0) == expected.map(\.0))
        #expect(written.map(\.1) == expected.map(\.1))
        #expect(written.count == 20)
    }

    @Test func aFailingPolicyFunctionStillNamesTheMappingEntityPropertyAndRow() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try StepFixtures.store(at: source, model: Library.v1, Library.seed)
        let text = """
            {
              "source": "Library", "destination": "Library 2",
              "entityMappings": [
                { "name": "PublisherToPublisher", "source": "Publisher", "destination": "Publisher",
                  "policy": "Upper", "copyMatchingProperties": false,
                  "attributes": { "name": "FUNCTION($entityPolicy, \\"missing:\\", $source.name)" } }
              ]
            }
            """
        let mapping = try MappingFile.decode(Data(text.utf8), source: Library.v1, destination: Library.v2)
        var policies = PolicyRegistry()
        policies.register("Upper") { UpperNamePolicy() }
        let step = MigrationStep(from: Library.v1, to: Library.v2, mappingModels: [mapping], policies: policies)
        let error = try #require(throws: MappingError.self) {
            try step.run(source: source, destination: directory.path("destination.sqlite"))
        }
        #expect(error.entityMapping == "PublisherToPublisher")
        #expect(error.entity == "Publisher")
        #expect(error.property == "name")
        #expect(error.sourcePrimaryKey == 1)
    }
}

import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// Uniqueness constraints are checked when the step ends, as Core Data checks them when the
/// migration saves: values may clash in between, and a clash left at the end is refused
/// naming the entity, the properties, the value and the two source rows.
@Suite("Uniqueness checked when the step ends")
struct UniquenessCheckedAtEndTests {
    /// Tags with a unique code; v2 adds a note, and a unique `(group, rank)` pair.
    static let v1 = ObjectModel("Tags") {
        Entity("Tag") {
            Attribute("code", .string)
            Attribute("group", .string)
            Attribute("rank", .integer32)
            Unique("code")
        }
    }

    static let v2 = ObjectModel("Tags 2") {
        Entity("Tag") {
            Attribute("code", .string)
            Attribute("group", .string)
            Attribute("note", .string)
            Attribute("rank", .integer32)
            Unique("code")
            Unique("group", "rank")
        }
    }

    /// The mapping, with `code` and `rank` from the given expressions and TagToTag's policy.
    static func mapping(code: String = "$source.code", rank: String = "$source.rank", policy: String? = nil)
        -> String
    {
        let policyKey = policy.map { ", \"policy\": \"\($0)\"" } ?? ""
        return """
            { "name": "Tags → Tags 2", "source": "Tags", "destination": "Tags 2",
              "entityMappings": [
                { "name": "TagToTag", "source": "Tag", "destination": "Tag"\(policyKey),
                  "attributes": { "code": "\(code)", "group": "$source.group", "rank": "\(rank)" } }
              ] }
            """
    }

    let directory: TemporaryDirectory
    let source: URL
    let destination: URL

    /// Three tags, Z_PK 1…3: codes b, a, z; groups x, x, y; ranks 1, 2, 1.
    init() throws {
        directory = try TemporaryDirectory()
        source = directory.path("Tags.sqlite")
        destination = directory.path("Tags 2.sqlite")
        try StepFixtures.store(at: source, model: Self.v1) { objects in
            _ = try objects.insert("Tag", ["code": "b", "group": "x", "rank": 1])
            _ = try objects.insert("Tag", ["code": "a", "group": "x", "rank": 2])
            _ = try objects.insert("Tag", ["code": "z", "group": "y", "rank": 1])
        }
    }

    func run(_ mapping: String, policies: PolicyRegistry = PolicyRegistry(), stage: MigrationStage? = nil) throws {
        let models = try StepFixtures.mappingModels([mapping], from: Self.v1, to: Self.v2)
        _ = try MigrationStep(from: Self.v1, to: Self.v2, mappingModels: models, policies: policies, stage: stage)
            .run(source: source, destination: destination)
    }

    /// `code` of every destination tag, by its group and rank.
    func codes() throws -> [String: String] {
        try StepFixtures.read(destination, Self.v2) { objects in
            var codes: [String: String] = [:]
            for tag in try objects.fetch("Tag") {
                codes["\(tag.string("group") ?? "")\(tag.int("rank") ?? 0)"] = tag.string("code")
            }
            return codes
        }
    }

    /// Every index of the store at `url`: name and statement.
    static func indexes(_ url: URL) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
            )
        }
    }

    @Test func aPolicyGivingOneTagAnothersOldCodeWhileThatOneMovesOnUpgrades() throws {
        var policies = PolicyRegistry()
        policies.register("Moving") { MovingCodesPolicy() }
        try run(Self.mapping(policy: "Moving"), policies: policies)
        // a took b's code while b still held it; b then moved on to c.
        #expect(try codes() == ["x1": "c", "x2": "b", "y1": "z"])
        // The unique indexes are back, as a new store has them, and their stand-ins are gone.
        let fresh = directory.path("Fresh.sqlite")
        try StoreCreator.createStore(at: fresh, model: Self.v2)
        #expect(try Self.indexes(destination) == Self.indexes(fresh))
        #expect(
            try Self.indexes(destination).map { $0.prefix { $0 != ":" } } == [
                "Z_Tag_UNIQUE_code", "Z_Tag_UNIQUE_group_rank",
            ])
    }

    @Test func aStageSwappingCodesInOneStatementUpgrades() throws {
        // SQLite checks a UNIQUE index row by row, within the statement: this UPDATE fails
        // under the index although its result is unique.
        let swap = MigrationStage(
            from: "Tags", to: "Tags 2",
            didMigrate: { db, _ in
                try db.execute(
                    sql:
                        #"UPDATE "ZTAG" SET "ZCODE" = CASE "ZCODE" WHEN 'a' THEN 'b' WHEN 'b' THEN 'a' ELSE "ZCODE" END"#
                )
            })
        try run(Self.mapping(), stage: swap)
        #expect(try codes() == ["x1": "a", "x2": "b", "y1": "z"])
    }

    @Test func aDuplicateLeftAtTheEndNamesTheEntityPropertyValueAndBothSourceRows() throws {
        // Every tag of group x gets the code "x": the set-based INSERT writes them all.
        let error = try #require(throws: MappingError.self) { try run(Self.mapping(code: "$source.group")) }
        #expect(error.entity == "Tag")
        #expect(error.property == "code")
        #expect(
            error.kind
                == .notUnique(
                    value: "\"x\"",
                    rows: [
                        .init(
                            destinationEntity: "Tag", destinationPrimaryKey: 1, entityMapping: "TagToTag",
                            sourceEntity: "Tag", sourcePrimaryKey: 1),
                        .init(
                            destinationEntity: "Tag", destinationPrimaryKey: 2, entityMapping: "TagToTag",
                            sourceEntity: "Tag", sourcePrimaryKey: 2),
                    ]))
        #expect(
            error.description
                == "mapping Tags → Tags 2, Tag.code: the uniqueness constraint fails when the step ends: two Tag objects have "
                + "code = \"x\", made from source Tag Z_PK 1 (destination Z_PK 1, entity mapping TagToTag) and source Tag Z_PK 2 "
                + "(destination Z_PK 2, entity mapping TagToTag). Change the mapping or policy so that each object gets its own value, or fix the data in the source store"
        )
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func aDuplicateOfSeveralPropertiesSpellsEveryValue() throws {
        // Every rank becomes 1: tags 1 and 2 (group x) clash on (group, rank).
        let error = try #require(throws: MappingError.self) { try run(Self.mapping(rank: "1")) }
        #expect(error.property == "group, rank")
        guard case .notUnique(let value, let rows) = error.kind else {
            Issue.record("not a uniqueness error: \(error)")
            return
        }
        #expect(value == "(\"x\", 1)")
        #expect(rows.map(\.sourcePrimaryKey) == [1, 2])
    }

    @Test func anObjectAPolicyCreatedIsNamedAsHavingNoSourceRow() throws {
        var policies = PolicyRegistry()
        policies.register("Inserting") { InsertingDuplicatePolicy() }
        let error = try #require(throws: MappingError.self) {
            try run(Self.mapping(policy: "Inserting"), policies: policies)
        }
        guard case .notUnique(let value, let rows) = error.kind else {
            Issue.record("not a uniqueness error: \(error)")
            return
        }
        #expect(value == "\"a\"")
        #expect(rows.map(\.sourcePrimaryKey) == [2, nil])
        #expect(rows.map(\.destinationPrimaryKey) == [2, 4])
        #expect(
            error.description.contains(
                "destination Tag Z_PK 4 (no source row: created by a policy or by the mapping itself)"))
    }
}

extension UniquenessCheckedAtEndTests {
    /// v1 without the code's uniqueness constraint; the inferred step to v1 runs in place.
    static let unconstrained = ObjectModel("Tags 0") {
        Entity("Tag") {
            Attribute("code", .string)
            Attribute("group", .string)
            Attribute("rank", .integer32)
        }
    }

    @Test func aStageSwappingCodesInAnInPlaceStepUpgrades() throws {
        // The inferred step v1 → v2 alters the store in place; its didMigrate stage swaps two
        // codes in one UPDATE, which the unique index would refuse midway.
        let swap = MigrationStage(
            from: "Tags", to: "Tags 2",
            didMigrate: { db, _ in
                try db.execute(
                    sql:
                        #"UPDATE "ZTAG" SET "ZCODE" = CASE "ZCODE" WHEN 'a' THEN 'b' WHEN 'b' THEN 'a' ELSE "ZCODE" END"#
                )
            })
        // A consumed source can't fall back to the rebuild: the in-place step must pass.
        let report = try MigrationStep(from: Self.v1, to: Self.v2, stage: swap).run(
            source: source, destination: destination, access: .consumableCopy)
        #expect(report.strategy == .inPlace)
        #expect(try codes() == ["x1": "a", "x2": "b", "y1": "z"])
        #expect(
            try Self.indexes(destination).map { $0.prefix { $0 != ":" } } == [
                "Z_Tag_UNIQUE_code", "Z_Tag_UNIQUE_group_rank",
            ])
    }

    @Test(arguments: [MigrationStep.SourceAccess.copy, .consumableCopy])
    func aConstraintTheRowsBreakIsRefusedByTheInPlaceStepNamingBothRows(access: MigrationStep.SourceAccess) throws {
        let loose = directory.path("Tags 0.sqlite")
        try StepFixtures.store(at: loose, model: Self.unconstrained) { objects in
            _ = try objects.insert("Tag", ["code": "a", "group": "x", "rank": 1])
            _ = try objects.insert("Tag", ["code": "b", "group": "x", "rank": 2])
            _ = try objects.insert("Tag", ["code": "a", "group": "y", "rank": 1])
        }
        let error = try #require(throws: MappingError.self) {
            try MigrationStep(from: Self.unconstrained, to: Self.v1).run(
                source: loose, destination: destination, access: access)
        }
        #expect(error.entity == "Tag")
        #expect(error.property == "code")
        guard case .notUnique(let value, let rows) = error.kind else {
            Issue.record("not a uniqueness error: \(error)")
            return
        }
        #expect(value == "\"a\"")
        // An in-place step keeps every key: the destination rows are the source rows.
        #expect(rows.map(\.sourcePrimaryKey) == [1, 3])
        #expect(rows.map(\.destinationPrimaryKey) == [1, 3])
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
}

/// After pass 1 copied every tag, moves codes one object at a time, as a Core Data policy
/// might: a takes b, then b takes c. The first update makes two b's until the second.
final class MovingCodesPolicy: EntityMigrationPolicy {
    override func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        let objects = manager.destination
        guard let a = try objects.fetch("Tag", where: .equal("code", "a")).first,
            let b = try objects.fetch("Tag", where: .equal("code", "b")).first
        else { throw MappingError(.failed("tags a and b should be there")) }
        try objects.update(a.id, ["code": "b"])
        try objects.update(b.id, ["code": "c"])
    }
}

/// Inserts, after pass 1, a tag with no source row whose code another tag has.
final class InsertingDuplicatePolicy: EntityMigrationPolicy {
    override func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        _ = try manager.destination.insert("Tag", ["code": "a", "group": "new", "rank": 9])
    }
}

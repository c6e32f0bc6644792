import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// Pass 3: every rule of the destination model is checked, and a failure names the entity,
/// the property and the source row to fix.
@Suite("Validation")
struct ValidationTests {
    /// Owners, their items and the items' tags. v1 has no rules; v2 requires an item's name
    /// and owner, 1 or 2 items per owner, and unique tag names.
    enum Catalog {
        static let v1 = ObjectModel("Catalog") {
            Entity("Item") {
                Attribute("name", .string)
                Relationship("owner", to: "Owner", inverse: "items")
                Relationship("tags", to: "Tag", inverse: "items").toMany()
            }
            Entity("Owner") {
                Attribute("name", .string)
                Relationship("items", to: "Item", inverse: "owner").toMany()
            }
            Entity("Tag") {
                Attribute("label", .string)
                Attribute("name", .string)
                Relationship("items", to: "Item", inverse: "tags").toMany()
            }
        }

        static func v2(nameDefault: String? = nil) -> ObjectModel {
            ObjectModel("Catalog 2") {
                Entity("Item") {
                    if let nameDefault {
                        Attribute("name", .string).required().defaultValue(nameDefault)
                    } else {
                        Attribute("name", .string).required()
                    }
                    Relationship("owner", to: "Owner", inverse: "items").required()
                    Relationship("tags", to: "Tag", inverse: "items").toMany()
                }
                Entity("Owner") {
                    Attribute("name", .string)
                    Relationship("items", to: "Item", inverse: "owner").toMany().count(min: 1, max: 2)
                }
                Entity("Tag") {
                    Attribute("name", .string)
                    Relationship("items", to: "Item", inverse: "tags").toMany()
                    Unique("name")
                }
            }
        }

        /// The mapping file; `item` and `tag` are extra keys of those entity mappings.
        static func mapping(item: String = "", tag: String = "") -> String {
            """
            { "source": "Catalog", "destination": "Catalog 2", "entityMappings": [
                { "source": "Owner", "destination": "Owner" },
                { "source": "Item", "destination": "Item"\(item) },
                { "source": "Tag", "destination": "Tag"\(tag) }
            ] }
            """
        }
    }

    let directory: TemporaryDirectory
    let source: URL
    let destination: URL

    /// Owners Ada (1) and Grace (2); items lamp (1) and desk (2) of Ada, chair (3) of Grace;
    /// tags wood (1, "Wood"), metal (2, "Metal") and oak (3, "Wood"). Valid at v2.
    init() throws {
        directory = try TemporaryDirectory()
        source = directory.path("Catalog.sqlite")
        destination = directory.path("Catalog 2.sqlite")
        try StepFixtures.store(at: source, model: Catalog.v1) { objects in
            let ada = try objects.insert("Owner", ["name": "Ada"])
            let grace = try objects.insert("Owner", ["name": "Grace"])
            let lamp = try objects.insert("Item", ["name": "lamp", "owner": ada])
            let desk = try objects.insert("Item", ["name": "desk", "owner": ada])
            let chair = try objects.insert("Item", ["name": "chair", "owner": grace])
            let wood = try objects.insert("Tag", ["name": "wood", "label": "Wood"])
            let metal = try objects.insert("Tag", ["name": "metal", "label": "Metal"])
            let oak = try objects.insert("Tag", ["name": "oak", "label": "Wood"])
            try objects.relate(lamp, "tags", to: metal)
            try objects.relate(desk, "tags", to: wood)
            try objects.relate(chair, "tags", to: oak)
        }
    }

    func run(
        _ texts: [String] = [Catalog.mapping()], to model: ObjectModel = Catalog.v2(),
        stage: MigrationStage? = nil, policies: PolicyRegistry = PolicyRegistry()
    ) throws -> StepReport {
        let models = try StepFixtures.mappingModels(texts, from: Catalog.v1, to: model)
        return try MigrationStep(from: Catalog.v1, to: model, mappingModels: models, policies: policies, stage: stage)
            .run(source: source, destination: destination)
    }

    /// Runs the step, expecting a validation error, and returns it.
    func validationError(
        _ texts: [String] = [Catalog.mapping()], to model: ObjectModel = Catalog.v2(),
        stage: MigrationStage? = nil, policies: PolicyRegistry = PolicyRegistry(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (error: MappingError, reason: String) {
        let before = StepFixtures.bytes(source)
        let error = #expect(throws: MappingError.self, sourceLocation: sourceLocation) {
            try run(texts, to: model, stage: stage, policies: policies)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path), sourceLocation: sourceLocation)
        #expect(StepFixtures.bytes(source) == before, sourceLocation: sourceLocation)
        guard let error, case .validation(let reason) = error.kind else {
            throw ValidationTestError.notAValidationError(String(describing: error))
        }
        return (error, reason)
    }

    enum ValidationTestError: Error {
        case notAValidationError(String)
    }

    @Test func theValidCatalogMigrates() throws {
        let report = try run()
        #expect(report.rows == 8)
        #expect(report.entityMappings.allSatisfy { $0.setBased })
    }

    // MARK: Required values

    @Test func aRequiredAttributeMappedToNilFailsNamingTheSourceRow() throws {
        // The filter skips the lamp, so the first destination Item (Z_PK 1) is the desk (Z_PK 2).
        let (error, reason) = try validationError([
            Catalog.mapping(item: #", "filter": "name != \"lamp\"", "attributes": { "name": "nil" }"#)
        ])
        #expect(reason.hasPrefix("the required attribute has no value (destination Z_PK 1)"))
        #expect(error.entity == "Item")
        #expect(error.property == "name")
        #expect(error.entityMapping == "ItemToItem")
        #expect(error.sourcePrimaryKey == 2)
        #expect("\(error)".contains("Item.name"))
        #expect("\(error)".contains("source row Z_PK 2"))
    }

    @Test(arguments: [#""nil""#, #""$source.owner.name""#])
    func aRequiredAttributeWithADefaultGetsTheDefaultInstead(expression: String) throws {
        _ = try run(
            [Catalog.mapping(item: #", "attributes": { "name": \#(expression) }"#)],
            to: Catalog.v2(nameDefault: "unnamed"))
        let names = try StepFixtures.read(destination, Catalog.v2(nameDefault: "unnamed")) { objects in
            try objects.fetch("Item").map { $0.string("name") }
        }
        #expect(names == (expression == #""nil""# ? ["unnamed", "unnamed", "unnamed"] : ["Ada", "Ada", "Grace"]))
    }

    @Test func aRequiredToOneLeftEmptyFailsNamingTheSourceRow() throws {
        try StepFixtures.write(source, Catalog.v1) { objects in
            _ = try objects.insert("Item", ["name": "stool"])
        }
        let (error, reason) = try validationError()
        #expect(reason.hasPrefix("the required relationship has no destination"))
        #expect(error.entity == "Item")
        #expect(error.property == "owner")
        #expect(error.sourcePrimaryKey == 4)
    }

    // MARK: Counts

    struct CountCase: Sendable, CustomTestStringConvertible {
        /// Items (by name) the new source owner gets; Ada already has two.
        var extraItemsForAda: Int
        var newOwnerWithoutItems: Bool
        var sourcePrimaryKey: Int64
        var testDescription: String {
            newOwnerWithoutItems ? "an owner without items" : "Ada with \(2 + extraItemsForAda) items"
        }
    }

    @Test(arguments: [
        CountCase(extraItemsForAda: 0, newOwnerWithoutItems: true, sourcePrimaryKey: 3),
        CountCase(extraItemsForAda: 1, newOwnerWithoutItems: false, sourcePrimaryKey: 1),
        CountCase(extraItemsForAda: 5, newOwnerWithoutItems: false, sourcePrimaryKey: 1),
    ])
    func aToManyOutsideItsCountsFailsNamingTheSourceRow(_ countCase: CountCase) throws {
        try StepFixtures.write(source, Catalog.v1) { objects in
            let ada = ObjectID(entity: "Owner", primaryKey: 1)
            for index in 0..<countCase.extraItemsForAda {
                _ = try objects.insert("Item", ["name": "box \(index)", "owner": ada])
            }
            if countCase.newOwnerWithoutItems {
                _ = try objects.insert("Owner", ["name": "Hedy"])
            }
        }
        let (error, reason) = try validationError()
        #expect(reason.hasPrefix("the relationship must hold between 1 and 2 objects"))
        #expect(error.entity == "Owner")
        #expect(error.property == "items")
        #expect(error.entityMapping == "OwnerToOwner")
        #expect(error.sourcePrimaryKey == countCase.sourcePrimaryKey)
    }

    // MARK: References

    @Test func aForeignKeyPointingNowhereFailsNamingTheSourceRow() throws {
        let stage = MigrationStage(
            from: "Catalog", to: "Catalog 2",
            didMigrate: { db, _ in
                try db.execute(sql: #"UPDATE "ZITEM" SET "ZOWNER" = 99 WHERE "Z_PK" = 2"#)
            })
        let (error, reason) = try validationError(stage: stage)
        #expect(reason.hasPrefix("the relationship points to a Owner that doesn't exist"))
        #expect(error.entity == "Item")
        #expect(error.property == "owner")
        #expect(error.sourcePrimaryKey == 2)
    }

    @Test(arguments: [true, false])
    func aJoinTableRowPointingNowhereFailsNamingTheSourceRow(missingTag: Bool) throws {
        let layout = try StoreLayout(model: Catalog.v2())
        let storage = try #require(layout.entity(named: "Item")?.relationship(named: "tags")?.storage)
        guard case .joinTable(let table, let itemColumn, let tagColumn, _) = storage else {
            Issue.record("Item.tags should be stored in a join table, not \(storage)")
            return
        }
        let (item, tag): (Int64, Int64) = missingTag ? (3, 99) : (99, 1)
        let stage = MigrationStage(
            from: "Catalog", to: "Catalog 2",
            didMigrate: { db, _ in
                try db.execute(
                    sql:
                        "INSERT INTO \(table.quotedDatabaseIdentifier) (\(itemColumn.quotedDatabaseIdentifier), \(tagColumn.quotedDatabaseIdentifier)) VALUES (?, ?)",
                    arguments: [item, tag])
            })
        let (error, reason) = try validationError(stage: stage)
        if missingTag {
            #expect(reason.hasPrefix("the relationship points to a Tag that doesn't exist"))
            #expect(error.entity == "Item")
            #expect(error.property == "tags")
            #expect(error.sourcePrimaryKey == 3)
        } else {
            // Seen from the tag's side: the tag (source row 1) holds an item that doesn't exist.
            #expect(reason.hasPrefix("the relationship points to a Item that doesn't exist"))
            #expect(error.entity == "Tag")
            #expect(error.property == "items")
            #expect(error.sourcePrimaryKey == 1)
        }
    }

    // MARK: Uniqueness

    /// Runs the step, expecting a uniqueness error (checked when the step ends), and returns it.
    func uniquenessError(
        _ texts: [String], policies: PolicyRegistry, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (error: MappingError, value: String, rows: [MappingError.RowOrigin]) {
        let error = #expect(throws: MappingError.self, sourceLocation: sourceLocation) {
            try run(texts, policies: policies)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path), sourceLocation: sourceLocation)
        guard let error, case .notUnique(let value, let rows) = error.kind else {
            throw ValidationTestError.notAValidationError(String(describing: error))
        }
        return (error, value, rows)
    }

    @Test(arguments: [false, true])
    func twoSourceRowsMappingToTheSameUniqueValueFailNamingBoth(rowByRow: Bool) throws {
        var policies = PolicyRegistry()
        policies.register("Plain") { EntityMigrationPolicy() }
        let policy = rowByRow ? #", "policy": "Plain""# : ""
        let (error, value, rows) = try uniquenessError(
            [Catalog.mapping(tag: #"\#(policy), "attributes": { "name": "$source.label" }"#)], policies: policies)
        #expect(error.entity == "Tag")
        #expect(error.property == "name")
        #expect(value == "\"Wood\"")
        #expect(rows.map(\.entityMapping) == ["TagToTag", "TagToTag"])
        #expect(rows.map(\.sourcePrimaryKey) == [1, 3])
    }

    @Test func aUniqueValueTakenTwiceByAPolicyFailsNamingBothObjects() throws {
        var policies = PolicyRegistry()
        policies.register("Duplicating") { DuplicatingTagPolicy() }
        let (error, value, rows) = try uniquenessError(
            [Catalog.mapping(tag: #", "policy": "Duplicating""#)], policies: policies)
        #expect(error.entity == "Tag")
        #expect(error.property == "name")
        #expect(value == "\"wood\"")
        // The first tag, made from source row 1, and the copy the policy inserted, from none.
        #expect(rows.map(\.sourcePrimaryKey) == [1, nil])
        #expect(rows.map(\.destinationPrimaryKey) == [1, 2])
    }

    // MARK: Several mapping models

    @Test func theErrorNamesTheMappingModelOfTheMappingThatMadeTheRow() throws {
        let first = """
            { "name": "first", "source": "Catalog", "destination": "Catalog 2", "entityMappings": [
                { "source": "Item", "destination": "Item", "attributes": { "name": "nil" } }
            ] }
            """
        let second = """
            { "name": "second", "source": "Catalog", "destination": "Catalog 2", "entityMappings": [
                { "source": "Owner", "destination": "Owner" }, { "source": "Tag", "destination": "Tag" }
            ] }
            """
        let (error, _) = try validationError([first, second])
        #expect(error.mappingModel == "first")
        #expect(error.entityMapping == "ItemToItem")
        #expect(error.property == "name")
        #expect(error.sourcePrimaryKey == 1)
    }
}

/// Makes each tag, then a second tag with the same name.
final class DuplicatingTagPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        _ = try manager.destination.insert("Tag", ["name": source.string("name")])
    }
}

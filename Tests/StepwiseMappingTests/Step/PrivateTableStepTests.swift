import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Core Data's persistent history and CloudKit tables go through both kinds of step: kept by
/// an in-place step, copied by a rebuild, with the entity numbers, primary keys and update
/// masks they hold following the destination, and cut where Core Data cuts them.
@Suite("Core Data's private tables in a step")
struct PrivateTableStepTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    // Zoo: Animal(1), Keeper(2), Pen(3). Zoo 2 (in place): Pen removed, Animal gains `breed`.
    // Zoo 3 (rebuilt): Aviary added, which renumbers Keeper 2 → 3.

    static let zoo = ObjectModel("Zoo") {
        Entity("Animal") {
            Attribute("age", .integer16)
            Attribute("name", .string).required()
            Relationship("keeper", to: "Keeper", inverse: "animals")
        }
        Entity("Keeper") {
            Attribute("name", .string).required()
            Relationship("animals", to: "Animal", inverse: "keeper").toMany()
        }
        Entity("Pen") {
            Attribute("name", .string).required()
        }
    }

    static let zoo2 = ObjectModel("Zoo 2") {
        Entity("Animal") {
            Attribute("age", .integer16)
            Attribute("breed", .string)
            Attribute("name", .string).required()
            Relationship("keeper", to: "Keeper", inverse: "animals")
        }
        Entity("Keeper") {
            Attribute("name", .string).required()
            Relationship("animals", to: "Animal", inverse: "keeper").toMany()
        }
    }

    static let zoo3 = ObjectModel("Zoo 3") {
        Entity("Animal") {
            Attribute("age", .integer16)
            Attribute("name", .string).required()
            Relationship("keeper", to: "Keeper", inverse: "animals")
        }
        Entity("Aviary") {
            Attribute("name", .string).required()
        }
        Entity("Keeper") {
            Attribute("name", .string).required()
            Relationship("animals", to: "Animal", inverse: "keeper").toMany()
        }
        Entity("Pen") {
            Attribute("name", .string).required()
        }
    }

    /// A Zoo store: five animals (the second deleted again, leaving a gap), two keepers, a pen,
    /// a change per object in its own transaction authored `<Entity>:<name>`, an update of
    /// Eli's age and name, the deletion of animal 2 (`Animal:deleted`), a CloudKit record per
    /// object and a pending CloudKit deletion of animal 2, and a `Z_MODELCACHE`.
    func zooStore(_ release: CoreDataPrivateTablesFixture.Release = .swiftData) throws -> URL {
        let url = directory.path("Zoo-\(UUID().uuidString).sqlite")
        try StoreCreator.createStore(at: url, model: Self.zoo)
        let layout = try StoreLayout(model: Self.zoo)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            try CoreDataPrivateTablesFixture.addTables(to: db, release: release)
            try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (x'00')")
            var made: [(ObjectID, String)] = []
            for name in ["Ada", "Bo"] { made.append((try objects.insert("Keeper", ["name": name]), name)) }
            for (index, name) in ["Cleo", "Dot", "Eli", "Fig", "Gus"].enumerated() {
                let animal = try objects.insert("Animal", ["name": name, "age": index + 1])
                try objects.setToOne(animal, "keeper", to: made[index % 2].0)
                made.append((animal, name))
            }
            made.append((try objects.insert("Pen", ["name": "North"]), "North"))
            for (object, name) in made {
                let entity = try #require(layout.entity(named: object.entity)).number
                try CoreDataPrivateTablesFixture.recordTransaction(
                    [.init(entity: entity, primaryKey: object.primaryKey, type: .insert)],
                    author: "\(object.entity):\(name)", in: db)
                try CoreDataPrivateTablesFixture.mirror(
                    entity: entity, primaryKey: object.primaryKey, recordName: "\(object.entity):\(name)", in: db)
            }
            let animal = try #require(layout.entity(named: "Animal"))
            let mask = HistoryChangeMask(entity: animal, in: layout)
            let eli = made[4].0
            try CoreDataPrivateTablesFixture.recordTransaction(
                [
                    .init(
                        entity: animal.number, primaryKey: eli.primaryKey, type: .update,
                        columns: mask.bytes(setting: ["age", "name"]))
                ],
                author: "Animal:Eli", in: db)
            let dot = made[3].0
            try objects.delete(dot)
            try db.execute(sql: "DELETE FROM ANSCKRECORDMETADATA WHERE ZCKRECORDNAME = 'Animal:Dot'")
            try CoreDataPrivateTablesFixture.recordTransaction(
                [.init(entity: animal.number, primaryKey: dot.primaryKey, type: .delete)], author: "Animal:deleted",
                in: db)
            try CoreDataPrivateTablesFixture.mirror(
                entity: animal.number, primaryKey: dot.primaryKey, recordName: "Animal:deleted", needsCloudDelete: true,
                in: db)
        }
        return url
    }

    // MARK: In place

    @Test(arguments: [CoreDataPrivateTablesFixture.Release.swiftData, .highSierra])
    func anInPlaceStepKeepsThePrivateTablesAndRewritesChangedMasks(_ release: CoreDataPrivateTablesFixture.Release)
        throws
    {
        let source = try zooStore(release)
        // Nothing removed here: Pen stays (Zoo 2 without the removal).
        let keepingPen = ObjectModel("Zoo 2") {
            Self.zoo2.entities[0]
            Self.zoo2.entities[1]
            Self.zoo.entities[2]
        }
        let before = try PrivateTableSnapshot(source)
        let destination = directory.path("Zoo 2.sqlite")
        let report = try MigrationStep(from: Self.zoo, to: keepingPen).run(source: source, destination: destination)
        let after = try PrivateTableSnapshot(destination)

        #expect(report.strategy == .inPlace)
        #expect(after.schema == before.schema)
        #expect(after.primaryKeys == before.primaryKeys)
        #expect(after.records == before.records)
        #expect(after.transactions == before.transactions)
        #expect(after.hasModelCache == false)
        // Animal's mask gains `breed`: [keeper, age, name] → [keeper, age, breed, name].
        #expect(before.updateMasks == [[0b0110_0000]])
        #expect(after.updateMasks == [[0b0101_0000]])
        // The same changes of the same objects: an in-place step keeps every number and key.
        #expect(after.changedObjects == before.changedObjects)
        #expect(report.drops.filter { $0.kind == .persistentHistory || $0.kind == .cloudKitMetadata }.isEmpty)
    }

    @Test func anInPlaceStepCutsTheHistoryUpToTheLastChangeOfARemovedEntity() throws {
        let source = try zooStore()
        let destination = directory.path("Zoo 2.sqlite")
        let report = try MigrationStep(from: Self.zoo, to: Self.zoo2).run(source: source, destination: destination)
        let after = try PrivateTableSnapshot(destination)

        #expect(report.strategy == .inPlace)
        // Transactions 1–8 insert Ada, Bo, Cleo, Dot, Eli, Fig, Gus and the pen North: the cut
        // takes all eight, as Core Data's does; Eli's update (9) and Dot's deletion (10) stay.
        #expect(after.transactions == [9, 10])
        #expect(after.changes.map(\.1) == ["Animal:Eli", "Animal:deleted"])
        #expect(!after.records.contains { $0.hasPrefix("Pen") })
        #expect(after.records.count == 7)
        #expect(after.primaryKeys.contains { $0.entityNumber == 16001 && $0.maximumPrimaryKey == 10 })
        #expect(
            report.drops.filter { $0.kind == .persistentHistory || $0.kind == .cloudKitMetadata } == [
                DroppedData(entity: "Pen", kind: .persistentHistory, reason: .removedFromModel, count: 8),
                DroppedData(entity: "Pen", kind: .cloudKitMetadata, reason: .removedFromModel, count: 1),
            ])
        #expect(
            report.drops.first { $0.kind == .persistentHistory }?.description
                == "8 persistent history changes, up to the last transaction that changed Pen (removed from the model)")
        #expect(after.zoneFetchRequested)
    }

    // MARK: Rebuilt

    @Test(arguments: [CoreDataPrivateTablesFixture.Release.swiftData, .highSierra])
    func aRebuildCopiesThePrivateTablesWithTheNewEntityNumbersAndKeys(
        _ release: CoreDataPrivateTablesFixture.Release
    ) throws {
        let source = try zooStore(release)
        let before = try PrivateTableSnapshot(source)
        let destination = directory.path("Zoo 3.sqlite")
        let report = try MigrationStep(from: Self.zoo, to: Self.zoo3).run(source: source, destination: destination)
        let after = try PrivateTableSnapshot(destination)
        let layout = try StoreLayout(model: Self.zoo3)

        #expect(report.strategy == .rebuild)
        #expect(after.schema == before.schema)
        #expect(after.transactions == before.transactions)
        #expect(after.hasModelCache == false)
        #expect(after.zoneFetchRequested)
        // Keeper is 3 now; Dot's gap is closed, so Eli, Fig and Gus move down one key.
        let keeper = try #require(layout.entity(named: "Keeper")).number
        #expect(keeper == 3)
        #expect(after.changes.filter { $0.1.hasPrefix("Keeper:") }.allSatisfy { $0.0.entity == keeper })
        #expect(try after.namesOfChangedObjects(layout: layout) == after.livingAuthors)
        #expect(after.livingAuthors.count == 8)
        #expect(try after.namesOfMirroredObjects(layout: layout) == after.livingRecords)
        #expect(after.livingRecords.count == 7)
        // Dot's deletion and pending CloudKit deletion share a new key, above every animal's.
        let animalMax = try #require(after.primaryKeys.first { $0.name == "Animal" }).maximumPrimaryKey
        let deleted = try #require(after.changes.first { $0.1 == "Animal:deleted" }).0
        #expect(deleted.primaryKey == animalMax)
        #expect(after.recordKeys["Animal:deleted"] == animalMax)
        #expect(try after.count("ZANIMAL") == 4)
        #expect(animalMax == 5)
        #expect(after.primaryKeys.filter(\.isCoreDataPrivate) == before.primaryKeys.filter(\.isCoreDataPrivate))
        #expect(after.updateMasks == before.updateMasks)
    }

    @Test func aRebuildCutsTheHistoryOfARemovedEntityAndRenumbersTheRest() throws {
        let source = try zooStore()
        let destination = directory.path("Zoo 2.sqlite")
        // A written mapping, so the step rebuilds; Pen has no entity mapping (left out: dropped).
        var mapping = try MappingInference.inferMapping(from: Self.zoo, to: Self.zoo2)
        mapping.isInferred = false
        let report = try MigrationStep(from: Self.zoo, to: Self.zoo2, mappingModels: [mapping])
            .run(source: source, destination: destination)
        let after = try PrivateTableSnapshot(destination)

        #expect(report.strategy == .rebuild)
        #expect(after.transactions == [9, 10])
        #expect(after.records.count == 7)
        #expect(try after.namesOfMirroredObjects(layout: StoreLayout(model: Self.zoo2)) == after.livingRecords)
        #expect(report.drops.contains { $0.kind == .persistentHistory && $0.entity == "Pen" && $0.count == 8 })
        // Eli's update mask follows the added `breed` column.
        #expect(after.updateMasks == [[0b0101_0000]])
    }

    @Test func aRebuildCarriesTheTriggersOnPrivateTables() throws {
        let source = try zooStore()
        let trigger = "CREATE TRIGGER ZQ_TRANSACTION_NOTE AFTER INSERT ON ATRANSACTION BEGIN SELECT 1; END"
        try DatabaseQueue(path: source.path).write { db in try db.execute(sql: trigger) }
        let destination = directory.path("Zoo 3.sqlite")
        _ = try MigrationStep(from: Self.zoo, to: Self.zoo3).run(source: source, destination: destination)
        let triggers = try DatabaseQueue(path: destination.path).read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger'")
        }
        #expect(triggers == [trigger])
    }

    /// Zoo 2 keeping Pen is altered in place; Zoo 3 renumbers Keeper, so it is rebuilt.
    @Test(arguments: [true, false])
    func noStepKindKeepsTheOldModelsCache(_ inPlace: Bool) throws {
        let source = try zooStore()
        #expect(try PrivateTableSnapshot(source).hasModelCache)
        let destinationModel =
            inPlace
            ? ObjectModel("Zoo 2") {
                Self.zoo2.entities[0]; Self.zoo2.entities[1]; Self.zoo.entities[2]
            } : Self.zoo3
        let destination = directory.path("Zoo \(inPlace ? 2 : 3).sqlite")
        let report = try MigrationStep(from: Self.zoo, to: destinationModel).run(
            source: source, destination: destination)
        #expect(report.strategy == (inPlace ? .inPlace : .rebuild))
        let tables = try DatabaseQueue(path: destination.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'Z\\_MODELCACHE' ESCAPE '\\'")
        }
        #expect(tables.isEmpty)
    }

    @Test func aStoreWithoutPrivateTablesGetsNone() throws {
        let source = directory.path("Plain.sqlite")
        try StepFixtures.store(at: source, model: Self.zoo) { objects in _ = try objects.insert("Pen", ["name": "N"]) }
        let destination = directory.path("Plain 3.sqlite")
        _ = try MigrationStep(from: Self.zoo, to: Self.zoo3).run(source: source, destination: destination)
        let after = try PrivateTableSnapshot(destination)
        #expect(after.schema.isEmpty)
        #expect(after.primaryKeys.filter(\.isCoreDataPrivate).isEmpty)
        #expect(!after.zoneFetchRequested)
    }
}

/// What a store holds in Core Data's private tables, read for comparisons.
struct PrivateTableSnapshot {
    let url: URL
    /// `sqlite_master.sql` of the private tables, their indexes and triggers, by name.
    let schema: [String: String]
    let primaryKeys: [PrimaryKeyRow]
    let transactions: [Int64]
    let changes: [(CoreDataPrivateTablesFixture.Change, String)]
    let records: [String]
    let recordKeys: [String: Int64]
    let hasModelCache: Bool
    let zoneFetchRequested: Bool

    init(_ url: URL) throws {
        self.url = url
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        (schema, primaryKeys, transactions, changes, records, recordKeys, hasModelCache, zoneFetchRequested) =
            try queue.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT name, sql FROM sqlite_master
                        WHERE sql IS NOT NULL AND (tbl_name LIKE 'A%' ESCAPE '\\') ORDER BY name
                        """)
                let schema = Dictionary(uniqueKeysWithValues: rows.map { ($0["name"] as String, $0["sql"] as String) })
                let hasHistory = try db.tableExists("ACHANGE")
                let hasCloudKit = try db.tableExists("ANSCKRECORDMETADATA")
                let records =
                    hasCloudKit
                    ? try Row.fetchAll(
                        db, sql: "SELECT ZCKRECORDNAME, ZENTITYPK FROM ANSCKRECORDMETADATA ORDER BY Z_PK")
                    : []
                let metadata = try StoreMetadata.read(from: db, path: url.path)
                return (
                    schema,
                    try PrimaryKeyRow.readAll(from: db),
                    hasHistory ? try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ATRANSACTION ORDER BY Z_PK") : [],
                    hasHistory
                        ? try CoreDataPrivateTablesFixture.changes(in: db).map { ($0.change, $0.author ?? "") } : [],
                    records.map { $0[0] as String },
                    Dictionary(uniqueKeysWithValues: records.map { ($0[0] as String, $0[1] as Int64) }),
                    try db.tableExists("Z_MODELCACHE"),
                    metadata.additionalEntries[CoreDataPrivateTables.cloudKitZoneFetchMetadataKey] != nil
                )
            }
    }

    /// `<Z_ENT>#<Z_PK> <type>` of each change, in order.
    var changedObjects: [String] {
        changes.map { "\($0.0.entity)#\($0.0.primaryKey) \($0.0.type)" }
    }

    /// The update masks, in change order.
    var updateMasks: [[UInt8]] {
        changes.filter { $0.0.type == .update }.compactMap(\.0.columns)
    }

    /// The authors of the changes of objects that still exist, sorted: not Dot's (deleted) nor
    /// the deletion's (`…:deleted`).
    var livingAuthors: [String] {
        changes.map(\.1).filter(Self.isLiving).sorted()
    }

    static func isLiving(_ name: String) -> Bool {
        !name.hasSuffix(":deleted") && name != "Animal:Dot"
    }

    /// The names of the records of objects that still exist, sorted.
    var livingRecords: [String] {
        records.filter(Self.isLiving).sorted()
    }

    /// `<Entity>:<name>` of the object each living change names, found by its entity number and key.
    func namesOfChangedObjects(layout: StoreLayout) throws -> [String] {
        try names(changes.filter { Self.isLiving($0.1) }.map { ($0.0.entity, $0.0.primaryKey) }, layout)
    }

    /// `<Entity>:<name>` of the object each living record names.
    func namesOfMirroredObjects(layout: StoreLayout) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let references = try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT ZENTITYID, ZENTITYPK FROM ANSCKRECORDMETADATA WHERE ZCKRECORDNAME NOT LIKE '%:deleted'"
            ).map { ($0[0] as Int, $0[1] as Int64) }
        }
        return try names(references, layout)
    }

    func count(_ table: String) throws -> Int {
        try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? -1
        }
    }

    private func names(_ references: [(Int, Int64)], _ layout: StoreLayout) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try references.map { entityNumber, key in
                guard let entity = layout.entity(number: entityNumber) else { return "unknown entity \(entityNumber)" }
                let name = try String.fetchOne(
                    db,
                    sql: "SELECT ZNAME FROM \(entity.tableName.quotedDatabaseIdentifier) WHERE Z_PK = ? AND Z_ENT = ?",
                    arguments: [key, entityNumber])
                return "\(entity.name):\(name ?? "missing")"
            }.sorted()
        }
    }
}

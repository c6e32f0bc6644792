import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// An entity added (or removed) renumbers every entity whose name sorts after it. Such a step
/// still alters a copy of the source in place: rows move to their entities' new numbers, join
/// tables and number-carrying columns are renamed, and each `Z_PRIMARYKEY` row keeps its own
/// entity's `Z_MAX`. The objects must be the rebuilding path's, and the schema exactly the
/// destination's.
@Suite("In-place steps that renumber entities")
struct InPlaceRenumberingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A hierarchy (so to-ones into it have entity columns), a many-to-many in a join table,
    /// ordered on both sides or on neither, and `Ticket`, which goes. The second version adds
    /// `Admission` and `Aisle`, which sort before the others: every kept entity is renumbered.
    static func zoo(second: Bool, ordered: Bool) -> ObjectModel {
        func toMany(_ relationship: Relationship) -> Relationship {
            ordered ? relationship.ordered() : relationship.toMany()
        }
        return ObjectModel(second ? "Zoo 2" : "Zoo") {
            Entity("Animal") {
                Attribute("name", .string)
                toMany(Relationship("keepers", to: "Keeper", inverse: "animals"))
            }
            if second {
                Entity("Admission") { Attribute("price", .integer32) }
                Entity("Aisle") { Attribute("color", .string) }
            }
            Entity("Bird", parent: "Animal") { Attribute("wingspan", .double) }
            Entity("Keeper") {
                Attribute("name", .string)
                Relationship("favorite", to: "Animal")
                toMany(Relationship("animals", to: "Animal", inverse: "keepers"))
                if !second { Relationship("ticket", to: "Ticket", inverse: "keeper") }
            }
            if !second {
                Entity("Ticket") {
                    Attribute("code", .string)
                    Relationship("keeper", to: "Keeper", inverse: "ticket")
                }
            }
            Entity("Zone") { Attribute("label", .string) }
        }
    }

    static let before = zoo(second: false, ordered: false)
    static let after = zoo(second: true, ordered: false)

    func seededZoo(_ model: ObjectModel = Self.before) throws -> URL {
        let url = directory.path("\(model.name) \(UUID().uuidString).sqlite")
        try StoreCreator.createStore(at: url, model: model)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: model)
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            var animals: [ObjectID] = []
            for index in 1...12 {
                // Interleaved, so a hierarchy's keys aren't grouped by entity.
                animals.append(
                    index.isMultiple(of: 2)
                        ? try objects.insert("Bird", ["name": "bird \(index)", "wingspan": Double(index)])
                        : try objects.insert("Animal", ["name": "animal \(index)"]))
            }
            for index in 1...5 {
                let keeper = try objects.insert("Keeper", ["name": "keeper \(index)"])
                try objects.setToOne(keeper, "favorite", to: animals[index * 2 - 1 - index % 2])
                for offset in [0, 3, 7] { try objects.relate(keeper, "animals", to: animals[(index + offset) % 12]) }
                try objects.setToOne(keeper, "ticket", to: try objects.insert("Ticket", ["code": "T\(index)"]))
            }
            for index in 1...3 { _ = try objects.insert("Zone", ["label": "zone \(index)"]) }
        }
        return url
    }

    /// The objects and links, by names rather than keys (the rebuild numbers keys anew).
    func objects(_ url: URL) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: Self.after)
        return try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            var lines: [String] = []
            for entity in ["Animal", "Keeper", "Zone"] {
                for object in try objects.fetch(entity) {
                    var line = "\(object.id.entity) \(object.string("name") ?? object.string("label") ?? "")"
                    line += " \(object.double("wingspan").map { "\($0)" } ?? "-")"
                    if entity == "Keeper" {
                        let favorite = try objects.related(object.id, "favorite").first
                        line +=
                            " favorite: \(try favorite.map { "\($0.entity) \(try objects.object($0).string("name") ?? "")" } ?? "-")"
                    }
                    if entity != "Zone" {
                        let linked = entity == "Keeper" ? "animals" : "keepers"
                        // Unordered: as a set (the rebuild numbers keys anew, and lists by key).
                        line +=
                            " \(linked): \(try objects.related(object.id, linked).map { try objects.object($0).string("name") ?? "" }.sorted())"
                    }
                    lines.append(line)
                }
            }
            return lines.sorted()
        }
    }

    func schema(_ url: URL) throws -> SQLiteSchema {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { try SQLiteSchema.read(from: $0) }
    }

    @Test func theStepRenumbersInPlaceAndLeavesWhatTheRebuildLeaves() throws {
        let sourceLayout = try StoreLayout(model: Self.before)
        let destinationLayout = try StoreLayout(model: Self.after)
        // The premise: every kept entity changes number, and the join table's name with it.
        for name in ["Animal", "Bird", "Keeper", "Zone"] {
            #expect(sourceLayout.entity(named: name)?.number != destinationLayout.entity(named: name)?.number)
        }
        #expect(
            Set(sourceLayout.tables.map(\.name)).subtracting(destinationLayout.tables.map(\.name))
                .contains { $0.hasPrefix("Z_") })

        let source = try seededZoo()
        let inPlace = directory.path("in-place.sqlite")
        let rebuilt = directory.path("rebuilt.sqlite")
        let report = try MigrationStep(from: Self.before, to: Self.after).run(source: source, destination: inPlace)
        #expect(report.strategy == .inPlace)
        // The same inferred mapping, rebuilt: a willMigrate hook must see the source's rows,
        // so such a step never alters in place.
        var rebuilding = MigrationStep(
            from: Self.before, to: Self.after,
            stage: MigrationStage(from: "Zoo", to: "Zoo 2", willMigrate: { _, _ in }))
        rebuilding.allowsPartialRebuild = false
        #expect(try rebuilding.run(source: source, destination: rebuilt).strategy == .rebuild)

        #expect(try schema(inPlace) == schema(rebuilt))
        let expected = try SQLiteSchema(expectedFor: destinationLayout)
        #expect(
            try schema(inPlace).differences(from: expected, ignoringTables: StoreLayout.optionalTableNames).isEmpty)
        let found = try objects(inPlace)
        #expect(found.count == 12 + 5 + 3)
        let rebuiltObjects = try objects(rebuilt)
        #expect(found == rebuiltObjects, "\(zip(found, rebuiltObjects).filter { $0 != $1 }.prefix(3))")

        let queue = try DatabaseQueue(path: inPlace.path)
        defer { try? queue.close() }
        let sourceMaxima = try DatabaseQueue(path: source.path).read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY").map {
                    ($0[0] as String, $0[1] as Int64)
                })
        }
        try queue.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            // Each entity keeps its own Z_MAX, whatever number it had; new ones start at 0.
            let maxima = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT Z_NAME, Z_ENT, Z_MAX FROM Z_PRIMARYKEY").map {
                    ($0[0] as String, ($0[1] as Int, $0[2] as Int64))
                })
            for name in ["Animal", "Bird", "Keeper", "Zone"] {
                #expect(maxima[name]?.1 == sourceMaxima[name], "\(name)")
                #expect(maxima[name]?.0 == destinationLayout.entity(named: name)?.number, "\(name)")
            }
            #expect(maxima["Admission"]?.1 == 0 && maxima["Aisle"]?.1 == 0 && maxima["Ticket"] == nil)
            // Keys are kept: the 12 animals still hold keys 1 to 12.
            #expect(try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZANIMAL ORDER BY Z_PK") == Array(1...12))
        }
    }

    @Test func aRowOfAnEntityTheStepDoesNotMapMakesItRebuild() throws {
        let source = try seededZoo()
        // A Zone row whose Z_ENT names no entity of the source: renumbered in place it would
        // keep a number that may now mean another entity.
        try DatabaseQueue(path: source.path).write { db in
            try db.execute(sql: "INSERT INTO ZZONE (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (100, 99, 1, 'stray')")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 100 WHERE Z_NAME = 'Zone'")
        }
        let destination = directory.path("Zoo 2.sqlite")
        let report = try MigrationStep(from: Self.before, to: Self.after).run(source: source, destination: destination)
        #expect(report.strategy == .rebuild)
    }

    @Test func anEntityColumnThatDisagreesWithItsRowMakesItRebuild() throws {
        let source = try seededZoo()
        let layout = try StoreLayout(model: Self.before)
        guard
            case .foreignKey(let key, let entityColumn?, _)? =
                layout.entity(named: "Keeper")?.relationship(named: "favorite")?.storage,
            let bird = layout.entity(named: "Bird")?.number
        else {
            Issue.record("Keeper.favorite has no entity column")
            return
        }
        // Keeper 1's favorite is an Animal; its entity column says Bird. The rebuild writes the
        // row's own entity there; renumbered in place, the wrong one would be kept. Refused
        // before the copy, it rebuilds even a source the step consumes (an upgrade's later
        // steps), which couldn't fall back once altered.
        try DatabaseQueue(path: source.path).write { db in
            try db.execute(
                sql: """
                    UPDATE ZKEEPER SET \(entityColumn.quotedSQLIdentifier) = ?
                    WHERE ZNAME = 'keeper 1' AND \(key.quotedSQLIdentifier) IS NOT NULL
                    """, arguments: [bird])
            #expect(db.changesCount == 1)
        }
        let destination = directory.path("Zoo 2.sqlite")
        let report = try MigrationStep(from: Self.before, to: Self.after)
            .run(source: source, destination: destination, access: .consumableCopy)
        #expect(report.strategy == .rebuild)
    }

    @Test func aZMaxBelowTheLargestKeyMakesItRebuild() throws {
        let source = try seededZoo()
        try DatabaseQueue(path: source.path).write { db in
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Animal'")
        }
        let destination = directory.path("Zoo 2.sqlite")
        let report = try MigrationStep(from: Self.before, to: Self.after).run(source: source, destination: destination)
        #expect(report.strategy == .rebuild)
    }

    /// Both sides of an ordered many-to-many keep their order columns in the join table: the
    /// renamed table holds the source's rows, every value in its renamed column.
    @Test func anOrderedJoinTableKeepsItsRowsUnderItsNewNames() throws {
        let (before, after) = (Self.zoo(second: false, ordered: true), Self.zoo(second: true, ordered: true))
        let source = try seededZoo(before)
        let destination = directory.path("Zoo 2 ordered.sqlite")
        #expect(
            try MigrationStep(from: before, to: after).run(source: source, destination: destination).strategy
                == .inPlace)
        func rows(_ url: URL, _ layout: StoreLayout) throws -> [[Int64?]] {
            guard
                case .joinTable(let table, let owner, let member, let order?)? =
                    layout.entity(named: "Keeper")?.relationship(named: "animals")?.storage,
                case .joinTable(_, _, _, let inverseOrder?)? =
                    layout.entity(named: "Animal")?.relationship(named: "keepers")?.storage
            else { return [] }
            let columns = [owner, member, order, inverseOrder].map(\.quotedSQLIdentifier).joined(separator: ", ")
            return try DatabaseQueue(path: url.path).read { db in
                try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(table.quotedSQLIdentifier) ORDER BY 1, 2")
                    .map { row in (0..<4).map { row[$0] as Int64? } }
            }
        }
        let sourceRows = try rows(source, StoreLayout(model: before))
        #expect(sourceRows.count == 15)
        #expect(try rows(destination, StoreLayout(model: after)) == sourceRows)
        #expect(
            try schema(destination).differences(
                from: SQLiteSchema(expectedFor: StoreLayout(model: after)),
                ignoringTables: StoreLayout.optionalTableNames
            ).isEmpty)
    }
}

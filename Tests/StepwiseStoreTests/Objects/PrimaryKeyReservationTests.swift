import Foundation
import GRDB
import StepwiseModel
import StepwiseTesting
import Testing

@testable import StepwiseStore

/// Primary keys reserved in ranges (a migration step's destination) and one by one (every
/// other context) leave `Z_MAX` as Core Data does, and never hand out a key twice.
@Suite("Primary-key reservations")
struct PrimaryKeyReservationTests {
    let directory: TemporaryDirectory
    let queue: DatabaseQueue
    let layout: StoreLayout

    init() throws {
        directory = try TemporaryDirectory()
        let url = directory.path("Zoo.sqlite")
        _ = try StoreCreator.createStore(at: url, model: ObjectContextTests.model)
        queue = try DatabaseQueue(path: url.path)
        layout = try StoreLayout(model: ObjectContextTests.model)
    }

    func zMax(_ db: Database, _ root: String) throws -> Int64? {
        let number = try #require(layout.entity(named: root)).number
        return try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [number])
    }

    @Test func aPlainContextKeepsZMaxExactAfterEveryInsert() throws {
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            for expected in 1...5 {
                let keeper = try objects.insert("Keeper", ["name": "K\(expected)"])
                #expect(keeper.primaryKey == Int64(expected))
                #expect(try zMax(db, "Keeper") == Int64(expected))
            }
        }
    }

    @Test func aBatchedContextReservesThenGivesBackTheUnusedKeys() throws {
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout, primaryKeyBatch: 100)
            let dogs = try (0..<3).map { try objects.insert("Dog", ["name": "D\($0)"]) }
            let cat = try objects.insert("Cat", ["name": "C"])
            // Dogs and cats share the Animal table, hence one sequence.
            #expect(dogs.map(\.primaryKey) + [cat.primaryKey] == [1, 2, 3, 4])
            // Until the flush, Z_MAX covers the whole reservation: SQL allocating a key now
            // gets one past it, never one of ours.
            #expect(try zMax(db, "Animal") == 100)
            try objects.flushReservedPrimaryKeys()
            #expect(try zMax(db, "Animal") == 4)
            let next = try objects.insert("Dog", ["name": "D"])
            #expect(next.primaryKey == 5)
            try objects.flushReservedPrimaryKeys()
            #expect(try zMax(db, "Animal") == 5)
        }
    }

    @Test func keysAllocatedBySQLDuringAReservationAreKeptCovered() throws {
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout, primaryKeyBatch: 10)
            _ = try objects.insert("Keeper", ["name": "A"])
            // Someone else allocates with SQL: past our reservation (Z_MAX is 10).
            let keeperNumber = try #require(layout.entity(named: "Keeper")).number
            try db.execute(
                sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = ?", arguments: [keeperNumber])
            try db.execute(
                sql: "INSERT INTO ZKEEPER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (11, ?, 1, 'SQL')",
                arguments: [keeperNumber])
            let second = try objects.insert("Keeper", ["name": "B"])
            #expect(second.primaryKey == 2)
            try objects.flushReservedPrimaryKeys()
            // Z_MAX moved past our range: it must keep covering key 11.
            #expect(try zMax(db, "Keeper") == 11)
            let keys = try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZKEEPER ORDER BY Z_PK")
            #expect(keys == [1, 2, 11])
            // The next reservation starts after every key in use.
            let third = try objects.insert("Keeper", ["name": "C"])
            #expect(third.primaryKey == 12)
        }
    }

    @Test func aRolledBackReservationNeverReusesAKeyAlreadyHandedOut() throws {
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout, primaryKeyBatch: 2)
            _ = try objects.insert("Zone", ["name": "kept"])
            try db.inSavepoint {
                _ = try objects.insert("Zone", ["name": "rolled back 1"])
                _ = try objects.insert("Zone", ["name": "rolled back 2"])  // reserves 3…4
                return .rollback
            }
            let after = try objects.insert("Zone", ["name": "after"])
            #expect(after.primaryKey == 4)
            try objects.flushReservedPrimaryKeys()
            #expect(try zMax(db, "Zone") == 4)
            #expect(try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZZONE ORDER BY Z_PK") == [1, 4])
        }
    }
}

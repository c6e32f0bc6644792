import Foundation
import GRDB
import StepwiseStore

/// Core Data's persistent history and CloudKit mirroring tables, added to a test store as Core
/// Data writes them, with rows about the store's objects.
///
/// The history DDL is copied verbatim from real stores of the corpus (`real-stores`): the
/// SwiftData store `CartKitSwiftData_v1.sqlite` (Core Data 1523, iOS 17: `ATRANSACTIONSTRING`
/// and the `*TS` columns) and macOS 10.13's `knowledgec-10.13.db` (Core Data 851: the oldest
/// history, with `ZTOMBSTONE0…2` and no `ATRANSACTIONSTRING`). No corpus store has CloudKit
/// tables: their DDL and `Z_PRIMARYKEY` rows are those that public test fixtures copy from
/// real `NSPersistentCloudKitContainer` stores (`ANSCKRECORDMETADATA` with its two unique
/// indexes, `ANSCKMETADATAENTRY`; `17009 NSCKMetadataEntry`, `17012 NSCKRecordMetadata`).
///
/// ```swift
/// try queue.write { db in
///     try CoreDataPrivateTablesFixture.addTables(to: db)
///     let recipe = layout.entity(named: "Recipe")!
///     try CoreDataPrivateTablesFixture.recordTransaction(
///         [.init(entity: recipe.number, primaryKey: 1, type: .insert)], author: "Recipe:Pancakes", in: db)
///     try CoreDataPrivateTablesFixture.mirror(entity: recipe.number, primaryKey: 1, recordName: "Recipe:Pancakes", in: db)
/// }
/// ```
package enum CoreDataPrivateTablesFixture {
    /// The Core Data release whose history tables to write.
    package enum Release: Sendable {
        /// macOS 10.13, High Sierra (framework 851): `ACHANGE` with tombstones, `ATRANSACTION` with the
        /// strings in its own columns, no `ATRANSACTIONSTRING`.
        case highSierra
        /// iOS 17 / SwiftData (framework 1523).
        case swiftData
    }

    /// `ACHANGE.ZCHANGETYPE`: `NSPersistentHistoryChangeType`'s raw values.
    package enum ChangeType: Int, Sendable {
        /// An object inserted (no mask).
        case insert = 0
        /// An object updated: the mask says which properties.
        case update = 1
        /// An object deleted (no mask; tombstones, when its entity keeps any).
        case delete = 2
    }

    /// One row of `ACHANGE`.
    package struct Change: Sendable, Hashable {
        /// The changed object's `Z_ENT` (`ZENTITY`).
        package var entity: Int
        /// The changed object's `Z_PK` (`ZENTITYPK`).
        package var primaryKey: Int64
        package var type: ChangeType
        /// The update mask (``/StepwiseStore/HistoryChangeMask``); nil for inserts and deletes.
        package var columns: [UInt8]?

        /// A change of the object `primaryKey` of entity `entity`.
        package init(entity: Int, primaryKey: Int64, type: ChangeType, columns: [UInt8]? = nil) {
            (self.entity, self.primaryKey, self.type, self.columns) = (entity, primaryKey, type, columns)
        }
    }

    /// The history tables and indexes of `release`, as Core Data writes them.
    package static func historyStatements(_ release: Release) -> [String] {
        switch release {
        case .highSierra:
            return [
                "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB, ZTOMBSTONE1 BLOB, ZTOMBSTONE2 BLOB )",
                "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
                "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
                "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
                "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
            ]
        case .swiftData:
            return [
                "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
                "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
                "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
                "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
                "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
                "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
                "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
                "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
                "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
            ]
        }
    }

    /// The CloudKit mirroring tables and indexes that hold record metadata.
    package static let cloudKitStatements = [
        "CREATE TABLE ANSCKRECORDMETADATA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZENTITYID INTEGER, ZENTITYPK INTEGER, ZLASTEXPORTEDTRANSACTIONNUMBER INTEGER, ZNEEDSCLOUDDELETE INTEGER, ZNEEDSLOCALDELETE INTEGER, ZNEEDSUPLOAD INTEGER, ZPENDINGEXPORTCHANGETYPENUMBER INTEGER, ZPENDINGEXPORTTRANSACTIONNUMBER INTEGER, ZENCODEDRECORDASSET INTEGER, ZRECORDZONE INTEGER, ZSYSTEMFIELDSASSET INTEGER, ZCKRECORDNAME VARCHAR )",
        "CREATE UNIQUE INDEX Z_NSCKRecordMetadata_UNIQUE_entityId_entityPK ON ANSCKRECORDMETADATA (ZENTITYID COLLATE BINARY ASC, ZENTITYPK COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_NSCKRecordMetadata_UNIQUE_ckRecordName_recordZone ON ANSCKRECORDMETADATA (ZCKRECORDNAME COLLATE BINARY ASC, ZRECORDZONE COLLATE BINARY ASC)",
        "CREATE TABLE ANSCKMETADATAENTRY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOLVALUENUM INTEGER, ZINTEGERVALUE INTEGER, ZDATEVALUE TIMESTAMP, ZKEY VARCHAR, ZSTRINGVALUE VARCHAR, ZTRANSFORMEDVALUE BLOB )",
    ]

    /// Adds the history tables of `release` (and, with `cloudKit`, the CloudKit tables) to the
    /// store open in `db`, empty, with their `Z_PRIMARYKEY` rows (and one CloudKit metadata
    /// entry, as a store that mirrors has).
    package static func addTables(to db: Database, release: Release = .swiftData, cloudKit: Bool = true) throws {
        for statement in historyStatements(release) { try db.execute(sql: statement) }
        var rows: [(Int, String)] = [(16001, "CHANGE"), (16002, "TRANSACTION")]
        if release == .swiftData { rows.append((16003, "TRANSACTIONSTRING")) }
        if cloudKit {
            for statement in cloudKitStatements { try db.execute(sql: statement) }
            rows += [(17009, "NSCKMetadataEntry"), (17012, "NSCKRecordMetadata")]
        }
        for (number, name) in rows {
            try db.execute(
                sql: #"INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (?, ?, 0, 0)"#,
                arguments: [number, name])
        }
        if cloudKit {
            try db.execute(
                sql: """
                    INSERT INTO "ANSCKMETADATAENTRY" ("Z_PK", "Z_ENT", "Z_OPT", "ZINTEGERVALUE", "ZKEY")
                    VALUES (1, 17009, 1, 1, 'PFCloudKitMetadataFrameworkVersionKey')
                    """)
            try db.execute(sql: #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = 1 WHERE "Z_ENT" = 17009"#)
        }
    }

    /// Records one transaction whose author is `author`, with `changes`; returns its number.
    @discardableResult
    package static func recordTransaction(_ changes: [Change], author: String, in db: Database) throws -> Int64 {
        let transaction = try nextKey(16002, in: db)
        let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('ATRANSACTION')")
        if columns.contains("ZAUTHORTS") {
            try db.execute(
                sql: "INSERT OR IGNORE INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 16003, 1, ?)",
                arguments: [try nextKey(16003, in: db, reserving: false), author])
            try db.execute(
                sql:
                    #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = (SELECT MAX("Z_PK") FROM ATRANSACTIONSTRING) WHERE "Z_ENT" = 16003"#
            )
            try db.execute(
                sql: """
                    INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZTIMESTAMP)
                    VALUES (?, 16002, 1, (SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?), ?)
                    """,
                arguments: [transaction, author, 790_000_000 + Double(transaction)])
        } else {
            try db.execute(
                sql: "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZTIMESTAMP) VALUES (?, 16002, 1, ?, ?)",
                arguments: [transaction, author, 790_000_000 + Double(transaction)])
        }
        for change in changes {
            try db.execute(
                sql: """
                    INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
                    VALUES (?, 16001, 1, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    try nextKey(16001, in: db), change.type.rawValue, change.entity, change.primaryKey, transaction,
                    change.columns.map { Data($0) },
                ])
        }
        return transaction
    }

    /// Adds CloudKit record metadata for one object.
    package static func mirror(
        entity: Int, primaryKey: Int64, recordName: String, needsCloudDelete: Bool = false, in db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO ANSCKRECORDMETADATA (Z_PK, Z_ENT, Z_OPT, ZENTITYID, ZENTITYPK, ZNEEDSCLOUDDELETE,
                    ZNEEDSLOCALDELETE, ZNEEDSUPLOAD, ZRECORDZONE, ZCKRECORDNAME)
                VALUES (?, 17012, 1, ?, ?, ?, 0, 0, 1, ?)
                """,
            arguments: [try nextKey(17012, in: db), entity, primaryKey, needsCloudDelete, recordName])
    }

    /// Every history change, in `ACHANGE` order: its entity, key, type, mask and its
    /// transaction's author.
    package static func changes(in db: Database) throws -> [(change: Change, author: String?)] {
        let hasStrings = try db.tableExists("ATRANSACTIONSTRING")
        let author =
            hasStrings
            ? "(SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZAUTHORTS)" : "t.ZAUTHOR"
        return try Row.fetchAll(
            db,
            sql: """
                SELECT c.ZENTITY, c.ZENTITYPK, c.ZCHANGETYPE, c.ZCOLUMNS, \(author) AS author
                FROM ACHANGE AS c LEFT JOIN ATRANSACTION AS t ON t.Z_PK = c.ZTRANSACTIONID ORDER BY c.Z_PK
                """
        ).map { row in
            let data: Data? = row[3]
            return (
                Change(
                    entity: row[0], primaryKey: row[1], type: ChangeType(rawValue: row[2]) ?? .update,
                    columns: data.map { [UInt8]($0) }),
                row["author"]
            )
        }
    }

    /// Takes the next key of a private entity from `Z_PRIMARYKEY`.
    private static func nextKey(_ entity: Int, in db: Database, reserving: Bool = true) throws -> Int64 {
        let key =
            (try Int64.fetchOne(db, sql: #"SELECT "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_ENT" = ?"#, arguments: [entity])
                ?? 0) + 1
        if reserving {
            try db.execute(sql: #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = ? WHERE "Z_ENT" = ?"#, arguments: [key, entity])
        }
        return key
    }
}

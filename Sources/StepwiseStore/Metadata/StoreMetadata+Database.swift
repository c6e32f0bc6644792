import Foundation
import GRDB

extension StoreMetadata {
    /// Reads the metadata of the store open on `db`.
    ///
    /// - parameters:
    ///   - db: A connection to the store.
    ///   - path: The store's path, named in errors.
    /// - throws: ``StoreError`` with kind ``StoreError/Kind/missingMetadataTable`` when there is
    ///   no `Z_METADATA`, ``StoreError/Kind/invalidMetadata(_:)`` when it has no row for
    ///   version 1 or `Z_PLIST` is not a binary property list of the expected shape, and
    ///   ``StoreError/Kind/sqlite(code:message:)`` when SQLite fails.
    package static func read(from db: Database, path: String) throws(StoreError) -> StoreMetadata {
        let row: Row?
        do {
            guard try db.tableExists(StoreLayout.metadataTable.name) else {
                throw StoreError(path: path, kind: .missingMetadataTable)
            }
            row = try Row.fetchOne(db, sql: #"SELECT "Z_UUID", "Z_PLIST" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#)
        } catch {
            throw StoreError(path: path, wrapping: error)
        }
        guard let row else {
            throw StoreError(path: path, kind: .invalidMetadata("Z_METADATA has no row for version 1"))
        }
        return try decode(plist: row["Z_PLIST"], uuid: row["Z_UUID"], path: path)
    }

    /// Decodes a `Z_METADATA` row's `Z_PLIST` blob.
    ///
    /// For the metadata fuzz target (`Fuzz/Metadata`), which feeds it blobs without a store.
    /// Everyone else reads metadata with ``read(from:path:)`` or ``readFromMainFile(at:)``.
    /// - parameters:
    ///   - plist: `Z_PLIST`; nil when the column is NULL.
    ///   - uuid: `Z_UUID`; when nil, the list's own `NSStoreUUID` is used.
    ///   - path: The store's path, named in errors.
    /// - throws: ``StoreError`` with kind ``StoreError/Kind/invalidMetadata(_:)``.
    package static func decode(plist: Data?, uuid: String?, path: String) throws(StoreError) -> StoreMetadata {
        guard let plistData = plist else {
            throw StoreError(path: path, kind: .invalidMetadata("Z_PLIST is NULL"))
        }
        // PropertyListSerialization crashes, on Linux, on a binary list holding a set.
        if BinaryPropertyListScan.containsSet(plistData) {
            let reason = "Z_PLIST is not a dictionary of property-list values (it holds a set)"
            throw StoreError(path: path, kind: .invalidMetadata(reason))
        }
        let decoded: Any
        do {
            decoded = try PropertyListSerialization.propertyList(from: plistData, options: [], format: nil)
        } catch {
            throw StoreError(path: path, kind: .invalidMetadata("Z_PLIST is not a property list"))
        }
        guard case .dictionary(let entries)? = PropertyListValue(foundationValue: decoded) else {
            throw StoreError(path: path, kind: .invalidMetadata("Z_PLIST is not a dictionary of property-list values"))
        }
        do {
            return try StoreMetadata(propertyList: entries, uuid: uuid)
        } catch {
            throw StoreError(path: path, kind: .invalidMetadata(error.reason))
        }
    }

    /// Writes this metadata as the `Z_METADATA` row of version 1, replacing any existing row
    /// and creating the table if needed.
    ///
    /// `Z_PLIST` is a binary property list, as Core Data writes it. Run it inside the
    /// transaction that changes the store, so metadata and content can't disagree.
    /// - parameters:
    ///   - db: A connection to the store.
    ///   - path: The store's path, named in errors.
    package func write(to db: Database, path: String) throws(StoreError) {
        let data: Data
        do {
            data = try encodedPropertyList()
        } catch {
            throw StoreError(path: path, kind: .invalidMetadata("it can't be encoded as a property list: \(error)"))
        }
        do {
            if try !db.tableExists(StoreLayout.metadataTable.name) {
                try db.execute(sql: StoreLayout.metadataTable.createStatement)
            }
            try db.execute(
                sql: #"INSERT OR REPLACE INTO "Z_METADATA" ("Z_VERSION", "Z_UUID", "Z_PLIST") VALUES (1, ?, ?)"#,
                arguments: [storeUUID, data])
        } catch {
            throw StoreError(path: path, wrapping: error)
        }
    }

    /// ``propertyList`` encoded as a binary property list: the same bytes for the same
    /// metadata, in any process (see ``PropertyListValue``'s `Encodable` conformance).
    package func encodedPropertyList() throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(propertyList)
    }
}

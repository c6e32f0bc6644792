import Foundation
import GRDB

/// External-storage attributes (``ExternalBinaryValue``) read and written as their real
/// bytes: every object read through a context has them decoded, inline or from their file,
/// and every value written through it is stored inline with its marker. So a migration
/// policy, an expression evaluated row by row, a conversion and a seeded store see and write
/// bytes, never a marker or a file's UUID.
///
/// A migration step's set-based path copies such a column in SQL only where it stays as it
/// is (from an external-storage attribute to another): the marker and the file are then kept.
extension ObjectContext {
    /// A value written to an external-storage attribute: `0x01` then its bytes. NULL and
    /// values that aren't bytes (refused by the form check before) are left as they are.
    static func inlineColumnValue(_ value: DatabaseValue) -> DatabaseValue {
        guard case .blob(let bytes) = value.storage else { return value }
        return ExternalBinaryValue.inlineColumnValue(bytes).databaseValue
    }

    /// Decodes the external-storage attributes of objects read, or nil when the layout has
    /// none (then nothing is done per row).
    var externalValuesDecoder: ((StoredObject) throws -> StoredObject)? {
        let hasExternalData = cache.hasExternalData ?? layout.hasExternalData
        cache.hasExternalData = hasExternalData
        guard hasExternalData else { return nil }
        return { object in try self.decodingExternalValues(of: object) }
    }

    /// The external-storage attributes of `entity` (its own and inherited), found once.
    func externalAttributes(of entity: EntityLayout) -> [AttributeLayout] {
        if let known = cache.externalAttributes[entity.name] { return known }
        let found = entity.attributes.filter(layout.storesExternally)
        cache.externalAttributes[entity.name] = found
        return found
    }

    /// `object` with the real bytes of its external-storage attributes.
    ///
    /// - throws: ``StoreError/Kind/invalidValue(entity:property:reason:)`` naming the store,
    ///   the entity, the attribute, the row and the missing file (``ExternalDataFolder/bytes(of:storePath:entity:attribute:primaryKey:)``).
    func decodingExternalValues(of object: StoredObject) throws -> StoredObject {
        guard let entity = layout.entity(named: object.id.entity) else { return object }
        let attributes = externalAttributes(of: entity)
        guard !attributes.isEmpty else { return object }
        var decoded = object
        for attribute in attributes {
            guard let value = object.values[attribute.name], !value.isNull else { continue }
            decoded.values[attribute.name] = try externalFolder().bytes(
                of: value, storePath: storeFilePath ?? path, entity: object.id.entity, attribute: attribute.name,
                primaryKey: object.id.primaryKey)
        }
        return decoded
    }

    /// ``externalData``, or the folder beside the file of the store's schema.
    private func externalFolder() throws -> ExternalDataFolder {
        if let externalData { return externalData }
        if case .some(let known) = cache.externalFolder, let known { return known }
        guard let file = storeFilePath, !file.isEmpty else {
            throw StoreError(
                path: path,
                kind: .io(
                    "the store has no file, so its external-storage values have no _EXTERNAL_DATA folder; give the context one (externalData)"
                ))
        }
        let folder = ExternalDataFolder(store: URL(fileURLWithPath: file))
        cache.externalFolder = .some(folder)
        return folder
    }

    /// The file of the store's schema (`PRAGMA database_list`), nil for an in-memory one.
    private var storeFilePath: String? {
        if case .some(let known) = cache.storeFile { return known }
        let file = try? String.fetchOne(
            db, sql: "SELECT \"file\" FROM pragma_database_list WHERE \"name\" = ?", arguments: [schemaName])
        let found = file.flatMap { $0.isEmpty ? nil : $0 }
        cache.storeFile = .some(found)
        return found
    }
}

extension StoreLayout {
    /// Whether any attribute stores its values externally (``storesExternally(_:)``).
    var hasExternalData: Bool {
        entities.contains { entity in entity.attributes.contains(where: storesExternally) }
    }
}

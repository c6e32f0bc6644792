import Foundation
import GRDB
import StepwiseStore

/// How the matrix reads a carried value for comparison: an external-storage attribute's
/// real bytes (``ExternalDataFolder/bytes(of:storePath:entity:attribute:primaryKey:)``), so that
/// a value moved in or out of external storage compares equal to itself; anything else as stored.
enum ExternalDataComparison {
    static func bytes(
        _ row: Row, _ column: String, store: URL, layout: StoreLayout, entity: EntityLayout, attribute: String
    ) throws -> DatabaseValue {
        let value = row[column] as DatabaseValue
        guard let layoutAttribute = entity.attribute(named: attribute), layout.storesExternally(layoutAttribute)
        else { return value }
        return try ExternalDataFolder(store: store).bytes(
            of: value, storePath: store.path, entity: entity.name, attribute: attribute,
            primaryKey: row["Z_PK"] as Int64? ?? -1)
    }
}

import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// The `explicit` scenario's history: 17 versions of eight entities, each step adding one
/// attribute to one entity, round-robin, and an explicit mapping that computes it.
enum ExplicitHistory {
    /// The entities, in name order (so `Z_ENT` never moves). `Item.owner` points into Account.
    static let entityNames = ["Account", "Address", "Device", "Item", "Payment", "Review", "Session", "Tag"]
    /// Steps in the history.
    static let steps = 16

    /// The entity step `step` (1…16) transforms.
    static func transformed(step: Int) -> String {
        entityNames[(step - 1) % entityNames.count]
    }

    /// Version `index` (0…16): the first version plus the notes of steps 1…index.
    static func version(_ index: Int) -> ObjectModel {
        var entities: [Entity] = entityNames.map { name in
            var entity = Entity(name)
            entity.attributes = [
                Attribute("amount", .integer64), Attribute("detail", .string), Attribute("name", .string),
            ]
            return entity
        }
        for step in stride(from: 1, through: index, by: 1) {
            let position = (step - 1) % entityNames.count
            entities[position].attributes.append(Attribute("note\(step)", .string))
        }
        let account = entityNames.firstIndex(of: "Account") ?? 0
        let item = entityNames.firstIndex(of: "Item") ?? 0
        entities[account].relationships = [Relationship("items", to: "Item", inverse: "owner").toMany()]
        entities[item].relationships = [Relationship("owner", to: "Account", inverse: "items")]
        return ObjectModel(
            index == 0 ? "Explicit" : "Explicit \(index + 1)", versionIdentifiers: ["\(index + 1)"], entities: entities)
    }

    static let versions: [ObjectModel] = (0...steps).map(version)

    /// Step `step`'s mapping file: every entity mapped by default, the transformed one's new
    /// attribute from `$source.name`.
    static func mapping(step: Int) -> String {
        let mappings = entityNames.map { name in
            let attributes =
                name == transformed(step: step) ? #", "attributes": { "note\#(step)": "$source.name" }"# : ""
            return #"{ "name": "\#(name)To\#(name)", "source": "\#(name)", "destination": "\#(name)"\#(attributes) }"#
        }
        return """
            { "source": "\(versions[step - 1].name)", "destination": "\(versions[step].name)",
              "entityMappings": [\(mappings.joined(separator: ",\n"))] }
            """
    }

    /// The cached first-version store with `rows` objects in all, seeded first when missing.
    static func ensureSeed(rows: Int, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("explicit-v1-\(rows).sqlite")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let partial = directory.appendingPathComponent(".partial-\(url.lastPathComponent)")
        BenchStore.removeStoreFiles(at: partial)
        let model = versions[0]
        let layout = try StoreLayout(model: model)
        try StoreCreator.createStore(
            at: partial, model: model, uuid: "E8B1C17E-0000-4000-8000-\(String(format: "%012d", rows))")
        let perEntity = max(1, rows / entityNames.count)
        let queue = try DatabaseQueue(path: partial.path)
        try queue.write { db in
            try db.execute(sql: "PRAGMA cache_size = -65536")
            for name in entityNames {
                let table = try SeedTable(layout, name)
                // Items belong to account (7k mod n) + 1, and their detail starts with that
                // account's name, so a check can tell a right link from a wrong one by value.
                let owner = name == "Item" ? ", \(try table.column("owner"))" : ""
                let ownerValue = name == "Item" ? ", (k * 7) % \(perEntity) + 1" : ""
                let detail =
                    name == "Item"
                    ? "printf('Account %07d', (k * 7) % \(perEntity) + 1) || ' item ' || k"
                    : "'Detail of \(name) ' || k || ': some words to give the row a realistic size.'"
                try db.execute(
                    sql: """
                        WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(perEntity))
                        INSERT INTO \(table.table) (Z_PK, Z_ENT, Z_OPT, \(try table.columns("amount", "detail", "name"))\(owner))
                        SELECT k, \(table.number), 1, k * 13 % 1000, \(detail),
                               \(name == "Account" ? "printf('Account %07d', k)" : "'\(name) ' || k")\(ownerValue)
                        FROM n
                        """)
                try db.execute(
                    sql: "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = ? WHERE \"Z_ENT\" = ?",
                    arguments: [perEntity, table.number])
            }
        }
        _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try queue.close()
        BenchStore.removeStoreFiles(at: url)
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }
}

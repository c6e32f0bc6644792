import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Every object of a store, in a form that two stores written by different paths can be
/// compared by: primary keys, `Z_OPT`, order columns and row order are left out, and a
/// relationship is the list of the related objects' attribute values (sorted, unless the
/// relationship is ordered).
///
/// Relating objects by their attributes rather than their keys can't tell two objects
/// apart whose attributes are all equal; seeded stores give almost every row a distinct
/// value, so in practice it loses nothing. The content is held in memory: it is meant for the
/// small stores of a test matrix.
struct StoreContent {
    /// One object.
    struct Object {
        var primaryKey: Int64
        /// Attribute values by name.
        var attributes: [String: CanonicalValue]
        /// Related objects' attribute signatures by relationship name.
        var relationships: [String: [String]]

        /// Everything about the object but its key, ASCII only.
        var signature: String {
            let values = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.key)" }
            let links = relationships.sorted { $0.key < $1.key }.map {
                "\($0.key)=[\($0.value.joined(separator: ","))]"
            }
            return (values + links).joined(separator: ";")
        }
    }

    /// A difference between two contents, in terms of the first one's objects.
    struct Difference {
        var entity: String
        /// The first content's object that has no equal in the second, if one was singled out.
        var primaryKey: Int64?
        var property: String
        var first: String
        var second: String
    }

    /// Objects by concrete entity name, in `Z_PK` order.
    var objects: [String: [Object]]

    /// Reads every object of the store at `url`, laid out as `layout` says. Properties named
    /// in `ignoring` (`"Entity.property"`, the entity being the concrete one or the one
    /// declaring the property) are left out.
    static func read(storeAt url: URL, layout: StoreLayout, ignoring: Set<String> = []) throws -> StoreContent {
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        return try queue.read { db in
            let context = ObjectContext(db, layout: layout)
            let concrete = layout.entities.filter { !$0.isAbstract }
            func kept(_ entity: EntityLayout, _ property: String, declaredBy declaring: String) -> Bool {
                !ignoring.contains("\(entity.name).\(property)") && !ignoring.contains("\(declaring).\(property)")
            }
            // Pass 1: attribute values, and each object's attribute signature by table and key.
            var objects: [String: [Object]] = [:]
            var signatures: [String: [Int64: String]] = [:]
            for entity in concrete {
                var rows: [Object] = []
                let cursor = try context.cursor(entity.name, includingSubentities: false)
                while let stored = try cursor.next() {
                    var attributes: [String: CanonicalValue] = [:]
                    for attribute in entity.attributes
                    where kept(entity, attribute.name, declaredBy: attribute.declaringEntity) {
                        attributes[attribute.name] = CanonicalValue(stored[attribute.name])
                    }
                    let object = Object(primaryKey: stored.id.primaryKey, attributes: attributes, relationships: [:])
                    signatures[entity.tableName, default: [:]][object.primaryKey] = "{\(object.signature)}"
                    rows.append(object)
                }
                objects[entity.name] = rows
            }
            // Pass 2: relationships, as the related objects' signatures: one query per
            // relationship, walked beside the rows (both in source key order), rather than
            // one per object and relationship.
            for entity in concrete {
                var rows = objects[entity.name] ?? []
                for relationship in entity.relationships
                where kept(entity, relationship.name, declaredBy: relationship.declaringEntity) {
                    let table = layout.entity(named: relationship.destination)?.tableName ?? ""
                    var related = Array(repeating: [String](), count: rows.count)
                    var position = 0
                    let pairs = try Row.fetchCursor(
                        db, sql: Self.relatedKeysSQL(relationship, table: entity.tableName),
                        arguments: Self.relatedKeysArguments(relationship, entity: entity))
                    while let pair = try pairs.next() {
                        let source: Int64 = pair[0]
                        let target: Int64 = pair[1]
                        while position < rows.count, rows[position].primaryKey < source { position += 1 }
                        guard position < rows.count else { break }
                        guard rows[position].primaryKey == source else { continue }
                        related[position].append(
                            signatures[table]?[target] ?? "{missing \(relationship.destination)#\(target)}")
                    }
                    for index in rows.indices {
                        rows[index].relationships[relationship.name] =
                            relationship.isOrdered ? related[index] : related[index].sorted(by: Self.byBytes)
                    }
                }
                objects[entity.name] = rows
            }
            return StoreContent(objects: objects)
        }
    }

    /// Every link of a relationship as (source `Z_PK`, destination `Z_PK`) rows, by source
    /// key, then in the relationship's order: what `ObjectContext.related` gives one object
    /// at a time. `table` is the source entity's table.
    private static func relatedKeysSQL(_ relationship: RelationshipLayout, table: String) -> String {
        switch relationship.storage {
        case .foreignKey(let column, _, _):
            let key = column.quotedSQLIdentifier
            return """
                SELECT "Z_PK", \(key) FROM \(table.quotedSQLIdentifier)
                WHERE "Z_ENT" = ? AND \(key) IS NOT NULL ORDER BY "Z_PK"
                """
        case .inverseForeignKey(let table, let column, let orderColumn):
            let key = column.quotedSQLIdentifier
            let order = orderColumn.map { "\($0.quotedSQLIdentifier), " } ?? ""
            return """
                SELECT \(key), "Z_PK" FROM \(table.quotedSQLIdentifier)
                WHERE \(key) IS NOT NULL ORDER BY \(key), \(order)"Z_PK"
                """
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
            let (source, destination) = (sourceColumn.quotedSQLIdentifier, destinationColumn.quotedSQLIdentifier)
            let order = orderColumn.map { "\($0.quotedSQLIdentifier), " } ?? ""
            return """
                SELECT \(source), \(destination) FROM \(table.quotedSQLIdentifier)
                ORDER BY \(source), \(order)\(destination)
                """
        }
    }

    private static func relatedKeysArguments(_ relationship: RelationshipLayout, entity: EntityLayout)
        -> StatementArguments
    {
        if case .foreignKey = relationship.storage { return [entity.number] }
        return []
    }

    /// The first difference between two contents, or nil when they hold the same objects.
    ///
    /// Objects are first compared in key order (two paths usually create them in the same
    /// order); if that fails, as multisets, so a path that creates objects in another order
    /// isn't reported. A real difference names an object of `self` without an equal in
    /// `other`, and the first property in which it differs from the most similar unmatched
    /// object of `other`.
    func firstDifference(from other: StoreContent) -> Difference? {
        for entity in Set(objects.keys).union(other.objects.keys).sorted() {
            let mine = objects[entity] ?? []
            let theirs = other.objects[entity] ?? []
            if mine.count != theirs.count {
                return Difference(
                    entity: entity, primaryKey: nil, property: "(row count)", first: "\(mine.count) rows",
                    second: "\(theirs.count) rows")
            }
            let mySignatures = mine.map(\.signature)
            let theirSignatures = theirs.map(\.signature)
            if mySignatures == theirSignatures { continue }
            var unmatched: [String: [Int]] = [:]
            for (index, signature) in theirSignatures.enumerated() { unmatched[signature, default: []].append(index) }
            var lonely: [Object] = []
            for (index, signature) in mySignatures.enumerated() {
                if unmatched[signature]?.isEmpty == false {
                    unmatched[signature]?.removeFirst()
                } else {
                    lonely.append(mine[index])
                }
            }
            guard let object = lonely.first else { continue }
            let candidates = unmatched.values.flatMap { $0 }.sorted().map { theirs[$0] }
            let closest = candidates.max { Self.agreement($0, object) < Self.agreement($1, object) }
            return Self.difference(entity: entity, object, closest)
        }
        return nil
    }

    /// How many properties two objects agree on.
    private static func agreement(_ a: Object, _ b: Object) -> Int {
        a.attributes.filter { b.attributes[$0.key] == $0.value }.count
            + a.relationships.filter { b.relationships[$0.key] == $0.value }.count
    }

    private static func difference(entity: String, _ object: Object, _ other: Object?) -> Difference {
        guard let other else {
            return Difference(
                entity: entity, primaryKey: object.primaryKey, property: "(object)", first: "present", second: "absent")
        }
        for name in object.attributes.keys.sorted() where object.attributes[name] != other.attributes[name] {
            return Difference(
                entity: entity, primaryKey: object.primaryKey, property: name,
                first: object.attributes[name]?.description ?? "absent",
                second: other.attributes[name]?.description ?? "absent")
        }
        for name in object.relationships.keys.sorted() where object.relationships[name] != other.relationships[name] {
            return Difference(
                entity: entity, primaryKey: object.primaryKey, property: name,
                first: "\(object.relationships[name]?.count ?? 0) related objects",
                second: "\(other.relationships[name]?.count ?? 0) related objects, not the same ones")
        }
        return Difference(
            entity: entity, primaryKey: object.primaryKey, property: "(object)", first: "present",
            second: "absent")
    }

    /// Orders ASCII signatures by their bytes (they are ASCII, so this is also Swift's order).
    private static func byBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

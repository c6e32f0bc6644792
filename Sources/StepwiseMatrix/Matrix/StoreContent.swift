import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Every object of a store, in a form that two stores written by different paths can be
/// compared by: primary keys, `Z_OPT`, order columns and row order are left out, and a
/// relationship is the list of the related objects' attribute signatures (sorted, unless the
/// relationship is ordered).
///
/// Relating objects by their attributes rather than their keys can't tell two objects
/// apart whose attributes are all equal; seeded stores give almost every row a distinct
/// value, so in practice it loses nothing.
///
/// **Flat memory.** An object is kept as its key and a 128-bit digest of its signature
/// (``Digest``), a few dozen bytes whatever its values; only when two stores differ are the
/// objects of the one entity that differs read in full, to say how.
struct StoreContent {
    /// A 128-bit digest of a signature: two Swift `Hasher`s (SipHash, keyed per process) fed
    /// the same ASCII text after different first words. Equal signatures give equal digests;
    /// different ones, equal digests with a chance of one in 2^128.
    struct Digest: Hashable, Comparable {
        var first: Int
        var second: Int

        static func < (lhs: Digest, rhs: Digest) -> Bool {
            (lhs.first, lhs.second) < (rhs.first, rhs.second)
        }
    }

    /// Feeds text into a ``Digest``.
    struct DigestBuilder {
        private var first = Hasher()
        private var second = Hasher()

        init() {
            first.combine(1)
            second.combine(2)
        }

        mutating func add(_ text: String) {
            first.combine(text)
            second.combine(text)
        }

        mutating func add(_ digest: Digest) {
            first.combine(digest)
            second.combine(digest)
        }

        func finalize() -> Digest {
            Digest(first: first.finalize(), second: second.finalize())
        }
    }

    /// One object read in full, to describe a difference.
    struct Object {
        var primaryKey: Int64
        /// Attribute values by name.
        var attributes: [String: CanonicalValue]
        /// Related objects' attribute digests by relationship name.
        var relationships: [String: [Digest]]
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

    /// One object's key and the digest of everything else about it.
    struct Entry: Hashable {
        var primaryKey: Int64
        var digest: Digest
    }

    /// The store read, its layout, and the properties left out.
    let url: URL
    let layout: StoreLayout
    let ignoring: Set<String>
    /// Each concrete entity's objects by name, in `Z_PK` order.
    let entries: [String: [Entry]]
    /// Each object's attribute digest, by table and key: what relationships are compared by.
    private let attributeDigests: [String: [Int64: Digest]]

    /// Reads every object of the store at `url`, laid out as `layout` says. Properties named
    /// in `ignoring` (`"Entity.property"`, the entity being the concrete one or the one
    /// declaring the property) are left out.
    static func read(storeAt url: URL, layout: StoreLayout, ignoring: Set<String> = []) throws -> StoreContent {
        let reader = Reader(layout: layout, ignoring: ignoring)
        let (entries, digests) = try withDatabase(at: url) { db in try reader.entries(db) }
        return StoreContent(
            url: url, layout: layout, ignoring: ignoring, entries: entries, attributeDigests: digests)
    }

    /// The position of an object among its entity's objects, in key order.
    func position(of primaryKey: Int64, in entity: String) -> Int? {
        entries[entity]?.firstIndex { $0.primaryKey == primaryKey }
    }

    private static func withDatabase<T>(at url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// The objects of one entity read in full, in key order.
    private func objects(of entityName: String) throws -> [Object] {
        guard let entity = layout.entity(named: entityName) else { return [] }
        let reader = Reader(layout: layout, ignoring: ignoring)
        let digests = attributeDigests
        return try Self.withDatabase(at: url) { db in
            var objects: [Object] = []
            try reader.forEachObject(of: entity, db) { primaryKey, attributes in
                objects.append(
                    Object(
                        primaryKey: primaryKey,
                        attributes: Dictionary(attributes, uniquingKeysWith: { first, _ in first }),
                        relationships: [:]))
            }
            try reader.forEachRelationship(of: entity, keys: objects.map(\.primaryKey), digests: digests, db) {
                name, related in
                for index in objects.indices { objects[index].relationships[name] = related[index] }
            }
            return objects
        }
    }

    /// Reads a store's objects as a layout lays them out, leaving out ignored properties.
    private struct Reader {
        var layout: StoreLayout
        var ignoring: Set<String>

        private func isKept(_ entity: EntityLayout, _ property: String, declaredBy declaring: String) -> Bool {
            !ignoring.contains("\(entity.name).\(property)") && !ignoring.contains("\(declaring).\(property)")
        }

        /// Every concrete entity's entries, and every object's attribute digest by table and key.
        func entries(_ db: Database) throws -> ([String: [Entry]], [String: [Int64: Digest]]) {
            let concrete = layout.entities.filter { !$0.isAbstract }
            var entries: [String: [Entry]] = [:]
            var digests: [String: [Int64: Digest]] = [:]
            // Pass 1: each object's attribute digest, by table and key.
            for entity in concrete {
                var rows: [Entry] = []
                var tableDigests = digests[entity.tableName] ?? [:]
                try forEachObject(of: entity, db) { primaryKey, attributes in
                    let digest = StoreContent.digest(of: attributes)
                    tableDigests[primaryKey] = digest
                    rows.append(Entry(primaryKey: primaryKey, digest: digest))
                }
                digests[entity.tableName] = tableDigests
                entries[entity.name] = rows
            }
            // Pass 2: fold each relationship, as the related objects' attribute digests, into
            // each object's digest.
            for entity in concrete {
                var rows = entries[entity.name] ?? []
                var builders = rows.map { row -> DigestBuilder in
                    var builder = DigestBuilder()
                    builder.add(row.digest)
                    return builder
                }
                try forEachRelationship(of: entity, keys: rows.map(\.primaryKey), digests: digests, db) {
                    name, related in
                    for index in builders.indices {
                        builders[index].add(name)
                        builders[index].add("[")
                        for digest in related[index] { builders[index].add(digest) }
                        builders[index].add("]")
                    }
                }
                for index in rows.indices { rows[index].digest = builders[index].finalize() }
                entries[entity.name] = rows
            }
            return (entries, digests)
        }

        /// Calls `body` with each object of `entity` (its own rows), in key order, and its kept
        /// attributes' values in name order.
        func forEachObject(
            of entity: EntityLayout, _ db: Database, _ body: (Int64, [(String, CanonicalValue)]) throws -> Void
        ) throws {
            let names = entity.attributes.filter { isKept(entity, $0.name, declaredBy: $0.declaringEntity) }
                .map(\.name).sorted()
            let cursor = try ObjectContext(db, layout: layout).cursor(entity.name, includingSubentities: false)
            while let stored = try cursor.next() {
                try body(stored.id.primaryKey, names.map { ($0, CanonicalValue(stored[$0])) })
            }
        }

        /// Calls `body` with each kept relationship of `entity`, by name, and for each object
        /// of `keys` (its rows, in key order) the related objects' attribute digests (from
        /// `digests`, by table and key), sorted unless the relationship is ordered. One query
        /// per relationship, walked beside the rows (both in source key order).
        func forEachRelationship(
            of entity: EntityLayout, keys: [Int64], digests: [String: [Int64: Digest]], _ db: Database,
            _ body: (String, [[Digest]]) throws -> Void
        ) throws {
            let relationships = entity.relationships.filter {
                isKept(entity, $0.name, declaredBy: $0.declaringEntity)
            }.sorted { $0.name < $1.name }
            for relationship in relationships {
                let table = layout.entity(named: relationship.destination)?.tableName ?? ""
                let tableDigests = digests[table] ?? [:]
                var related = Array(repeating: [Digest](), count: keys.count)
                var position = 0
                let pairs = try Row.fetchCursor(
                    db, sql: StoreContent.relatedKeysSQL(relationship, table: entity.tableName),
                    arguments: StoreContent.relatedKeysArguments(relationship, entity: entity))
                while let pair = try pairs.next() {
                    let source: Int64 = pair[0]
                    let target: Int64 = pair[1]
                    while position < keys.count, keys[position] < source { position += 1 }
                    guard position < keys.count else { break }
                    guard keys[position] == source else { continue }
                    related[position].append(
                        tableDigests[target] ?? StoreContent.missing(relationship.destination, target))
                }
                if !relationship.isOrdered {
                    for index in related.indices { related[index].sort() }
                }
                try body(relationship.name, related)
            }
        }
    }

    /// The digest of an object's attributes, given in name order.
    fileprivate static func digest(of attributes: [(String, CanonicalValue)]) -> Digest {
        var builder = DigestBuilder()
        for (name, value) in attributes {
            builder.add(name)
            builder.add("=")
            builder.add(value.key)
            builder.add(";")
        }
        return builder.finalize()
    }

    /// What a link to a row that doesn't exist stands for.
    fileprivate static func missing(_ entity: String, _ primaryKey: Int64) -> Digest {
        var builder = DigestBuilder()
        builder.add("missing \(entity)#\(primaryKey)")
        return builder.finalize()
    }

    /// Every link of a relationship as (source `Z_PK`, destination `Z_PK`) rows, by source
    /// key, then in the relationship's order: what `ObjectContext.related` gives one object
    /// at a time. `table` is the source entity's table.
    fileprivate static func relatedKeysSQL(_ relationship: RelationshipLayout, table: String) -> String {
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

    fileprivate static func relatedKeysArguments(_ relationship: RelationshipLayout, entity: EntityLayout)
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
    /// object of `other`: the objects of that entity alone are read again, in full, from both
    /// stores.
    func firstDifference(from other: StoreContent) throws -> Difference? {
        for entity in Set(entries.keys).union(other.entries.keys).sorted() {
            let mine = entries[entity] ?? []
            let theirs = other.entries[entity] ?? []
            if mine.count != theirs.count {
                return Difference(
                    entity: entity, primaryKey: nil, property: "(row count)", first: "\(mine.count) rows",
                    second: "\(theirs.count) rows")
            }
            if mine.map(\.digest) == theirs.map(\.digest) { continue }
            var unmatched: [Digest: [Int]] = [:]
            for (index, entry) in theirs.enumerated() { unmatched[entry.digest, default: []].append(index) }
            var lonely: Int?
            for (index, entry) in mine.enumerated() {
                if unmatched[entry.digest]?.isEmpty == false {
                    unmatched[entry.digest]?.removeFirst()
                } else if lonely == nil {
                    lonely = index
                }
            }
            guard let lonely else { continue }
            let object = try objects(of: entity)[lonely]
            let theirObjects = try other.objects(of: entity)
            let candidates = unmatched.values.flatMap { $0 }.sorted().map { theirObjects[$0] }
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
}

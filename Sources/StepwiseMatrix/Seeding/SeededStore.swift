import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// A store generated for any model version from a seed and row counts, for tests that need
/// realistic, awkward data without writing it by hand.
///
/// ```swift
/// let store = try SeededStore.create(at: url, model: RecipesHistory.v2, seed: 42, rows: 20)
/// store.rowCounts["Recipe"]            // 20
/// store.primaryKey(of: "Recipe", row: 0)
/// ```
///
/// **What it holds.** Every concrete entity gets its rows (subentities too: an abstract
/// parent's rows are its subentities'). Attribute values come from ``SeededValues``: edge
/// cases of the attribute's type spread over the rows, ordinary values between them, nil in
/// some rows of optional attributes and the default value in some rows of attributes that
/// have one. Attributes in a uniqueness constraint get values unique in their table. Then
/// every stored relationship is filled, each pair of inverses once: required to-ones always
/// point somewhere, to-manys hold between their minimum and maximum counts (on both sides
/// of a many-to-many), one-to-ones pair rows off without sharing, and objects are spread
/// evenly over their destinations.
///
/// **Deterministic.** The same model, seed and row counts give the same rows, the same
/// primary keys and the same metadata (the store's UUID is derived from the seed), on any
/// machine: the generator is ``SplitMix64`` and every draw is keyed by entity, property and
/// row, never by how many draws came before.
///
/// **Flat memory.** Rows are written in batches of ``batchSize`` through ``ObjectContext``,
/// one write transaction per batch; only each entity's first primary key is remembered, so a
/// million rows cost no more memory than a hundred.
///
/// ## Topics
/// - ``create(at:model:seed:rows:)``
/// - ``create(at:model:seed:seeding:)``
/// - ``SeedingConstraints``
/// - ``SeededValues``
/// - ``SeededEdgeCases``
/// - ``RowCounts``
/// - ``UpgradeMatrixFailure``
public struct SeededStore: Sendable {
    /// The rows of one concrete entity: `count` rows whose primary keys run from
    /// `firstPrimaryKey` up, in row order.
    public struct Segment: Sendable, Hashable {
        public var entity: String
        public var firstPrimaryKey: Int64
        public var count: Int
    }

    /// Rows written per write transaction.
    public static let batchSize = 5_000

    /// The store's location.
    public let url: URL
    /// The model version the store is at.
    public let modelName: String
    /// The seed it was generated from.
    public let seed: UInt64
    /// The clock `now()` derivations read while a store is seeded: fixed, so the same seed
    /// gives the same stamps (2024-01-01 00:00:00 UTC).
    public static let now = Date(timeIntervalSinceReferenceDate: 725_846_400)
    /// The concrete entities' rows, in `Z_ENT` order.
    public let segments: [Segment]

    /// Rows by concrete entity name.
    public var rowCounts: [String: Int] {
        Dictionary(segments.map { ($0.entity, $0.count) }, uniquingKeysWith: { first, _ in first })
    }

    /// Rows of every entity together.
    public var totalRows: Int { segments.reduce(0) { $0 + $1.count } }

    /// The primary key of row `row` (from 0) of a concrete entity, or nil.
    public func primaryKey(of entity: String, row: Int) -> Int64? {
        guard let segment = segments.first(where: { $0.entity == entity }), row >= 0, row < segment.count else {
            return nil
        }
        return segment.firstPrimaryKey + Int64(row)
    }

    /// Creates a seeded store at `url` for a model version.
    ///
    /// - parameters:
    ///   - url: Where to create the store; nothing may exist there yet.
    ///   - model: Any valid model version.
    ///   - seed: Chooses every value and link; the same seed gives the same store.
    ///   - rows: Rows per concrete entity: a number for all (20 by default), or counts by
    ///     entity name (see ``RowCounts``).
    /// - returns: Where each entity's rows are.
    /// - throws: ``UpgradeMatrixFailure`` when the row counts can't satisfy the model (a required
    ///   to-one to an entity without rows…), `ModelError` or ``StoreError`` for a
    ///   model that can't be laid out or a store that can't be written. A failed generation
    ///   leaves a partial store behind: delete it.
    @discardableResult
    public static func create(at url: URL, model: ObjectModel, seed: UInt64 = 1, rows: RowCounts = 20) throws
        -> SeededStore
    {
        try create(at: url, model: model, seed: seed, seeding: SeedingConstraints(rows: rows))
    }

    /// Creates a seeded store at `url` for a model version, holding what `seeding` asks for:
    /// row counts, relationships set in every row, unique values, values from a list.
    ///
    /// - parameters:
    ///   - url: Where to create the store; nothing may exist there yet.
    ///   - model: Any valid model version.
    ///   - seed: Chooses every value and link; the same seed gives the same store.
    ///   - seeding: Rows per entity and constraints on the data (``SeedingConstraints``); every
    ///     name must exist in `model` (``SeedingConstraints/restricted(to:)`` drops the others).
    /// - returns: Where each entity's rows are.
    /// - throws: ``UpgradeMatrixFailure`` for a constraint naming what `model` lacks, or one the model
    ///   and row counts can't satisfy; otherwise as ``create(at:model:seed:rows:)``.
    @discardableResult
    public static func create(at url: URL, model: ObjectModel, seed: UInt64 = 1, seeding: SeedingConstraints) throws
        -> SeededStore
    {
        do {
            try seeding.validate(for: model)
        } catch {
            var error = error
            error.path = url.path
            throw error
        }
        let rows = seeding.rows
        let layout = try StoreLayout(model: model)
        try check(rows, layout: layout, path: url.path)
        var uuidRandom = SplitMix64(seed: seed, "store UUID")
        let uuid = SeededValues.uuid(uuidRandom.next(), uuidRandom.next()).uuidString
        try StoreCreator.createStore(at: url, model: model, uuid: uuid)
        let queue = try DatabaseQueue(
            path: url.path, configuration: Configuration().registeringCoreDataTriggerFunctions(now: { Self.now }))
        defer { try? queue.close() }
        let writer = SeededRowWriter(
            queue: queue, layout: layout, values: SeededValues(seed: seed), constraints: seeding)
        var segments: [Segment] = []
        do {
            for entity in layout.entities where !entity.isAbstract {
                segments.append(try writer.insertRows(of: entity, count: rows.count(for: entity.name)))
            }
            let store = SeededStore(url: url, modelName: model.name, seed: seed, segments: segments)
            try SeededRelationships(
                store: store, model: model, layout: layout, alwaysLinked: seeding.alwaysLinkedKeys(in: model)
            ).link(in: queue)
            // Derived values as Core Data's triggers leave them once the links are in place;
            // `now()` stamps read the fixed clock.
            try queue.write { db in try DerivedValues.computeValues(layout, in: db) }
            try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            return store
        } catch var error as UpgradeMatrixFailure {
            error.path = url.path
            throw error
        }
    }

    private static func check(_ rows: RowCounts, layout: StoreLayout, path: String) throws {
        if rows.defaultCount < 0 {
            throw UpgradeMatrixFailure(.invalidRowCount(entity: "every entity", count: rows.defaultCount), path: path)
        }
        for (name, count) in rows.counts.sorted(by: { $0.key < $1.key }) {
            guard let entity = layout.entity(named: name), !entity.isAbstract || count == 0, count >= 0 else {
                throw UpgradeMatrixFailure(.invalidRowCount(entity: name, count: count), path: path)
            }
        }
    }
}

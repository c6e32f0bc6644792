import Foundation
import GRDB
import Logging
import StepwiseModel
import StepwiseStore

/// Runs the mappings of one step and keeps track of which destination instance was made
/// from which source instance: Core Data's `NSMigrationManager`.
///
/// Policies receive the manager in every hook. Through it they read the source
/// (``source``), write the destination (``destination``), record and look up associations,
/// and keep caches in ``userInfo`` (for example one Cuisine per distinct name).
///
/// **Flat memory.** Associations live in SQLite temporary tables, one per entity mapping
/// (`temp.stepwise_map_<n>`: source `Z_PK` → destination `Z_PK`, indexed both ways), never
/// in Swift dictionaries, so a step's memory does not grow with the number of rows.
///
/// An association is a pair: as in Core Data, a policy may make several destination
/// instances from one source row (splitting it), or one from several (merging them).
public final class MigrationManager {
    /// The connection: the destination is `main`, the source is attached as `src`.
    public let db: Database
    /// The source version, in its stored form (`ObjectModel.flatteningComposites()`).
    public let sourceModel: ObjectModel
    /// The destination version, in its stored form (`ObjectModel.flatteningComposites()`).
    public let destinationModel: ObjectModel
    package let sourceLayout: StoreLayout
    package let destinationLayout: StoreLayout
    /// Objects of the source store (read them; never write).
    public let source: ObjectContext
    /// Objects of the destination store.
    public let destination: ObjectContext
    /// Free storage for policies, shared by every mapping of the step.
    public var userInfo: [String: Any] = [:]
    /// The mapping model running now.
    public internal(set) var currentMappingModel: MappingModel?
    let policies: PolicyRegistry
    let logger: Logger
    let progress: (@Sendable (StepProgress) -> Void)?
    /// Checked every ``StepCancellation/rowInterval`` rows by the row-by-row passes.
    var cancellation: StepCancellation?

    /// Whether destination rows keep their source primary keys (an in-place step), so a
    /// destination key names its source row without a lookup table.
    var keepsPrimaryKeys = false

    /// Relationships (`"Entity.relationship"`, by declaring entity) whose keys the step kept
    /// exactly as the source held them, which ``validateDestination()`` doesn't read again
    /// (``InPlacePlan/relationshipsWithKeptKeys(source:destination:)``); empty but in place.
    var relationshipsWithKeptKeys: Set<String> = []

    /// Required attributes (`"Entity.attribute"`) an in-place step can't have left without a
    /// value, which ``validateDestination()`` doesn't scan for NULLs
    /// (``InPlacePlan/requiredAttributesKnownFilled(mapping:sourceModel:destinationModel:source:destination:)``);
    /// empty but in place.
    var requiredAttributesKnownFilled: Set<String> = []

    /// The schema the source's tables are read from: `src`, the attached source, or `main`
    /// when a step rebuilds some tables inside a copy of the source
    /// (``MigrationStep/migratePartially(_:from:to:access:models:sourceLayout:destinationLayout:metadata:started:)``),
    /// whose ``sourceLayout`` then names the source's tables as they were moved aside.
    let sourceSchema: String

    /// One association table per entity mapping that has run or is running.
    var lookupTables: [LookupTable] = []

    /// The foreign keys pass 1's `INSERT`s wrote ahead of pass 2 (``InsertedLinks``).
    var insertedLinks = InsertedLinks()

    /// Per entity mapping name: what the row-by-row path works out once (``InstancePlan``).
    var instancePlans: [String: InstancePlan] = [:]
    /// Per entity mapping name: its relationship mappings resolved (``RelationshipPlan``).
    var relationshipPlans: [String: RelationshipPlan] = [:]
    /// The lookup tables' statements, prepared once per table.
    var lookupStatements: [LookupStatementKey: Statement] = [:]
    /// Per lookup table (by index): its insert, bound in place (``BoundStatement``).
    var associateStatements: [Int: BoundStatement] = [:]
    /// The associations not written yet, while pass 1 runs row by row
    /// (``bufferingAssociations(_:)``); nil otherwise.
    var associationBuffer: AssociationBuffer?
    /// Inserts that also write to-one relationships, per plan and relationship names.
    var relatedInserts: [RelatedInsertKey: PreparedInsert?] = [:]
    /// `Z_ENT` by destination entity name, for ``associate(source:destination:mapping:)``.
    var destinationEntityNumbers: [String: Int] = [:]

    /// How many primary keys the destination reserves at a time (``flushPrimaryKeys()``).
    static let primaryKeyBatch = 1024

    init(
        db: Database, sourceModel: ObjectModel, destinationModel: ObjectModel, sourceLayout: StoreLayout,
        destinationLayout: StoreLayout, policies: PolicyRegistry, logger: Logger,
        progress: (@Sendable (StepProgress) -> Void)?, sourceSchema: String = MigrationStep.sourceSchema,
        externalData: ExternalDataFolder? = nil
    ) {
        self.db = db
        self.sourceSchema = sourceSchema
        // As the layouts hold them: a composite is its leaves (`author.person`), one column each.
        self.sourceModel = sourceModel.flatteningComposites()
        self.destinationModel = destinationModel.flatteningComposites()
        self.sourceLayout = sourceLayout
        self.destinationLayout = destinationLayout
        var source = ObjectContext(db, layout: sourceLayout, schemaName: sourceSchema)
        // Keys are reserved in ranges; flushPrimaryKeys() gives the unused ones back before
        // anything reads Z_MAX in SQL and after every pass and hook.
        var destination = ObjectContext(
            db, layout: destinationLayout, primaryKeyBatch: Self.primaryKeyBatch,
            valueTransformers: policies.valueTransformers)
        // Both read the source's files: a destination row either copied a reference verbatim
        // or holds its value inline.
        source.externalData = externalData
        destination.externalData = externalData
        self.source = source
        self.destination = destination
        self.policies = policies
        self.logger = logger
        self.progress = progress
    }

    // MARK: Associations

    /// Records that `destination` was created from `source` by `mapping`.
    public func associate(source: ObjectID, destination: ObjectID, mapping: EntityMapping) throws {
        let table = try lookupTableUnflushed(for: mapping.name)
        let number = try destinationEntityNumber(destination.entity)
        if associationBuffer != nil {
            try buffer(table, source.primaryKey, destination.primaryKey, number)
            return
        }
        try associateStatement(table).execute(source.primaryKey, destination.primaryKey, Int64(number))
    }

    /// The insert of one association into `table`, prepared once.
    func associateStatement(_ table: LookupTable) throws -> BoundStatement {
        if let known = associateStatements[table.index] { return known }
        let statement = try BoundStatement(
            db.makeStatement(
                sql:
                    "INSERT OR REPLACE INTO \(table.qualifiedName) (source_pk, destination_pk, destination_entity) VALUES (?, ?, ?)"
            ))
        associateStatements[table.index] = statement
        return statement
    }

    /// The `Z_ENT` of a destination entity, without copying its layout on every row.
    private func destinationEntityNumber(_ name: String) throws -> Int {
        if let known = destinationEntityNumbers[name] { return known }
        let number = try destinationLayout.entityNumber(name)
        destinationEntityNumbers[name] = number
        return number
    }

    /// The destination instances the named entity mapping created from `sourceInstances`, in order.
    /// Core Data's `destinationInstancesForEntityMappingNamed:sourceInstances:`.
    public func destinationInstances(forEntityMappingNamed name: String, sourceInstances: [ObjectID]) throws
        -> [ObjectID]
    {
        let table = try lookupTable(for: name)
        let statement = try lookupStatement(.destinations, table) {
            "SELECT destination_pk, destination_entity FROM \(table.qualifiedName) WHERE source_pk = ? ORDER BY destination_pk"
        }
        return try sourceInstances.flatMap { instance in
            try Row.fetchAll(statement, arguments: [instance.primaryKey]).compactMap { row in
                destinationLayout.entity(number: row[1]).map { ObjectID(entity: $0.name, primaryKey: row[0]) }
            }
        }
    }

    /// The source instances from which the named entity mapping created `destinationInstances`.
    public func sourceInstances(forEntityMappingNamed name: String, destinationInstances: [ObjectID]) throws
        -> [ObjectID]
    {
        let table = try lookupTable(for: name)
        guard let sourceEntity = table.mapping.sourceEntity else { return [] }
        let statement = try lookupStatement(.sources, table) {
            "SELECT source_pk FROM \(table.qualifiedName) WHERE destination_pk = ? ORDER BY source_pk"
        }
        return try destinationInstances.flatMap { instance in
            try Int64.fetchAll(statement, arguments: [instance.primaryKey]).map {
                ObjectID(entity: sourceEntity, primaryKey: $0)
            }
        }
    }

    // MARK: Hooks

    /// Runs a policy hook that concerns a whole entity mapping (`begin`, `end`…) so that what
    /// it throws is a ``MappingError`` naming the mapping model, the entity mapping and its
    /// entity, like the errors of the hooks that run per row.
    func runHook(of mapping: EntityMapping, in model: MappingModel? = nil, _ hook: () throws -> Void) throws {
        let modelName = model?.name ?? currentMappingModel?.name
        let entity = mapping.destinationEntity ?? mapping.sourceEntity
        do {
            try hook()
            // A hook may have inserted objects: Z_MAX must be exact again before SQL reads it.
            try flushPrimaryKeys()
        } catch let error as MappingError {
            throw error.adding(mappingModel: modelName, entityMapping: mapping.name, entity: entity)
        } catch let error as StoreError {
            throw MappingError(
                error, otherwise: .policyFailed(ErrorText.describe(error)), mappingModel: modelName,
                entityMapping: mapping.name, entity: entity, sourcePrimaryKey: nil)
        } catch {
            throw MappingError(
                .policyFailed(ErrorText.describe(error)), mappingModel: modelName, entityMapping: mapping.name,
                entity: entity)
        }
    }

    // MARK: Primary keys

    /// Gives back the destination's reserved and unused primary keys, so that every `Z_MAX`
    /// is the last key used: before SQL that reads `Z_MAX` (the set-based passes) and after
    /// every pass and hook, so that what follows sees it exact.
    func flushPrimaryKeys() throws {
        // The same moments need the lookup tables complete.
        try flushAssociations()
        try destination.flushReservedPrimaryKeys()
    }

    // MARK: Lookup tables

    /// A statement on a lookup table, prepared once.
    func lookupStatement(_ operation: LookupStatementKey.Operation, _ table: LookupTable, _ sql: () -> String) throws
        -> Statement
    {
        let key = LookupStatementKey(operation: operation, table: table.index)
        if let statement = lookupStatements[key] { return statement }
        let statement = try db.makeStatement(sql: sql())
        lookupStatements[key] = statement
        return statement
    }

    /// The association table of the entity mapping named `name`: the current mapping
    /// model's first, then earlier ones of the same step.
    func lookupTable(for name: String) throws -> LookupTable {
        // Whoever asks for a table reads it: the buffered associations go in first.
        try flushAssociations()
        return try lookupTableUnflushed(for: name)
    }

    /// ``lookupTable(for:)`` without writing the buffered associations: for writing one more.
    func lookupTableUnflushed(for name: String) throws -> LookupTable {
        guard let table = lookupTables.last(where: { $0.mapping.name == name }) else {
            throw MappingError(.unknownEntityMapping(name), mappingModel: currentMappingModel?.name)
        }
        return table
    }

    /// Creates the association table for an entity mapping about to run.
    @discardableResult
    func createLookupTable(for mapping: EntityMapping) throws -> LookupTable {
        let sourceTable = mapping.sourceEntity.flatMap { sourceLayout.entity(named: $0)?.tableName }
        let table = LookupTable(
            index: lookupTables.count, mapping: mapping, sourceTable: sourceTable,
            mappingModel: currentMappingModel?.name)
        // WITHOUT ROWID keyed on the pair, source key first: lookups by source are a B-tree
        // search on the key's prefix, and one source may have several destinations (a policy
        // that splits rows). The second index serves reverse lookups, validation messages and
        // pass 2's walk over destination instances, which it streams in order (covering).
        try db.execute(
            sql: """
                CREATE TEMP TABLE \(table.name.quotedSQLIdentifier) (
                    source_pk INTEGER NOT NULL,
                    destination_pk INTEGER NOT NULL,
                    destination_entity INTEGER NOT NULL,
                    PRIMARY KEY (source_pk, destination_pk)
                ) WITHOUT ROWID;
                CREATE INDEX temp.\("\(table.name)_destination".quotedSQLIdentifier)
                    ON \(table.name.quotedSQLIdentifier) (destination_pk, destination_entity);
                """)
        lookupTables.append(table)
        return table
    }
}

/// Names a prepared statement on one lookup table.
struct LookupStatementKey: Hashable {
    enum Operation: Hashable {
        case destinations, sources, destinationCount
    }

    var operation: Operation
    var table: Int
}

/// Names an insert of ``MigrationManager/relatedInserts``.
struct RelatedInsertKey: Hashable {
    var plan: ObjectIdentifier
    var relationships: [String]
}

/// The association table of one entity mapping.
struct LookupTable {
    let index: Int
    let mapping: EntityMapping
    /// The source root table the mapping reads, whose primary keys `source_pk` holds.
    let sourceTable: String?
    /// The name of the mapping model the entity mapping belongs to.
    let mappingModel: String?

    var name: String { "stepwise_map_\(index)" }
    var qualifiedName: String { "temp.\(name.quotedSQLIdentifier)" }
}

extension StoreLayout {
    /// The `Z_ENT` of an entity, or a typed error.
    func entityNumber(_ name: String) throws -> Int {
        guard let entity = entity(named: name) else {
            throw MappingError(.unknownEntity(name, version: model.name))
        }
        return entity.number
    }
}

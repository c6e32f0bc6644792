import StepwiseModel

/// Core Data's SQLite layout for one model version: tables, columns, indexes and entity
/// numbers, computed exactly as Core Data does (corpus README §5), in the forms of one Core Data
/// release (``CoreDataRelease``).
///
/// `RealStoreLayoutTests` checks it against every store Core Data wrote in the corpus whose
/// model Stepwise reads (64: Wire's 40 written by Core Data 640 to 1145, DuckDuckGo's, the first
/// three projects' and `compiled/`'s), tables, columns, types, keys, constraints, indexes and
/// entity numbers alike, laid out both for the store (`matching:`) and as a new store of its
/// version and release, which differs only where Core Data migrated the store in place.
///
/// The layout is the bridge between a model and a store file. Code that reads or writes
/// objects asks it where things live; the version registry compares its expected schema
/// (``SQLiteSchema/init(expectedFor:)``) with a store's real one; ``StoreCreator`` runs its
/// ``createStatements``.
///
/// ```swift
/// let layout = try StoreLayout(model: model)
/// let message = layout.entity(named: "ATMessage")!
/// let table = message.tableName                          // "ZATRECORD"
/// let column = message.column(for: "pendingState")       // "ZPENDINGSTATE"
/// let kinds = message.subentityNumbers                    // Z_ENT IN (…)
/// ```
///
/// ### The rules
/// - **Entity numbers** (`Z_ENT`): roots by name, each followed depth-first by its subentities,
///   by name too, names compared as Core Data does, ignoring case (`CoreDataNameOrder`);
///   `Z_SUPER` is the parent's number, 0 for roots.
/// - **Tables**: one per root entity, `Z` + the uppercased name, holding the whole
///   hierarchy; first columns `Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER`.
/// - **Columns**: `Z` + the uppercased property name; an inherited property shares its
///   ancestor's column. When two entities of one table declare the same name, the lower
///   Z_ENT keeps it and the next ones get `1`, `2`… (`ZPENDINGSTATE1`). Attributes and to-one
///   relationships take part in this numbering; to-many relationships and transient properties
///   have no column in the table and don't (Screen Time's `ZSETTINGS1` after a to-many
///   `settings`).
/// - **Composite attributes** have no column: each leaf element has one, `Z` + the element's
///   own uppercased name, numbered after the entity's other properties (`Author { person,
///   place, year, id }` is `ZPERSON`, `ZPLACE`, `ZYEAR` and `ZID1` beside the entity's `ZID`, a
///   real SwiftData store quoted by issue 24; no corpus store has one). The layout's ``model``
///   names the leaf by its key path, `author.id` (`Attribute.flattenedElements`).
/// - **To-one**: an INTEGER foreign key plus `<TABLE>_<COLUMN>_INDEX`; a one-to-one has a
///   foreign key on both sides. When the destination has subentities, Core Data also
///   stores its Z_ENT in `Z<n>_<NAME>` (n = the destination's Z_ENT). That column is not in
///   the corpus; it is taken from public Core Data stores (`ZCONTACT, Z22_CONTACT`).
/// - **Ordered to-many with a to-one inverse**: the destination's table gets
///   `Z_FOK_<INVERSE>` INTEGER beside the inverse's foreign key, without an index.
/// - **To-many without inverse**, in every release: Core Data gives the destination a virtual
///   to-one (``HiddenForeignKey``), a hidden foreign key `Z<n><NAME>` (n = the Z_ENT of the
///   entity declaring `NAME`, no underscore) in the destination's table, INTEGER, after the
///   destination entity's to-one foreign keys, with `<TABLE>_Z<n><NAME>_INDEX`; then
///   `Z<n>_<n><NAME>`, the holder's Z_ENT, when the declaring entity has subentities, and
///   `Z_FOK_<n><NAME>`, the position, when the to-many is ordered. A destination belongs to one
///   source object at most. CartKit's `CDCartItem.modifiers` (Z_ENT 2) is
///   `ZCDCARTITEMMODIFIER (…, ZITEM INTEGER, Z2MODIFIERS INTEGER, …)` (1523, `ZITEM` a to-one
///   declared by the destination, `ZCDCARTITEMMODIFIER_Z2MODIFIERS_INDEX`); Photos' `Asset`
///   (3) `.libraryScopeAssetContributors` is `ZASSETCONTRIBUTOR (…, ZPARTICIPANT INTEGER,
///   Z3LIBRARYSCOPEASSETCONTRIBUTORS INTEGER)` (1241 and 1448); a Core Data 849 store quoted by an
///   issue has the ordered form, `ZACCELERATION.Z3ACCELERATIONS` and `Z_FOK_3ACCELERATIONS`. The
///   entity column is from the decompiled `NSSQLToOne` alone (no store has one). Laid out for an
///   existing store that keeps such a to-many in a join table `Z_<n><NAME>
///   (Z_<n><NAME>INVERSE, Z_<m><NAME>)` (the form of a public Telegram store of an unrecorded
///   release), the layout keeps that table.
/// - **Many-to-many**: a join table `Z_<n><NAME>` named after one side (see below), n the Z_ENT
///   of the entity declaring relationship `NAME`. Each side has a column `Z_<its entity's
///   n><THE OTHER SIDE'S NAME>` holding its objects' `Z_PK`s, and, when the other side is
///   ordered, a position column `Z_FOK_<its entity's n><THE OTHER SIDE'S NAME>`; the columns are
///   the naming side's, the other side's, then the naming side's position column and the other's,
///   with a composite primary key on the first two (`Z_6DISPLAYTYPES (Z_6MESSAGES,
///   Z_2DISPLAYTYPES)` in Apptentive v1). A relationship that is its own inverse has
///   `Z_<n><NAME>` and `REFLEXIVE` (and `Z_FOK_<n><NAME>`, `FOK_REFLEXIVE` when ordered; Photos'
///   `Z_54MERGECANDIDATES (Z_54MERGECANDIDATES, REFLEXIVE)`). A column name is unique among the
///   join-table columns of its entity's hierarchy: the second `Z_24USERS` becomes `Z_24USERS1`
///   (Wire's `Z_16USERS.Z_24USERS1` beside `Z_20USERS.Z_24USERS`, zmessaging 2.21 to 2.101), in
///   the order below.
/// - **Indexes**: `<TABLE>_Z_ENT_INDEX` on tables with more than one entity, one per
///   to-one foreign key, one per indexed attribute, one per compound index, fetch indexes
///   `Z_<Entity>_<index>` (unverified: no fetch index has a store in the corpus; R-Tree
///   elements are laid out as ordinary ascending columns), and, from Core Data 640, one per
///   join table. Their names and spelling depend on the release (``CoreDataRelease``).
/// - **Uniqueness constraints** become a table constraint `CONSTRAINT <C1>_<C2> UNIQUE (<C1>,
///   <C2>)` in the root's `CREATE TABLE` up to Core Data 1043, and a unique index
///   `Z_<Entity>_UNIQUE_<p1>_<p2>` from 1044 (``CoreDataRelease``). A subentity's constraint goes
///   to the root's table too (unverified) and then applies to the whole table.
/// - **Bookkeeping**: `Z_PRIMARYKEY` (a row per entity, abstract ones included) and
///   `Z_METADATA`. `Z_MODELCACHE` is not created: its content is an Apple-private archive
///   of the model that Stepwise can't produce honestly, and Core Data accepts stores
///   without it (Apptentive v1–v5 have none). Schema comparisons ignore it
///   (``optionalTableNames``).
///
/// ### Which side names a join table
///
/// Core Data's own rule, read in the decompiled Core Data of iOS 26.1 and replayed by
/// ``ManyToManyPairing``: `NSSQLEntity._generateInverseRelationshipsAndMore` runs on each entity
/// in ``CoreDataNameOrder`` and pairs every relationship it sees (its own and inherited ones) with
/// its inverse, visiting them in the order of the slots of two private hash tables
/// (``CoreDataPropertyOrder``). The side of a many-to-many visited first names the table
/// (`NSSQLManyToMany._setInverseManyToMany:`): the one whose entity comes first when only one side
/// is seen from it, or the one in the earlier slot when both are (a self-referential pair, or both
/// sides in one hierarchy). Its columns are named in the same order, the other side's first, so
/// of two equal names in one hierarchy the later one gets the number
/// (`NSSQLStoreMappingGenerator.uniqueNameWithBase:`; Wire pairs `Reaction.users` before
/// `SystemMessage.users`, so `Z_20USERS` has `Z_24USERS` and `Z_16USERS` `Z_24USERS1`).
///
/// This names every join table of every corpus store whose model Stepwise reads as Core Data
/// did (389 in 68 stores, `RealStoreLayoutTests`): DuckDuckGo's Bookmarks stores (1251, 1333) have `Z_1FAVORITES (Z_1FAVORITEFOLDERS,
/// Z_1FAVORITES, Z_FOK_1FAVORITES)` for `BookmarkEntity.favorites` ↔ `favoriteFolders`, although
/// `favoriteFolders` sorts first; Wire's `UserClient` names its self-referential pairs after
/// `ignoredByClients`/`trustedByClients` in 2.3, after `ignoredClients`/`trustedClients` from 2.4,
/// as its properties' slots move from version to version (`RealStoreLayoutTests`). The rule it
/// replaces, "the side whose entity's name sorts first, else whose name sorts first", got
/// DuckDuckGo's wrong and had no answer for Wire's.
///
/// A store Core Data migrated in place keeps the choices of the release that created it: Wire
/// 2.96 to 2.100 have `Z_25TRUSTEDBYCLIENTS (Z_25TRUSTEDBYCLIENTS, Z_25TRUSTEDCLIENTS)`, where a
/// new store has its two columns the other way round. Laid out for an existing store
/// (`matching:`), the layout takes the store's own choice of the side naming each table and the
/// order of its two columns. The columns are named after both relationships either way, so which
/// column holds which side never depends on the choice.
///
/// Unverifiable cases, documented choices:
/// - an ordered relationship that is its own inverse: its members' positions in `FOK_REFLEXIVE`
///   (Core Data's `inverseOrderColumnName`), `Z_FOK_<n><NAME>` left for Core Data's use;
/// - several hidden foreign keys in one entity: ordered by the declaring entity's Z_ENT, then
///   by relationship name (no store has two);
/// - composite attributes take part in the slot order by their leaves' names (no store with a
///   composite has a many-to-many).
package struct StoreLayout: Sendable, Hashable {
    /// The model version laid out, in its stored form: each composite attribute replaced by
    /// its leaves (`author.person`; `ObjectModel.flatteningComposites()`).
    package let model: ObjectModel
    /// The Core Data release whose forms the layout uses.
    package let release: CoreDataRelease
    /// Every entity, in `Z_ENT` order.
    package internal(set) var entities: [EntityLayout]
    /// Entity tables (roots by name), join tables, then `Z_PRIMARYKEY` and `Z_METADATA`.
    package internal(set) var tables: [TableLayout]
    /// Every index, table by table.
    package internal(set) var indexes: [IndexLayout]
    /// The derived attributes, each with the `Z_DA_…` triggers Core Data keeps it current with,
    /// in model order (entities, then attributes).
    package internal(set) var derivedAttributes: [DerivedAttributeLayout]
    /// Positions by entity name and by uppercased table name, for the frequent lookups.
    private let entityPositions: [String: Int]
    var tablePositions: [String: Int]

    /// Computes the layout of a model version.
    ///
    /// - parameters:
    ///   - model: The model version.
    ///   - release: The Core Data release whose forms to use (``CoreDataRelease``): the one that
    ///     wrote a store to compare with, or the newest, which Stepwise writes.
    ///   - existing: The schema of a store of this version, whose own choices are kept where a
    ///     store Core Data migrated in place differs from a new one: which side of a many-to-many
    ///     names its join table, the order of its two columns, and a join table for a to-many
    ///     without inverse (see "Which side names a join table"). Everything else comes from the
    ///     model and the release. Nil, the default, lays out a new store.
    /// - throws: `ModelError` when the model is invalid (checked first), and
    ///   ``StoreError`` with kind ``StoreError/Kind/unsupportedModel(_:)`` when it can't be
    ///   laid out (a to-many or transient property in an index or uniqueness constraint,
    ///   two tables, columns or indexes whose names collide). The layout's ``model`` is the
    ///   stored form, each composite replaced by its leaves (`ObjectModel.flatteningComposites()`).
    package init(model: ObjectModel, release: CoreDataRelease = .newest, matching existing: SQLiteSchema? = nil)
        throws
    {
        try self.init(model: model, release: release, choices: existing.map(LayoutChoices.init))
    }

    /// ``init(model:release:matching:)`` given only what the layout takes from the existing
    /// store, its ``LayoutChoices``: a layout worked out once serves every store with the same
    /// choices (the version registry keeps them so).
    package init(model: ObjectModel, release: CoreDataRelease, choices existing: LayoutChoices?) throws {
        try model.validate()
        let model = model.flatteningComposites()
        let plan = try LayoutPlanner(model: model, release: release, existing: existing).plan()
        self.model = model
        self.release = release
        self.entities = plan.entities
        self.tables = plan.tables
        self.indexes = plan.indexes
        self.derivedAttributes = try DerivedAttributePlanner(model: model, entities: plan.entities).plan()
        self.entityPositions = Dictionary(
            plan.entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.tablePositions = Dictionary(
            plan.tables.enumerated().map { ($1.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity with this name.
    package func entity(named name: String) -> EntityLayout? {
        entityPositions[name].map { entities[$0] }
    }

    /// The entity with this `Z_ENT`.
    /// The table of the hierarchy rooted at the entity `root`: `Z` + its uppercased name.
    package static func tableName(ofRoot root: String) -> String {
        "Z" + root.uppercased()
    }

    /// The entity that owns every row of `table`, whatever their `Z_ENT`
    /// (``EntityLayout/ownsEveryRowOfItsTable``), or nil when the table holds a hierarchy.
    package func loneEntity(ofTable table: String) -> EntityLayout? {
        entities.first { $0.tableName == table && $0.ownsEveryRowOfItsTable }
    }

    package func entity(number: Int) -> EntityLayout? {
        guard number >= 1, number <= entities.count else { return nil }
        return entities[number - 1]
    }

    /// The table with this name (case-insensitive, as in SQLite).
    package func table(named name: String) -> TableLayout? {
        tablePositions[name.uppercased()].map { tables[$0] }
    }

    /// The indexes on one table.
    package func indexes(on table: String) -> [IndexLayout] {
        let key = table.uppercased()
        return indexes.filter { $0.table.uppercased() == key }
    }

    /// What a column stores, to name the entity and property behind a schema difference.
    package func role(ofColumn column: String, inTable table: String) -> ColumnRole? {
        self.table(named: table)?.column(named: column)?.role
    }

    /// The rows `Z_PRIMARYKEY` starts with: one per entity, `Z_MAX` 0.
    package var primaryKeyRows: [PrimaryKeyRow] {
        entities.map { PrimaryKeyRow(entityNumber: $0.number, name: $0.name, superNumber: $0.superNumber) }
    }

    /// Every `CREATE TABLE`, `CREATE INDEX` and `CREATE TRIGGER` statement, tables first, so
    /// they can run in this order in one transaction. Identifiers of tables and indexes are
    /// always quoted; triggers are Core Data's texts (``DerivedAttributeLayout/triggerStatements``).
    package var createStatements: [String] {
        tables.map(\.createStatement) + indexes.map(\.createStatement)
            + derivedAttributes.flatMap(\.triggerStatements)
    }

    /// Tables Core Data may or may not have written; schema comparisons ignore them.
    package static let optionalTableNames: Set<String> = [modelCacheTableName]

    /// `Z_MODELCACHE`, Core Data's compressed copy of the model (never created by Stepwise).
    package static let modelCacheTableName = "Z_MODELCACHE"

    /// `Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)`.
    package static let primaryKeyTable = TableLayout(
        name: "Z_PRIMARYKEY", kind: .bookkeeping,
        columns: [
            ColumnLayout(name: "Z_ENT", type: "INTEGER", role: .bookkeeping),
            ColumnLayout(name: "Z_NAME", type: "VARCHAR", role: .bookkeeping),
            ColumnLayout(name: "Z_SUPER", type: "INTEGER", role: .bookkeeping),
            ColumnLayout(name: "Z_MAX", type: "INTEGER", role: .bookkeeping),
        ],
        primaryKey: ["Z_ENT"], uniqueConstraints: [], entityNumbers: [])

    /// `Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)`.
    package static let metadataTable = TableLayout(
        name: "Z_METADATA", kind: .bookkeeping,
        columns: [
            ColumnLayout(name: "Z_VERSION", type: "INTEGER", role: .bookkeeping),
            ColumnLayout(name: "Z_UUID", type: "VARCHAR(255)", role: .bookkeeping),
            ColumnLayout(name: "Z_PLIST", type: "BLOB", role: .bookkeeping),
        ],
        primaryKey: ["Z_VERSION"], uniqueConstraints: [], entityNumbers: [])
}

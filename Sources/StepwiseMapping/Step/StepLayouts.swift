import StepwiseModel
import StepwiseStore

/// The layouts one step works with, computed from the source store's own schema and release.
///
/// - The **source** layout is the one the source store really has: the forms of the Core Data
///   release that wrote it (its `NSPersistenceFrameworkVersion`), and the join-table choices a
///   store Core Data migrated in place may have made otherwise than a new store (which side of a
///   many-to-many names its join table, the order of its columns) as the store made them
///   (``StoreLayout/init(model:release:matching:)``).
/// - Both destination layouts name each join table as Core Data names it for the destination
///   version, and keep the order of its columns from the source's table, whichever name that
///   had: Core Data's in-place migration renames a join table so and keeps its columns (Wire
///   2.94's `Z_25TRUSTEDCLIENTS` is 2.96's `Z_25TRUSTEDBYCLIENTS`, columns in 2.94's order;
///   ``LayoutChoices/renamingJoinTablesAsCoreDataDoes()``). The app's Core Data derives every
///   name from the model, so a kept older name would be a table it never finds.
/// - The **altered** destination is for the in-place path, which alters the source's own file:
///   it keeps the source's release forms. The **rebuilt** destination is a new file, written in
///   the newest forms (``CoreDataRelease/newest``) and, for a to-many without inverse the source
///   keeps in a join table, in Core Data's form, a hidden foreign key: a new file has no reason
///   to keep a form no Core Data release is known to write.
struct StepLayouts {
    var source: StoreLayout
    var alteredDestination: StoreLayout
    var rebuiltDestination: StoreLayout
    /// Whether the source has the newest forms, so both destinations are the same layout. Only
    /// then may an in-place step renumber entities (``InPlaceRenumbering``): an older release's
    /// forms are moved to the newest ones by a rebuild.
    var sourceHasNewestForms: Bool

    init(source: ObjectModel, destination: ObjectModel, schema: SQLiteSchema, release: CoreDataRelease) throws {
        sourceHasNewestForms = release == .newest
        let source = try StoreLayout(model: source, release: release, matching: schema)
        self.source = source
        // Join tables renamed as Core Data's in-place migration renames them (``LayoutChoices``).
        self.alteredDestination = try StoreLayout(
            model: destination, release: release, choices: LayoutChoices(schema).renamingJoinTablesAsCoreDataDoes())
        let inverselessJoinTables = Set(
            source.entities.flatMap(\.relationships).filter { $0.isToMany && $0.inverse == nil }
                .compactMap { $0.joinTableName?.uppercased() })
        self.rebuiltDestination =
            release == .newest && inverselessJoinTables.isEmpty
            ? alteredDestination
            : try StoreLayout(
                model: destination, release: .newest,
                choices: LayoutChoices(schema.removingTables(inverselessJoinTables)).renamingJoinTablesAsCoreDataDoes())
    }
}

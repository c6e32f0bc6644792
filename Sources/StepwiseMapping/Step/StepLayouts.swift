import StepwiseModel
import StepwiseStore

/// The layouts one step works with, computed from the source store's own schema and release.
///
/// - The **source** layout is the one the source store really has: the forms of the Core Data
///   release that wrote it (its `NSPersistenceFrameworkVersion`), and Core Data's unpredictable
///   choices (which side of a self-referential many-to-many names its join table) as the store
///   made them (``StoreLayout/init(model:release:matching:)``).
/// - Both destination layouts keep those choices wherever the destination has the same join
///   table, so a step never renames a join table only because a rule would pick the other side;
///   a store keeps Core Data's names through every upgrade.
/// - The **altered** destination is for the in-place path, which alters the source's own file:
///   it keeps the source's release forms. The **rebuilt** destination is a new file, written in
///   the newest forms (``CoreDataRelease/newest``).
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
        self.source = try StoreLayout(model: source, release: release, matching: schema)
        self.alteredDestination = try StoreLayout(model: destination, release: release, matching: schema)
        self.rebuiltDestination =
            release == .newest
            ? alteredDestination : try StoreLayout(model: destination, release: .newest, matching: schema)
    }
}

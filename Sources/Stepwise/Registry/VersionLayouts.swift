import Foundation
import StepwiseModel
import StepwiseStore

/// The schema each version's store layout expects, worked out once per version and kept: an
/// identification compares a store's tables with those of the versions whose hashes match, or of
/// every version when none does, and laying a version out (its validation, its layout and the
/// `CREATE` statements run in an in-memory database to read the schema back) is most of that
/// work. Kept by ``ModelHistory``, so every upgrade, plan and inspection an upgrader makes
/// shares it.
///
/// A layout depends on the model, the release that wrote the store and the store's own join
/// tables (``/StepwiseStore/LayoutChoices``), so each version keeps one schema per release and
/// choices: stores of one app share both, and a version is laid out once for all of them. The
/// part that depends on the model alone, which join tables its layouts look up
/// (``/StepwiseStore/LayoutChoices/Scope``), is worked out once per version.
///
/// Kept by the version's name, and used only for the very model it was laid out from, as
/// ``InferredMappings`` are. A layout that fails fails the same way every time: its error is kept
/// and thrown again.
///
/// `@unchecked Sendable`: `versions` and `layoutCounts` are only read and written with `lock`
/// held. `NSLock` rather than `Mutex` (macOS 15) because the package supports macOS 13.
final class VersionLayouts: @unchecked Sendable {
    private let lock = NSLock()
    private var versions: [String: Version] = [:]
    private var layoutCounts: [String: Int] = [:]

    /// One version's kept schemas.
    private struct Version {
        var model: ObjectModel
        var scope: LayoutChoices.Scope
        var schemas: [Key: Result<LaidOut, any Error>] = [:]
        /// The layout of a new store of this version (``checkLayout(of:)``).
        var newStore: Result<StoreLayout, any Error>?
    }

    /// A version laid out for one release and choices, and the schema that layout expects.
    struct LaidOut {
        var layout: StoreLayout
        var schema: SQLiteSchema
    }

    /// What a layout depends on besides the model.
    private struct Key: Hashable {
        var release: CoreDataRelease
        var choices: LayoutChoices
    }

    /// How the store's tables and columns differ from those `version` lays out for it:
    /// ``/StepwiseStore/SQLiteSchema/tableDifferences(from:release:)``, with the version's layout
    /// worked out once for each release and choices.
    func tableDifferences(of actual: SQLiteSchema, from version: ObjectModel, release: CoreDataRelease) throws
        -> [SchemaDifference]
    {
        try actual.tableDifferences(fromExpected: laidOut(version, release: release, matching: actual).schema)
    }

    /// `version` laid out for a store of `release` like `actual`, and the schema it expects:
    /// what ``/StepwiseStore/StoreLayout/init(model:release:matching:)`` and
    /// ``/StepwiseStore/SQLiteSchema/init(expectedFor:)`` give, worked out once.
    func laidOut(_ version: ObjectModel, release: CoreDataRelease, matching actual: SQLiteSchema) throws -> LaidOut {
        // Copies of one model share their storage, so this comparison is quick when it holds.
        let known = lock.withLock { versions[version.name] }.flatMap { $0.model == version ? $0 : nil }
        let scope = known?.scope ?? LayoutChoices.Scope(model: version)
        let key = Key(release: release, choices: LayoutChoices(actual).restricted(to: scope))
        if let result = known?.schemas[key] {
            return try result.get()
        }
        // Laid out outside the lock: two threads may both lay out a version, and get the same schema.
        let result = Result { () throws -> LaidOut in
            let layout = try StoreLayout(model: version, release: release, choices: key.choices)
            return LaidOut(layout: layout, schema: try SQLiteSchema(expectedFor: layout))
        }
        lock.withLock {
            if versions[version.name]?.model != version {
                versions[version.name] = Version(model: version, scope: scope)
            }
            versions[version.name]?.schemas[key] = result
            layoutCounts[version.name, default: 0] += 1
        }
        return try result.get()
    }

    /// Throws what laying `version` out throws (an entity named like one of Core Data's tables,
    /// two names differing only by case): what a plan checks of each of its versions. Whether a
    /// model can be laid out doesn't depend on the release or the store's join tables, so any
    /// layout already worked out answers; else a new store's layout is, once.
    func checkLayout(of version: ObjectModel) throws {
        let known = lock.withLock { versions[version.name] }.flatMap { $0.model == version ? $0 : nil }
        if let result = known?.newStore ?? known?.schemas.values.first?.map(\.layout) {
            _ = try result.get()
            return
        }
        let result = Result { () throws -> StoreLayout in try StoreLayout(model: version) }
        lock.withLock {
            if versions[version.name]?.model != version {
                versions[version.name] = Version(model: version, scope: LayoutChoices.Scope(model: version))
            }
            versions[version.name]?.newStore = result
            layoutCounts[version.name, default: 0] += 1
        }
        _ = try result.get()
    }

    /// How many layouts have been worked out for each version, by name: for tests.
    var layoutCountsByVersion: [String: Int] { lock.withLock { layoutCounts } }
}

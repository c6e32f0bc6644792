/// The Core Data release that wrote a store, as its metadata's `NSPersistenceFrameworkVersion`
/// names it, and the layout forms that release writes.
///
/// Core Data's SQLite layout changed over its releases in a few details, all read off real
/// stores (corpus README §7). A ``StoreLayout`` computed for a release uses its forms, so that a
/// store written by that release compares equal to it; a store Stepwise creates or rebuilds uses
/// the ``newest`` forms.
///
/// | form | releases | seen in |
/// |---|---|---|
/// | no index on a join table | up to 639 | Apptentive v1–v4 (419, 479) |
/// | `<TABLE>_<C2>_INDEX ON <TABLE> (<C2>, <C1>)` on a join table, `C2` the column named after the relationship that names the table | 640 and later | every Wire store (640 to 1145) |
/// | an indexed attribute as `<TABLE>_<COLUMN>_INDEX`, a compound index as `<TABLE>_<C1>_<C2>` | up to 846 | Moody (637), Wire 1.24 to 2.30 (640 to 754) |
/// | both as `Z_<Entity>_<p1>_<p2> ON … (<C1> COLLATE BINARY ASC, …)`, named after the declaring entity and its property names | 847 and later | Wire 2.39 to 2.100 (847 to 1145) |
/// | a uniqueness constraint as a table constraint, `CONSTRAINT <C1>_<C2> UNIQUE (…)` | up to 1043 | Moody (637) |
/// | a uniqueness constraint as `CREATE UNIQUE INDEX Z_<Entity>_UNIQUE_<p1>_<p2> ON … (<C1> COLLATE BINARY ASC, …)` | 1044 and later | Screen Time's `RMAdminStore-Local` (1044) |
/// | an unordered to-many without inverse as a join table `Z_<n><NAME> (Z_<n><NAME>INVERSE, Z_<m><NAME>)` | up to 1240 | a public Telegram store (release unrecorded) |
/// | the same as a hidden foreign key `Z<n><NAME>` in the destination's table, with `<TABLE>_Z<n><NAME>_INDEX` | 1241 and later | Photos on macOS 13 (1241) and 15 (1448), CartKit's Core Data and SwiftData stores (1523) |
///
/// Each boundary is the lowest release seen with the newer form; the releases between it and the
/// highest seen with the older form (480–639, 755–846, 638–1043) are laid out with the older
/// form, unverified. No store in the corpus below 1241 has a to-many without inverse whose
/// release is recorded, so the join table is kept for every release up to 1240 as Stepwise laid
/// it out before: there is no evidence either way. Identification doesn't depend on any of these forms: it compares tables and
/// columns only. A store Core Data migrated in place keeps the indexes of its earlier releases and
/// numberings too (Wire 2.39 has both `ZUSER_ZNORMALIZEDNAME_INDEX` and `Z_User_normalizedName`;
/// Wire 2.82 has `Z_14ADDEDUSERS_Z_22ADDEDUSERS_INDEX` on `Z_15ADDEDUSERS`): such an index
/// duplicates one of the layout's (``SQLiteSchema/redundantIndexes(comparedWith:)``).
package struct CoreDataRelease: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `NSPersistenceFrameworkVersion`: 637 for iOS 9's Core Data, 1145 for the newest Wire stores.
    package var frameworkVersion: Int

    /// A release by its framework version.
    package init(frameworkVersion: Int) {
        self.frameworkVersion = frameworkVersion
    }

    /// The forms Stepwise writes: those of the newest release seen in real stores, SwiftData's
    /// 1523 (CartKit), whose forms are also those of every release from 1241 (Photos 1241 and
    /// 1448). Stores of releases 1044 to 1240 (Screen Time 1044, Wire 1044 to 1145, Notes 1145)
    /// differ from it only in how they store a to-many without inverse.
    package static let newest = CoreDataRelease(frameworkVersion: 1523)

    /// The first release that writes uniqueness constraints as unique indexes.
    static let firstWithUniqueIndexes = 1044
    /// The first release that indexes a join table.
    static let firstWithJoinTableIndexes = 640
    /// The first release that names attribute and compound indexes `Z_<Entity>_…`.
    static let firstWithEntityNamedIndexes = 847
    /// The first release that stores a to-many without inverse as a hidden foreign key in its
    /// destination's table rather than in a join table.
    static let firstWithHiddenInverseForeignKeys = 1241

    /// Whether a join table gets `<TABLE>_<C2>_INDEX` on its two columns.
    package var indexesJoinTables: Bool {
        frameworkVersion >= Self.firstWithJoinTableIndexes
    }

    /// Whether indexed attributes and compound indexes are `Z_<Entity>_<properties>` indexes
    /// (`COLLATE BINARY ASC`) rather than `<TABLE>_<COLUMN>_INDEX` and `<TABLE>_<C1>_<C2>`.
    package var namesIndexesAfterEntities: Bool {
        frameworkVersion >= Self.firstWithEntityNamedIndexes
    }

    /// Whether uniqueness constraints are `CREATE UNIQUE INDEX` statements rather than table
    /// constraints.
    package var writesUniquenessConstraintsAsIndexes: Bool {
        frameworkVersion >= Self.firstWithUniqueIndexes
    }

    /// Whether an unordered to-many without inverse is stored as a hidden foreign key
    /// `Z<n><NAME>` in its destination's table (an implicit to-one inverse: a destination
    /// belongs to one source object at most) rather than in a join table.
    package var storesInverselessToManyAsForeignKeys: Bool {
        frameworkVersion >= Self.firstWithHiddenInverseForeignKeys
    }

    /// The release named by a metadata's `NSPersistenceFrameworkVersion`, or ``newest`` when it has
    /// none (a store Stepwise wrote).
    package static func named(by frameworkVersion: Int?) -> CoreDataRelease {
        frameworkVersion.map(CoreDataRelease.init(frameworkVersion:)) ?? .newest
    }

    package static func < (lhs: CoreDataRelease, rhs: CoreDataRelease) -> Bool {
        lhs.frameworkVersion < rhs.frameworkVersion
    }

    package var description: String {
        "Core Data \(frameworkVersion)"
    }
}

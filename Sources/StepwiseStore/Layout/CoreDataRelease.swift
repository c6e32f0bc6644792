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
///
/// Each boundary is the lowest release seen with the newer form; the releases between it and the
/// highest seen with the older form (480–639, 755–846, 638–1043) are laid out with the older
/// form, unverified. Identification doesn't depend on any of these forms: it compares tables and
/// columns only.
///
/// Not a form of a release: the storage of a to-many without inverse. Core Data gives its
/// destination a virtual to-one, a hidden foreign key `Z<n><NAME>` with
/// `<TABLE>_Z<n><NAME>_INDEX`, `Z<n>_<n><NAME>` when the source has subentities and
/// `Z_FOK_<n><NAME>` when ordered (``HiddenForeignKey``), in every release seen: Photos on
/// macOS 13 (1241) and 15 (1448), CartKit's Core Data and SwiftData stores (1523), and the ordered
/// form in a Core Data 849 store quoted by an issue (`ZACCELERATION.Z3ACCELERATIONS`,
/// `Z_FOK_3ACCELERATIONS`, `ZACCELERATION_Z3ACCELERATIONS_INDEX`). No store in the corpus has one
/// in any other form. A join table `Z_<n><NAME> (Z_<n><NAME>INVERSE, Z_<m><NAME>)`, the form of a
/// public Telegram store of an unrecorded release that Stepwise used to lay out up to 1240, is
/// read where an existing store has it (``StoreLayout/init(model:release:matching:)``) and never
/// written to a new one. A store Core Data migrated in place keeps the indexes of its earlier releases and
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
    /// 1523 (CartKit), which are also those of every release from 1044 (Screen Time 1044, Wire
    /// 1044 to 1145, Notes 1145, Photos 1241 and 1448).
    package static let newest = CoreDataRelease(frameworkVersion: 1523)

    /// The first release that writes uniqueness constraints as unique indexes.
    static let firstWithUniqueIndexes = 1044
    /// The first release that indexes a join table.
    static let firstWithJoinTableIndexes = 640
    /// The first release that names attribute and compound indexes `Z_<Entity>_…`.
    static let firstWithEntityNamedIndexes = 847

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

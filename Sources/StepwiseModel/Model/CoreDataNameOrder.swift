/// The order in which Core Data walks a model's entities: by name, ignoring case.
///
/// Core Data numbers entities (`Z_ENT`) and generates their tables and join tables in this
/// order. In the decompiled Core Data (iOS 26.1, `NSManagedObjectModel._sortedEntitiesForConfiguration:`
/// and `NSEntityDescription._sortedSubentities`), both the roots and each entity's subentities
/// are sorted with an `NSSortDescriptor` on `name` whose selector is `caseInsensitiveCompare:`;
/// `NSSQLModel._generateModelWithError:` then numbers each root, depth-first through its sorted
/// subentities (`NSSQLEntity._generateIDWithSuperEntity:nextID:`).
///
/// It differs from a plain byte-order sort where a lowercase letter meets an uppercase one:
/// DuckDuckGo's SyncMetadata store (Core Data 1338) numbers `SyncableSettingsMetadata` 1 and
/// `SyncFeatureEntity` 2, though `SyncF` sorts before `Synca` byte by byte.
///
/// Case-insensitive comparison folds case to lowercase, as Unicode case folding does, so `_`
/// sorts before letters. Names that differ only in case compare equal in Core Data, whose
/// order between them then depends on its hash tables; they are ordered byte by byte here so
/// the order is at least stable.
public enum CoreDataNameOrder {
    /// Whether `lhs` comes before `rhs` in Core Data's entity order.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.lowercased()
        let right = rhs.lowercased()
        if left != right { return left.utf8.lexicographicallyPrecedes(right.utf8) }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

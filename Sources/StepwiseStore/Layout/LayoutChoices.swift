import StepwiseModel

/// What a ``StoreLayout`` laid out for an existing store takes from that store: the join tables
/// it has, each with the order of its columns. Everything else in a layout comes from the model
/// and the release.
///
/// They keep the choices a store Core Data migrated in place may have made otherwise than a new
/// store (``StoreLayout``, "Which side names a join table"): which relationship of a many-to-many
/// names its join table, the order of a join table's two columns, and whether a to-many without
/// inverse keeps a join table. So two stores with equal choices get
/// equal layouts of one model and release, and a layout worked out for one serves the other: the
/// version registry keeps each version's layouts by their choices, and lays a version out once
/// for every store it identifies, instead of once per identification.
///
/// The layout looks up join tables only by the names `Z_<n><NAME>` of the model's to-many
/// relationships: ``restricted(to:)`` keeps those, so that a store's other tables (those of
/// another version's relationships) don't set two stores' choices apart.
package struct LayoutChoices: Sendable, Hashable {
    /// The tables named like join tables (`Z_` then digits then a name), by uppercased name: their
    /// uppercased column names in the store's order.
    private var joinTables: [String: [String]]

    /// Whether a join table keeps the name the store gave it (true), or takes the name Core
    /// Data's rule gives the version laid out, keeping only its columns' order (false).
    ///
    /// A store is read as it is: its join tables have the names they have. A step's destination
    /// renames them as Core Data's in-place migration does: the table takes the new version's
    /// name and keeps its columns in their order (`NSSQLiteStoreMigrator`'s rename of a join
    /// table; Wire 2.94's `Z_25TRUSTEDCLIENTS (Z_25TRUSTEDBYCLIENTS, Z_25TRUSTEDCLIENTS)` is 2.96's
    /// `Z_25TRUSTEDBYCLIENTS (Z_25TRUSTEDBYCLIENTS, Z_25TRUSTEDCLIENTS)`, where a new 2.96 store
    /// has `Z_25TRUSTEDCLIENTS` first). So the app's Core Data, which derives every name from the
    /// model, finds each table where it looks.
    package private(set) var keepsJoinTableNames = true

    /// These choices for a step's destination: join tables named by Core Data's rule for the
    /// destination version, each keeping its columns' order (``keepsJoinTableNames``).
    package func renamingJoinTablesAsCoreDataDoes() -> LayoutChoices {
        var choices = self
        choices.keepsJoinTableNames = false
        return choices
    }

    /// The join tables of `schema`, each with its columns' order.
    package init(_ schema: SQLiteSchema) {
        var joinTables: [String: [String]] = [:]
        for table in schema.tables {
            let name = table.name.uppercased()
            guard !Self.relationshipNames(inJoinTableName: name).isEmpty else { continue }
            joinTables[name] = table.columns.map { $0.name.uppercased() }
        }
        self.joinTables = joinTables
    }

    /// The uppercased column names of the join table `name` (any case), in the store's order; nil
    /// when the store has no such table.
    func columns(ofTable name: String) -> [String]? {
        joinTables[name.uppercased()]
    }

    /// Only the join tables a layout of the model `scope` was made from may look up.
    package func restricted(to scope: Scope) -> LayoutChoices {
        var restricted = self
        restricted.joinTables = joinTables.filter { name, _ in
            Self.relationshipNames(inJoinTableName: name).contains(where: scope.relationshipNames.contains)
        }
        return restricted
    }

    /// The relationship names a join table's name `Z_<n><NAME>` (uppercased) may end with: the
    /// text after `Z_` and one or more of its digits, for each count of digits taken (a name
    /// could start with a digit); empty for a name of another form.
    private static func relationshipNames(inJoinTableName name: String) -> [Substring] {
        guard name.hasPrefix("Z_") else { return [] }
        var rest = name.dropFirst(2)
        var names: [Substring] = []
        while let first = rest.first, first.isASCII, first.isNumber {
            rest = rest.dropFirst()
            if !rest.isEmpty { names.append(rest) }
        }
        return names
    }

    /// The join tables a layout of one model may look up: those named after one of its to-many
    /// relationships. Depends on the model alone, so it is worked out once per version.
    package struct Scope: Sendable, Hashable {
        /// The uppercased names of the model's to-many relationships (transient ones too).
        fileprivate var relationshipNames: Set<Substring>

        /// The scope of layouts of `model`.
        package init(model: ObjectModel) {
            relationshipNames = Set(
                model.entities.flatMap(\.relationships).filter(\.isToMany).map { Substring($0.name.uppercased()) })
        }
    }
}

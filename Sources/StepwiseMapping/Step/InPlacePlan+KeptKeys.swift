import StepwiseStore

extension InPlacePlan {
    /// The destination relationships (`"Entity.relationship"`, by declaring entity) whose keys
    /// the plan keeps as the source held them, naming the same rows, which are all still of the
    /// relationship's destination entity: such a key is valid after the step exactly when it
    /// was before, so the step's validation pass doesn't read it again.
    ///
    /// Conservative, like the plan itself; a relationship is left out, and validated, when:
    /// - the step removes rows (a removed entity's, or a dropped entity table's): a key to one
    ///   of them would be left dangling;
    /// - the step renumbers entities (its rows are checked by ``InPlaceRenumbering``);
    /// - the key's column or join table is new rather than kept;
    /// - the holder's or the destination's table is new, or continues another source table;
    /// - an entity that was "kind of" the holder or the destination in the source (itself or a
    ///   subentity, by number) isn't any more (the hierarchy changed).
    ///
    /// A key that already dangled in the source still dangles: as Core Data's own lightweight
    /// migration, an in-place step answers for what it changes. ``UpgradeOptions/Verification/full``
    /// reads every key of the result whatever the steps were.
    func relationshipsWithKeptKeys(source: StoreLayout, destination: StoreLayout) -> Set<String> {
        guard renumbering.isEmpty, tables.allSatisfy({ $0.removedEntityNumbers.isEmpty }) else { return [] }
        let sourceEntityTables = Set(
            source.tables.compactMap { table -> String? in
                guard case .entity = table.kind else { return nil }
                return table.name.uppercased()
            })
        guard !droppedTables.contains(where: { sourceEntityTables.contains($0.uppercased()) }) else { return [] }
        let tablePlans = Dictionary(
            tables.map { ($0.destination.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        // Whether every row a source key to `entity` could name is still in its place and still
        // "kind of" the destination's `entity`.
        func rowsStay(_ entity: EntityLayout) -> Bool {
            guard let sourceEntity = source.entity(number: entity.number),
                let continued = tablePlans[entity.tableName.uppercased()]?.source,
                continued.uppercased() == sourceEntity.tableName.uppercased()
            else { return false }
            return Set(sourceEntity.subentityNumbers).isSubset(of: entity.subentityNumbers)
        }
        func isKept(_ column: String, in table: String) -> Bool {
            tablePlans[table.uppercased()]?.keptColumns[column] != nil
        }
        var kept: Set<String> = []
        for entity in destination.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard let target = destination.entity(named: relationship.destination), rowsStay(entity),
                    rowsStay(target)
                else { continue }
                switch relationship.storage {
                case .foreignKey(let column, let entityColumn, _):
                    guard isKept(column, in: entity.tableName),
                        entityColumn.map({ isKept($0, in: entity.tableName) }) ?? true
                    else { continue }
                case .inverseForeignKey(let table, let column, _) where relationship.hasHiddenForeignKey:
                    guard isKept(column, in: table) else { continue }
                case .joinTable(let table, let sourceColumn, let destinationColumn, _):
                    guard
                        let join = joinTables.first(where: { $0.destination.name.uppercased() == table.uppercased() }),
                        join.columns[sourceColumn] != nil, join.columns[destinationColumn] != nil
                    else { continue }
                case .inverseForeignKey:
                    continue
                }
                kept.insert("\(entity.name).\(relationship.name)")
            }
        }
        return kept
    }
}

import StepwiseModel
import StepwiseStore

extension InPlacePlan {
    /// The destination's required attributes (`"Entity.attribute"`) that the plan can't leave
    /// without a value, so the step's validation pass doesn't scan the table for their NULLs.
    /// An in-place step answers for what it changes, as ``relationshipsWithKeptKeys(source:destination:)``
    /// does for keys and Core Data's own lightweight migration does for both; a required
    /// attribute is known to hold a value in every row of its entity when it is:
    /// - added with a value that isn't NULL for every row of the entity
    ///   (``TablePlan/addedColumns``: `ADD COLUMN … DEFAULT`, or an `UPDATE` of the entity's rows);
    /// - given a value wherever it was NULL (``TablePlan/defaultsForNull``);
    /// - kept as the source held it (``TablePlan/keptColumns``: renamed at most, no value
    ///   written) from a source attribute that was already required in the one source entity
    ///   whose rows become the entity's. A NULL there was in the source, against its own model;
    ///   the step didn't put it there.
    ///
    /// Everything else is scanned: an attribute that turns required, an added one without a
    /// value, an entity that more than one entity mapping fills, and a derived attribute (the
    /// step computes it again, `DerivedValues`, and a key path through a nil to-one gives NULL). ``UpgradeOptions``' full
    /// verification doesn't change this pass; it reads every key of the result.
    func requiredAttributesKnownFilled(
        mapping: MappingModel, sourceModel: ObjectModel, destinationModel: ObjectModel, source: StoreLayout,
        destination: StoreLayout
    ) -> Set<String> {
        let tablePlans = Dictionary(
            tables.map { ($0.destination.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var sourceEntities: [String: [String]] = [:]
        for entityMapping in mapping.entityMappings
        where entityMapping.kind == .copy || entityMapping.kind == .transform {
            guard let from = entityMapping.sourceEntity, let to = entityMapping.destinationEntity else { continue }
            sourceEntities[to, default: []].append(from)
        }
        var filled: Set<String> = []
        for entity in destination.entities {
            guard let modelEntity = destinationModel[entity: entity.name],
                let table = tablePlans[entity.tableName.uppercased()]
            else { continue }
            for attribute in destinationModel.allAttributes(of: modelEntity)
            where !attribute.isOptional && !attribute.isTransient && attribute.derivation == nil
                && attribute.unsupportedDerivationExpression == nil
            {
                guard let column = entity.attribute(named: attribute.name)?.column else { continue }
                let isFilled: Bool
                if let added = table.addedColumns.first(where: { $0.column.name == column }) {
                    isFilled = !added.value.isNull && added.entityNumbers.contains(entity.number)
                } else if let keptFrom = table.keptColumns[column] {
                    let wasFilledForNull = table.defaultsForNull.contains {
                        $0.column == column && !$0.value.isNull && $0.entityNumbers.contains(entity.number)
                    }
                    isFilled =
                        wasFilledForNull
                        || wasRequired(
                            column: keptFrom, of: sourceEntities[entity.name] ?? [], sourceModel: sourceModel,
                            source: source)
                } else {
                    isFilled = false
                }
                if isFilled { filled.insert("\(entity.name).\(attribute.name)") }
            }
        }
        return filled
    }

    /// Whether the one source entity in `sourceNames` held `column` as a required attribute.
    private func wasRequired(column: String, of sourceNames: [String], sourceModel: ObjectModel, source: StoreLayout)
        -> Bool
    {
        guard sourceNames.count == 1, let layout = source.entity(named: sourceNames[0]),
            let modelEntity = sourceModel[entity: sourceNames[0]]
        else { return false }
        return sourceModel.allAttributes(of: modelEntity).contains { attribute in
            !attribute.isOptional && !attribute.isTransient
                && layout.attribute(named: attribute.name)?.column.uppercased() == column.uppercased()
        }
    }
}

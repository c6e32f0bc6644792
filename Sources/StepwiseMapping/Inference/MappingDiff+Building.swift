import StepwiseModel

extension MappingDiff {
    /// Summarizes `mapping`, a mapping from `source` to `destination` (usually inferred by
    /// ``MappingInference/inferMapping(from:to:)``).
    package init(_ mapping: MappingModel, from source: ObjectModel, to destination: ObjectModel) {
        let builder = DiffBuilder(mapping: mapping, source: source, destination: destination)
        self.init(
            from: mapping.sourceVersion, to: mapping.destinationVersion,
            entities: mapping.entityMappings.map(builder.entityDiff))
        markDrops(DroppedData.planned(by: [mapping], from: source, to: destination), source: source)
    }

    /// Marks each entry whose data is dropped, and adds an entry for each source entity the
    /// mapping has no entity mapping for.
    private mutating func markDrops(_ drops: [DroppedData], source: ObjectModel) {
        for drop in drops {
            guard let property = drop.property else {
                if let index = entities.firstIndex(where: { $0.change == .removed && $0.name == drop.entity }) {
                    entities[index].dropped = drop.reason
                } else {
                    entities.append(
                        EntityDiff(
                            name: drop.entity, change: drop.reason == .leftOutOfMapping ? .leftOut : .removed,
                            mapping: "", mappingKind: .remove,
                            isAbstract: source[entity: drop.entity]?.isAbstract ?? false,
                            dropped: drop.reason))
                }
                continue
            }
            // A relationship whose destination changed is carried: its entry is the kept (or
            // renamed) one, and it names the objects whose links are left out.
            let carried = drop.reason == .destinationChanged
            guard
                let entityIndex = entities.firstIndex(where: {
                    ($0.change == .kept || $0.change == .renamed) && ($0.oldName ?? $0.name) == drop.entity
                }),
                let propertyIndex = entities[entityIndex].properties.firstIndex(where: {
                    carried
                        ? $0.change != .added && $0.change != .removed && ($0.oldName ?? $0.name) == property
                        : $0.change == .removed && $0.name == property
                })
            else { continue }
            entities[entityIndex].properties[propertyIndex].dropped = drop.reason
            if carried, let linksTo = drop.linksTo {
                entities[entityIndex].properties[propertyIndex].notes.append(
                    "links to \(linksTo.joined(separator: ", ")) dropped (they don't become the new destination)")
            }
        }
    }
}

/// Builds the entries of a ``MappingDiff``.
private struct DiffBuilder {
    let mapping: MappingModel
    let source: ObjectModel
    let destination: ObjectModel

    /// The destination entity a source entity becomes, by the mapping. An entity the mapping
    /// doesn't name (an explicit mapping often leaves out abstract parents) continues as the
    /// destination entity of the same name.
    func continuation(ofSource name: String?) -> String? {
        guard let name else { return nil }
        if let mapped = mapping.entityMappings.first(where: { $0.sourceEntity == name && $0.destinationEntity != nil })
        {
            return mapped.destinationEntity
        }
        return mapping.entityMappings.contains { $0.sourceEntity == name } ? nil : destination[entity: name]?.name
    }

    func entityDiff(_ entityMapping: EntityMapping) -> EntityDiff {
        let sourceEntity = entityMapping.sourceEntity.flatMap { source[entity: $0] }
        let destinationEntity = entityMapping.destinationEntity.flatMap { destination[entity: $0] }
        guard let sourceEntity, let destinationEntity else {
            let entity = destinationEntity ?? sourceEntity
            return EntityDiff(
                name: entity?.name ?? entityMapping.name, change: destinationEntity == nil ? .removed : .added,
                mapping: entityMapping.name, mappingKind: entityMapping.kind, isAbstract: entity?.isAbstract ?? false)
        }
        let renamed = sourceEntity.name != destinationEntity.name
        var parent: EntityDiff.ParentChange?
        // Kept under what its parent became, or a root that stays a root.
        let parentCarriesOn =
            sourceEntity.parentName == nil
            ? destinationEntity.parentName == nil
            : destinationEntity.parentName.map { continuation(ofSource: sourceEntity.parentName) == $0 } ?? false
        if !parentCarriesOn {
            parent = EntityDiff.ParentChange(from: sourceEntity.parentName, to: destinationEntity.parentName)
        }
        return EntityDiff(
            name: destinationEntity.name, oldName: renamed ? sourceEntity.name : nil,
            change: renamed ? .renamed : .kept, mapping: entityMapping.name, mappingKind: entityMapping.kind,
            isAbstract: destinationEntity.isAbstract, parent: parent,
            properties: propertyDiffs(entityMapping, from: sourceEntity, to: destinationEntity))
    }

    private func propertyDiffs(
        _ entityMapping: EntityMapping, from sourceEntity: Entity, to destinationEntity: Entity
    ) -> [PropertyDiff] {
        let sourceProperties = source.allProperties(of: sourceEntity).filter { !$0.isTransient }
        var used: Set<String> = []
        var diffs: [PropertyDiff] = []
        for property in destination.allProperties(of: destinationEntity) where !property.isTransient {
            let propertyMapping = entityMapping.propertyMapping(named: property.name)
            guard let sourceName = propertyMapping?.valueExpression.flatMap(MappingInference.sourceProperty(readBy:)),
                let sourceProperty = sourceProperties.first(where: { $0.name == sourceName })
            else {
                diffs.append(added(property, expression: propertyMapping?.valueExpression))
                continue
            }
            used.insert(sourceName)
            var diff = changed(
                from: sourceProperty, to: property, widening: propertyMapping?.widening)
            if let moved = movedNote(sourceProperty, of: sourceEntity, to: property, of: destinationEntity) {
                diff.notes.append(moved)
            }
            diffs.append(diff)
        }
        for property in sourceProperties where !used.contains(property.name) {
            diffs.append(
                PropertyDiff(
                    name: property.name, kind: Self.kind(of: property), change: .removed, type: type(of: property)))
        }
        return diffs
    }

    private func added(_ property: Property, expression: Expression?) -> PropertyDiff {
        var notes: [String] = []
        switch property {
        case .attribute(let attribute):
            if !attribute.isOptional { notes.append("required") }
            notes.append(attribute.defaultValue.map { "default \($0)" } ?? "NULL in existing rows")
        case .relationship:
            notes.append("empty in existing rows")
        }
        if let expression { notes.append("value: \(expression)") }
        return PropertyDiff(
            name: property.name, kind: Self.kind(of: property), change: .added, type: type(of: property), notes: notes)
    }

    private func changed(from old: Property, to new: Property, widening: TypeWidening?) -> PropertyDiff {
        let renamed = old.name != new.name
        let oldType = type(of: old)
        let newType = type(of: new)
        var notes: [String] = []
        switch (old, new) {
        case (.attribute(let old), .attribute(let new)):
            if old.isOptional && !new.isOptional {
                notes.append("becomes required; NULL values get the default \(new.defaultValue ?? "")")
            } else if !old.isOptional && new.isOptional {
                notes.append("becomes optional")
            }
        case (.relationship(let old), .relationship(let new)):
            if old.isToMany != new.isToMany {
                notes.append(old.isToMany ? "to-many → to-one (keeps one object)" : "to-one → to-many")
            } else if old.isOrdered != new.isOrdered {
                notes.append(old.isOrdered ? "ordered → unordered" : "unordered → ordered")
            }
            if continuation(ofSource: old.destination) != new.destination {
                notes.append("destination \(old.destination) → \(new.destination)")
            }
            if old.isOptional != new.isOptional {
                notes.append(new.isOptional ? "becomes optional" : "becomes required")
            }
        default:
            break
        }
        let change: PropertyDiff.Change = renamed ? .renamed : (widening != nil ? .widened : .kept)
        return PropertyDiff(
            name: new.name, oldName: renamed ? old.name : nil, kind: Self.kind(of: new), change: change, type: newType,
            oldType: oldType == newType ? nil : oldType, widening: widening, notes: notes)
    }

    /// "moved from Vehicle to Car" when the entity declaring the property isn't what the
    /// declaring source entity became.
    private func movedNote(
        _ old: Property, of sourceEntity: Entity, to new: Property, of destinationEntity: Entity
    ) -> String? {
        guard let oldOwner = source.declaringEntity(ofProperty: old.name, from: sourceEntity),
            let newOwner = destination.declaringEntity(ofProperty: new.name, from: destinationEntity),
            continuation(ofSource: oldOwner.name) != newOwner.name
        else { return nil }
        return "moved from \(oldOwner.name) to \(newOwner.name)"
    }

    private func type(of property: Property) -> String {
        switch property {
        case .attribute(let attribute):
            return attribute.type.rawValue
        case .relationship(let relationship):
            let cardinality =
                relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
            return "\(cardinality) \(relationship.destination)"
        }
    }

    private static func kind(of property: Property) -> PropertyDiff.Kind {
        if case .relationship = property { return .relationship }
        return .attribute
    }
}

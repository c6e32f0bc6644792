import StepwiseModel

extension InferenceRun {
    /// The attribute and relationship mappings of a matched entity pair, matching over all
    /// stored properties, inherited ones included.
    ///
    /// Problems are reported only when the source entity is concrete: an abstract one has no
    /// rows, and its concrete subentities see (and report) the same inherited properties.
    mutating func propertyMappings(
        from sourceEntity: Entity, to destinationEntity: Entity
    ) -> (attributes: [PropertyMapping], relationships: [PropertyMapping]) {
        let sourceProperties = source.allProperties(of: sourceEntity).filter { !$0.isTransient }
        let destinationProperties = destination.allProperties(of: destinationEntity).filter { !$0.isTransient }
        let matcher = NameMatcher(
            destinations: destinationProperties.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) },
            sources: sourceProperties.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) })
        var rules = PropertyRules(run: self, entity: destinationEntity.name)
        var attributes: [PropertyMapping] = []
        var relationships: [PropertyMapping] = []
        for property in destinationProperties {
            if let ambiguity = matcher.ambiguity(of: property.name) {
                rules.report(property.name, .ambiguousRename(source: ambiguity.source, claimants: ambiguity.claimants))
                continue
            }
            let sourceProperty = matcher.source(of: property.name).flatMap { name in
                sourceProperties.first { $0.name == name }
            }
            switch (sourceProperty, property) {
            case (nil, .attribute(let attribute)):
                rules.checkNew(attribute)
            case (nil, .relationship(let relationship)):
                rules.checkNew(relationship)
            case (.attribute(let old)?, .attribute(let new)):
                if let mapping = rules.mapping(from: old, to: new) { attributes.append(mapping) }
            case (.relationship(let old)?, .relationship(let new)):
                if let mapping = rules.mapping(from: old, to: new) { relationships.append(mapping) }
            case (.relationship?, .attribute):
                rules.report(property.name, .propertyKindChange(wasRelationship: true))
            case (.attribute?, .relationship):
                rules.report(property.name, .propertyKindChange(wasRelationship: false))
            }
        }
        if !sourceEntity.isAbstract {
            for problem in rules.problems { report(problem.entity, property: problem.property, problem.reason) }
        }
        return (attributes, relationships)
    }
}

/// The property rules for one matched entity pair; see ``MappingInference``.
private struct PropertyRules {
    let run: InferenceRun
    /// The destination entity.
    let entity: String
    var problems: [InferenceProblem] = []

    init(run: InferenceRun, entity: String) {
        self.run = run
        self.entity = entity
    }

    mutating func report(_ property: String, _ reason: InferenceProblem.Reason) {
        problems.append(InferenceProblem(entity: entity, property: property, reason: reason))
    }

    /// A new attribute gets no mapping: the engine stores its default value, or NULL.
    mutating func checkNew(_ attribute: Attribute) {
        if !attribute.isOptional && attribute.defaultValue == nil {
            report(attribute.name, .newRequiredAttribute)
        }
    }

    /// A new relationship gets no mapping: it starts empty.
    mutating func checkNew(_ relationship: Relationship) {
        if Self.minimumCount(of: relationship) > 0 {
            report(relationship.name, .newRequiredRelationship(destination: relationship.destination))
        }
    }

    /// `$source.<old>`, with the widening or the default for NULL recorded in user info.
    mutating func mapping(from old: Attribute, to new: Attribute) -> PropertyMapping? {
        var userInfo: [String: String] = [:]
        if old.type != new.type {
            guard let widening = TypeWidening(from: old.type, to: new.type) else {
                report(new.name, .lossyTypeChange(from: old.type, to: new.type))
                return nil
            }
            userInfo[TypeWidening.userInfoKey] = widening.userInfoValue
        }
        if old.isOptional && !new.isOptional {
            guard let defaultValue = new.defaultValue else {
                report(new.name, .attributeBecomesRequired)
                return nil
            }
            userInfo[MappingInference.defaultForNullKey] = defaultValue
        }
        return PropertyMapping(new.name, .keyPath(root: .source, path: [old.name]), userInfo: userInfo)
    }

    /// Core Data's `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", …)`,
    /// whatever the destination entities of the two relationships.
    ///
    /// Core Data infers a relationship mapping by name (or renaming identifier) alone:
    /// `-[_NSMappingModelBuilder inferPropertyMappingsForEntityMapping:]` refuses only a to-many
    /// becoming a to-one, and never compares destination entities. At run time,
    /// `-[NSMigrationManager destinationInstancesForSourceRelationshipNamed:sourceInstances:]`
    /// follows only the entity mappings whose source entity is kind of the source relationship's
    /// destination *and* whose destination entity is kind of the new relationship's destination:
    /// an object that becomes anything else is left out of the link, silently. The engine follows
    /// the same rule (`MigrationManager.lookupTables(producing:fromSourceTable:)`), and
    /// ``/StepwiseMapping/DroppedData`` names the links left out
    /// (``/StepwiseMapping/DroppedData/Reason/destinationChanged``), where Core Data says nothing.
    mutating func mapping(from old: Relationship, to new: Relationship) -> PropertyMapping? {
        if Self.minimumCount(of: new) > Self.minimumCount(of: old) {
            report(new.name, .relationshipBecomesRequired)
        }
        return PropertyMapping(
            new.name,
            MappingInference.relationshipExpression(
                mappingNamed: run.mappingName(producing: new.destination), sourceRelationship: old.name))
    }

    /// How many objects a relationship must hold: 1 for a non-optional to-one, the minimum
    /// count for a to-many.
    ///
    /// A to-many without a minimum count may be empty even when the model leaves out
    /// `optional="YES"` (as Moody's `Continent.moods` does): Core Data's lightweight
    /// migration doesn't validate, and an empty set is not a missing value.
    static func minimumCount(of relationship: Relationship) -> Int {
        relationship.isToMany ? relationship.minCount : (relationship.isOptional ? 0 : 1)
    }
}

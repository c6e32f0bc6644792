/// What a mapping model does, apart from where it was read and what it is called: the test
/// ``MappingDirectory`` uses to run a mapping model found at several paths once.
///
/// Two mapping models have the same content when they map the same two versions with the same
/// entity mappings, in the same order (the order stage 2 runs them in). Each entity mapping is
/// compared by its name, kind, entities, filter, policy, user info and property values, written
/// in their parseable syntax with property mappings by destination name: so an `.xcmappingmodel`,
/// a byte-different copy of it saved by another Xcode, and the JSON file `stepwise convert`
/// wrote from it all have one content. The mapping model's own name and file are left out.
struct MappingModelContent: Hashable {
    var sourceVersion: String
    var destinationVersion: String
    /// One line per entity mapping, in run order.
    var entityMappings: [EntityMappingContent]

    init(_ model: MappingModel) {
        sourceVersion = model.sourceVersion
        destinationVersion = model.destinationVersion
        entityMappings = model.entityMappings.map(EntityMappingContent.init)
    }

    /// The first entity mapping of `self` that maps the same source entity to the same
    /// destination entity as one of `other`'s: two mapping models that would both create
    /// destination instances from the same source rows.
    func sharedEntityPair(with other: MappingModelContent) -> (EntityMappingContent, EntityMappingContent)? {
        for mapping in entityMappings {
            guard mapping.sourceEntity != nil, mapping.destinationEntity != nil else { continue }
            if let match = other.entityMappings.first(where: {
                $0.sourceEntity == mapping.sourceEntity && $0.destinationEntity == mapping.destinationEntity
            }) {
                return (mapping, match)
            }
        }
        return nil
    }

    /// What differs between two mapping models, for messages: the first entity mapping one of
    /// them has and the other hasn't, as it is, or their order.
    func firstDifference(from other: MappingModelContent) -> String? {
        if let mapping = entityMappings.first(where: { !other.entityMappings.contains($0) })
            ?? other.entityMappings.first(where: { !entityMappings.contains($0) })
        {
            return "the entity mapping \(mapping.name), which only one of them has as it is"
        }
        return self == other ? nil : "the order of their entity mappings"
    }
}

/// One entity mapping of a ``MappingModelContent``, in a canonical text form.
struct EntityMappingContent: Hashable {
    var name: String
    var sourceEntity: String?
    var destinationEntity: String?
    /// Everything else the mapping says, canonically written: the kind, filter, policy, user
    /// info and each property's value, properties sorted by name.
    var body: [String]

    init(_ mapping: EntityMapping) {
        name = mapping.name
        sourceEntity = mapping.sourceEntity
        destinationEntity = mapping.destinationEntity
        var body = [
            "kind \(mapping.kind.rawValue)",
            "filter \(mapping.filter.map { "\($0)" } ?? "-")",
            "policy \(mapping.policyName ?? "-")",
            "userInfo \(Self.canonical(mapping.userInfo))",
        ]
        for (group, properties) in [
            ("attribute", mapping.attributeMappings), ("relationship", mapping.relationshipMappings),
        ] {
            for property in properties.sorted(by: { $0.name < $1.name }) {
                let value = property.valueExpression.map { "\($0)" } ?? "-"
                body.append("\(group) \(property.name) = \(value) \(Self.canonical(property.userInfo))")
            }
        }
        self.body = body
    }

    /// What differs between two entity mappings of the same entities, for messages: the first
    /// line of `self` that `other` doesn't have, or the name when only that differs.
    func firstDifference(from other: EntityMappingContent) -> String? {
        if let line = body.first(where: { !other.body.contains($0) }) ?? other.body.first(where: { !body.contains($0) })
        {
            return line
        }
        return name == other.name ? nil : "name \(name) / \(other.name)"
    }

    private static func canonical(_ userInfo: [String: String]) -> String {
        "[" + userInfo.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}

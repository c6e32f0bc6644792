import StepwiseModel

extension CompositionRun {
    /// The composed attribute mappings of a linked entity: the second step's, with each
    /// `$source.b` replaced by the first step's expression for `b`.
    ///
    /// What the engine does with a missing value decides which attributes compose. Where the
    /// value is nil, a step stores the destination default when the attribute is required and
    /// has one (`COALESCE`), and an attribute without a mapping gets its default, required or
    /// not. Each rule below keeps one pass storing what the two steps store.
    func attributeMappings(_ link: Link) throws(CompositionRefusal) -> [PropertyMapping] {
        var mappings: [PropertyMapping] = []
        for second in link.second.attributeMappings {
            func refuse(_ reason: CompositionRefusal.Reason) -> CompositionRefusal {
                CompositionRefusal(reason, entity: link.destination.name, property: second.name)
            }
            let intermediateName = try Self.sourceAttributeName(of: second, entity: link.destination.name)
            guard
                let attribute = destination.allAttributes(of: link.destination).first(where: { $0.name == second.name })
            else {
                throw Self.invalid(
                    MappingError(
                        .unknownProperty(
                            entity: link.destination.name, property: second.name, version: destination.name)),
                    entity: link.destination.name, property: second.name)
            }
            guard
                let intermediateAttribute = intermediate.allAttributes(of: link.intermediate).first(where: {
                    $0.name == intermediateName
                })
            else {
                throw Self.invalid(
                    MappingError(
                        .unknownProperty(
                            entity: link.intermediate.name, property: intermediateName, version: intermediate.name)),
                    entity: link.destination.name, property: second.name)
            }
            let secondWidening = try Self.widening(of: second, entity: link.destination.name)
            guard let first = link.first.attributeMappings.first(where: { $0.name == intermediateName }) else {
                // New in the intermediate version: every row holds its default after the first
                // step. One pass leaves the attribute without a mapping, so it gets the
                // destination default (or nil): the two must be the same value.
                if let reason = refusalOfNewIntermediate(
                    intermediateAttribute, becoming: attribute, widened: secondWidening)
                {
                    throw refuse(reason)
                }
                continue
            }
            let sourceName = try Self.sourceAttributeName(of: first, entity: link.destination.name)
            guard let sourceAttribute = source.allAttributes(of: link.source).first(where: { $0.name == sourceName })
            else {
                throw Self.invalid(
                    MappingError(
                        .unknownProperty(entity: link.source.name, property: sourceName, version: source.name)),
                    entity: link.destination.name, property: second.name)
            }
            let firstWidening = try Self.widening(of: first, entity: link.destination.name)
            var userInfo: [String: String] = [:]
            if let firstWidening, let secondWidening {
                throw refuse(.stackedWidenings(first: firstWidening, second: secondWidening))
            }
            if sourceAttribute.type != attribute.type {
                guard let widening = TypeWidening(from: sourceAttribute.type, to: attribute.type),
                    widening == firstWidening ?? secondWidening
                else {
                    throw refuse(
                        .notInferredShape("a type change \(sourceAttribute.type.rawValue) → \(attribute.type.rawValue)")
                    )
                }
                userInfo[TypeWidening.userInfoKey] = widening.userInfoValue
            } else if firstWidening != nil || secondWidening != nil {
                throw refuse(.notInferredShape("a widening between attributes of the same type"))
            }
            // A nil source value becomes the intermediate default when the intermediate
            // attribute is required (the first step's COALESCE); one pass must store that same
            // value, unconverted, as the destination's default for nil.
            if sourceAttribute.isOptional && !intermediateAttribute.isOptional {
                guard secondWidening == nil, !attribute.isOptional,
                    let intermediateDefault = intermediateAttribute.defaultValue,
                    intermediateDefault == attribute.defaultValue
                else {
                    throw refuse(
                        .intermediateDefault(
                            intermediate: intermediateAttribute.defaultValue,
                            destination: attribute.isOptional ? nil : attribute.defaultValue))
                }
            }
            let markers = [first, second].contains { $0.userInfo[MappingInference.defaultForNullKey] != nil }
            if markers || (sourceAttribute.isOptional && !attribute.isOptional) {
                guard !attribute.isOptional, let defaultValue = attribute.defaultValue else {
                    throw refuse(
                        .intermediateDefault(intermediate: intermediateAttribute.defaultValue, destination: nil))
                }
                userInfo[MappingInference.defaultForNullKey] = defaultValue
            }
            mappings.append(
                PropertyMapping(second.name, .keyPath(root: .source, path: [sourceName]), userInfo: userInfo))
        }
        return mappings
    }

    /// Why an attribute the first step adds can't be left without a mapping, or nil when it can.
    ///
    /// After the first step it holds its default everywhere (nil without one); the second step
    /// stores that, converted by its widening, or the destination default where it is nil and
    /// the destination attribute is required. One pass stores the destination default.
    private func refusalOfNewIntermediate(
        _ intermediateAttribute: Attribute, becoming attribute: Attribute, widened: TypeWidening?
    ) -> CompositionRefusal.Reason? {
        let exact: Bool
        if let intermediateDefault = intermediateAttribute.defaultValue {
            exact = widened == nil && intermediateDefault == attribute.defaultValue
        } else {
            exact = attribute.defaultValue == nil || !attribute.isOptional
        }
        return exact
            ? nil
            : .intermediateDefault(
                intermediate: intermediateAttribute.defaultValue, destination: attribute.defaultValue)
    }

    /// `x` of an inferred attribute mapping `$source.x`.
    private static func sourceAttributeName(
        of mapping: PropertyMapping, entity: String
    ) throws(CompositionRefusal) -> String {
        guard case .keyPath(.source, let path)? = mapping.valueExpression, path.count == 1 else {
            throw CompositionRefusal(
                .notInferredShape("the expression \(mapping.valueExpression?.description ?? "nil")"), entity: entity,
                property: mapping.name)
        }
        return path[0]
    }

    /// The widening an inferred attribute mapping records; refuses user info that inference
    /// doesn't write or can't read back.
    private static func widening(of mapping: PropertyMapping, entity: String) throws(CompositionRefusal)
        -> TypeWidening?
    {
        let known: Set<String> = [TypeWidening.userInfoKey, MappingInference.defaultForNullKey]
        guard Set(mapping.userInfo.keys).isSubset(of: known),
            mapping.userInfo[TypeWidening.userInfoKey] == nil || mapping.widening != nil
        else {
            throw CompositionRefusal(
                .notInferredShape("user info \(mapping.userInfo.keys.sorted())"), entity: entity, property: mapping.name
            )
        }
        return mapping.widening
    }
}

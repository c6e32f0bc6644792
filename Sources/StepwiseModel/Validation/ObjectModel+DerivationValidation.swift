extension ObjectModel {
    /// The problems of the entity's derived attributes: expressions Stepwise can't read, and key
    /// paths that don't resolve the way Core Data's triggers need.
    ///
    /// The rules are Core Data's (`-[NSDerivedAttributeDescription _validateKeypaths:]` and
    /// `NSSQLDerivedAttributeSQLGenerator`, decompiled; the real stores show only the to-one
    /// shape, `Asset.derivedCameraCaptureDevice` and `GraphNode.primaryLabelCode` of Photos 13
    /// and 15): a key path or a string function names an attribute of the entity or of a to-one's
    /// destination, one step at most ("Unsupported: (multi-step keypath)"); a count names a
    /// to-many; an aggregate names a to-many, then an attribute of its destination.
    func derivationProblems(of entity: Entity) -> [ModelProblem] {
        var problems: [ModelProblem] = []
        for attribute in entity.attributes {
            if let expression = attribute.unsupportedDerivationExpression {
                problems.append(
                    .unsupportedDerivation(entity: entity.name, attribute: attribute.name, expression: expression))
            }
            guard let derivation = attribute.derivation, let reason = unresolved(derivation, from: entity) else {
                continue
            }
            problems.append(
                .unresolvedDerivation(
                    entity: entity.name, attribute: attribute.name, expression: derivation.expression, reason: reason))
        }
        return problems
    }

    /// Why `derivation` doesn't resolve from `entity`; nil when it does.
    private func unresolved(_ derivation: Derivation, from entity: Entity) -> String? {
        switch derivation.kind {
        case .now:
            return nil
        case .keyPath(let path), .string(_, let path):
            guard path.count <= 2 else {
                return
                    "Core Data's triggers follow at most one to-one relationship, and '\(path.joined(separator: "."))' follows \(path.count - 1)"
            }
            var source = entity
            if path.count == 2 {
                switch relationship(path[0], of: source) {
                case .success(let relationship) where !relationship.isToMany:
                    guard let destination = self[entity: relationship.destination] else {
                        return "'\(path[0])' leads to '\(relationship.destination)', which is not in the model"
                    }
                    source = destination
                case .success: return "'\(path[0])' is a to-many relationship, where a to-one is needed"
                case .failure(let error): return error.reason
                }
            }
            return attributeReason(path[path.count - 1], of: source)
        case .count(let path):
            guard path.count == 1 else {
                return "a count names one to-many relationship, not '\(path.joined(separator: "."))'"
            }
            switch relationship(path[0], of: entity) {
            case .success(let relationship) where relationship.isToMany: return nil
            case .success: return "'\(path[0])' is a to-one relationship, where a to-many is needed"
            case .failure(let error): return error.reason
            }
        case .aggregate(_, let path, let attributeName):
            guard path.count == 1 else {
                return "an aggregate names one to-many relationship, not '\(path.joined(separator: "."))'"
            }
            switch relationship(path[0], of: entity) {
            case .success(let relationship) where relationship.isToMany:
                guard let destination = self[entity: relationship.destination] else {
                    return "'\(path[0])' leads to '\(relationship.destination)', which is not in the model"
                }
                return attributeReason(attributeName, of: destination)
            case .success: return "'\(path[0])' is a to-one relationship, where a to-many is needed"
            case .failure(let error): return error.reason
            }
        }
    }

    private func relationship(_ name: String, of entity: Entity) -> Result<Relationship, DerivationPathError> {
        if let relationship = allRelationships(of: entity).first(where: { $0.name == name }) {
            return .success(relationship)
        }
        if allAttributes(of: entity).contains(where: { $0.name == name }) {
            return .failure(
                DerivationPathError("'\(name)' is an attribute of '\(entity.name)', where a relationship is needed"))
        }
        return .failure(DerivationPathError("'\(entity.name)' has no relationship '\(name)'"))
    }

    private func attributeReason(_ name: String, of entity: Entity) -> String? {
        if allAttributes(of: entity).contains(where: { $0.name == name && !$0.isTransient }) { return nil }
        if allRelationships(of: entity).contains(where: { $0.name == name }) {
            return "'\(name)' is a relationship of '\(entity.name)', where a stored attribute is needed"
        }
        return "'\(entity.name)' has no stored attribute '\(name)'"
    }
}

/// Why a derivation's key path doesn't resolve, as ``ModelProblem/unresolvedDerivation(entity:attribute:expression:reason:)`` says it.
private struct DerivationPathError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension ObjectModel {
    /// The problems of the entity's composite attributes: what Core Data refuses when it loads
    /// the model (`-[NSCompositeAttributeDescription _checkElements:]`, decompiled Core Data
    /// 17.0). An element must be an attribute of a stored type other than Undefined or
    /// ObjectID, and Binary only without external storage; names must be unique within one
    /// composite, as they key its dictionary value.
    func compositeProblems(of entity: Entity) -> [ModelProblem] {
        entity.attributes.filter { $0.type == .composite }.flatMap {
            compositeProblems(of: $0.elements, path: $0.name, entity: entity.name)
        }
    }

    private func compositeProblems(of elements: [Attribute], path: String, entity: String) -> [ModelProblem] {
        var problems: [ModelProblem] = []
        var names: Set<String> = []
        for element in elements {
            let elementPath = path + "." + element.name
            if element.name.isEmpty || !names.insert(element.name).inserted {
                problems.append(
                    .invalidCompositeElement(
                        entity: entity, attribute: elementPath,
                        reason: "its name is empty or used twice in the composite"))
            }
            switch element.type {
            case .undefined, .objectID:
                problems.append(
                    .invalidCompositeElement(
                        entity: entity, attribute: elementPath,
                        reason: "a composite can't hold an element of type \(element.type.rawValue)"))
            case .binary where element.allowsExternalBinaryDataStorage:
                problems.append(
                    .invalidCompositeElement(
                        entity: entity, attribute: elementPath,
                        reason: "a composite's Binary element can't allow external storage"))
            case .composite:
                problems += compositeProblems(of: element.elements, path: elementPath, entity: entity)
            default:
                break
            }
        }
        return problems
    }
}

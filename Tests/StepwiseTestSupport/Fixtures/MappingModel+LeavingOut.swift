import StepwiseMapping

// A test double for the data-drop checks: the upgrade tests and the matrix tests both use it.
extension MappingModel {
    /// The mapping without `entity`'s entity mappings, nor the relationship mappings that
    /// name them: what a team that forgot the entity would have written.
    package func leavingOut(entity: String) -> MappingModel {
        var model = self
        let names = Set(entityMappings.filter { $0.sourceEntity == entity }.map(\.name))
        model.entityMappings = entityMappings.filter { $0.sourceEntity != entity }.map { mapping in
            var mapping = mapping
            mapping.relationshipMappings.removeAll { propertyMapping in
                propertyMapping.valueExpression.map { names.contains(where: "\($0)".contains) } ?? false
            }
            return mapping
        }
        return model
    }
}

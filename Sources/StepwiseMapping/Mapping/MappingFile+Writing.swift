import Foundation
import StepwiseModel

extension MappingFile {
    /// A mapping model as a Stepwise JSON mapping file that loads back to the same entity
    /// mappings: how `stepwise convert` lets a team review and diff an `.xcmappingmodel` as text.
    ///
    /// Each entity mapping lists only what ``MappingFile``'s defaults don't give: the kind when
    /// it isn't the one deduced, and the property values that differ from the same-named source
    /// property. When a destination property that the source also has is left at its default,
    /// `"copyMatchingProperties": false` is written and every value is listed, so the file
    /// means exactly what the model does. Keys are sorted, so the text is stable.
    ///
    /// - parameters:
    ///   - model: The mapping model, checked against `source` and `destination`.
    ///   - source: Its source version.
    ///   - destination: Its destination version.
    package static func encode(_ model: MappingModel, source: ObjectModel, destination: ObjectModel) throws -> Data {
        let file = FileModel(
            name: model.name, source: model.sourceVersion, destination: model.destinationVersion, order: nil,
            entityMappings: model.entityMappings.map { written($0, source: source, destination: destination) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(file) + Data("\n".utf8)
    }

    private static func written(_ mapping: EntityMapping, source: ObjectModel, destination: ObjectModel)
        -> FileEntityMapping
    {
        let sourceEntity = mapping.sourceEntity.flatMap { source[entity: $0] }
        let sourceAttributes = sourceEntity.map { Set(source.allAttributes(of: $0).map(\.name)) } ?? []
        let sourceRelationships = sourceEntity.map { Set(source.allRelationships(of: $0).map(\.name)) } ?? []
        let destinationEntity = mapping.destinationEntity.flatMap { destination[entity: $0] }
        let destinationAttributes =
            destinationEntity.map {
                destination.allAttributes(of: $0).filter { !$0.isTransient }.map(\.name)
            } ?? []
        let destinationRelationships =
            destinationEntity.map {
                destination.allRelationships(of: $0).filter { !$0.isTransient }.map(\.name)
            } ?? []
        // Copying same-named properties by default is right unless a property the source has
        // is deliberately left at its default.
        let unmappedCopies =
            destinationAttributes.filter { sourceAttributes.contains($0) && mapping.propertyMapping(named: $0) == nil }
            + destinationRelationships.filter {
                sourceRelationships.contains($0) && mapping.propertyMapping(named: $0) == nil
            }
        let copiesMatching = sourceEntity != nil && unmappedCopies.isEmpty
        func values(_ mappings: [PropertyMapping]) -> [String: String]? {
            var values: [String: String] = [:]
            for property in mappings {
                guard let expression = property.valueExpression else { continue }
                if copiesMatching, expression == .keyPath(root: .source, path: [property.name]) { continue }
                values[property.name] = expression.description
            }
            return values.isEmpty ? nil : values
        }
        let deducedKind: EntityMapping.Kind =
            mapping.sourceEntity == nil
            ? .add : mapping.destinationEntity == nil ? .remove : mapping.policyName == nil ? .transform : .custom
        let defaultName = EntityMapping.defaultName(
            source: mapping.sourceEntity, destination: mapping.destinationEntity)
        return FileEntityMapping(
            name: mapping.name == defaultName ? nil : mapping.name,
            kind: mapping.kind == deducedKind ? nil : mapping.kind,
            source: mapping.sourceEntity, destination: mapping.destinationEntity,
            filter: mapping.filter.map { "\($0)" }, policy: mapping.policyName,
            copyMatchingProperties: copiesMatching || sourceEntity == nil ? nil : false,
            attributes: values(mapping.attributeMappings), relationships: values(mapping.relationshipMappings),
            userInfo: mapping.userInfo.isEmpty ? nil : mapping.userInfo)
    }
}

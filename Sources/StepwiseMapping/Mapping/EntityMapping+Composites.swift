import StepwiseModel

extension EntityMapping {
    /// This mapping with every attribute mapping of a whole composite that reads a source
    /// composite by key path (`author` ← `$source.author`, what Xcode writes for a composite)
    /// replaced by one mapping per leaf of the destination composite (`author.person` ←
    /// `$source.author.person`, …): so the step still runs it in SQL, as any key path.
    ///
    /// Core Data's key-value coding hands the source composite over as a dictionary of its
    /// elements by name, and setting it gives each destination element the source element of
    /// the same name. So a destination element takes the source element of its name, else
    /// the one it was renamed from (its `renamingIdentifier`, as an inferred step follows it),
    /// else nil. A source element the destination composite doesn't have is left behind, as
    /// an inferred step leaves a dropped element. A leaf with its own mapping keeps it.
    ///
    /// Any other whole-composite mapping (a policy's `FUNCTION` that returns a composite) is
    /// kept: the step evaluates it row by row and splits the value into the leaves by element
    /// name (``MappingValue/composite(_:)``).
    ///
    /// - parameters:
    ///   - source: The source version, composites flattened or not.
    ///   - destination: The destination version, composites flattened or not.
    func expandingCompositeMappings(source: ObjectModel, destination: ObjectModel) -> EntityMapping {
        guard let destinationName = destinationEntity, let destinationEntity = destination[entity: destinationName]
        else { return self }
        let destinationLeaves = destination.storedAttributes(of: destinationEntity)
        let leafNames = Set(destinationLeaves.map(\.name))
        guard
            attributeMappings.contains(where: {
                !leafNames.contains($0.name) && !CompositeValue.leaves(of: $0.name, among: leafNames).isEmpty
            })
        else { return self }
        let sourceNames = Set(
            sourceEntity.flatMap { source[entity: $0] }.map { source.storedAttributes(of: $0).map(\.name) }
                ?? [])
        let mapped = Set(attributeMappings.map(\.name))
        var expanded = self
        expanded.attributeMappings = attributeMappings.flatMap { mapping -> [PropertyMapping] in
            guard !leafNames.contains(mapping.name),
                case .keyPath(let root, let path) = mapping.valueExpression,
                root == .source || root == .evaluatedObject, !path.isEmpty, !path.contains(where: { $0.hasPrefix("@") })
            else { return [mapping] }
            let sourcePath = path.joined(separator: String(Attribute.elementPathSeparator))
            let sourceLeaves = Set(CompositeValue.leaves(of: sourcePath, among: sourceNames).map(\.name))
            let leaves = CompositeValue.leaves(of: mapping.name, among: destinationLeaves.map(\.name))
            // A key path to anything but a source composite (through a relationship, to an
            // attribute) is a whole value the row-by-row path evaluates.
            guard !sourceLeaves.isEmpty, !leaves.isEmpty else { return [mapping] }
            let renamed = Dictionary(
                destinationLeaves.map { ($0.name, $0.renamingIdentifier) }, uniquingKeysWith: { first, _ in first })
            let depth = mapping.name.split(separator: Attribute.elementPathSeparator).count
            return leaves.filter { !mapped.contains($0.name) }.map { leaf in
                var candidates = [sourcePath + "." + leaf.element.joined(separator: ".")]
                if let old = renamed[leaf.name] ?? nil {
                    // The old key path's part inside the composite (`author.year` → `year`).
                    let inside = old.split(separator: Attribute.elementPathSeparator).dropFirst(depth)
                    if !inside.isEmpty { candidates.append(sourcePath + "." + inside.joined(separator: ".")) }
                }
                let expression: Expression =
                    candidates.first(where: sourceLeaves.contains).map { .keyPath(root: .source, path: [$0]) }
                    ?? .constant(.null)
                return PropertyMapping(leaf.name, expression, userInfo: mapping.userInfo)
            }
        }
        return expanded
    }

}

extension MappingModel {
    /// This mapping model with each entity mapping's whole-composite key paths expanded
    /// (``EntityMapping/expandingCompositeMappings(source:destination:)``).
    func expandingCompositeMappings(source: ObjectModel, destination: ObjectModel) -> MappingModel {
        var model = self
        model.entityMappings = entityMappings.map {
            $0.expandingCompositeMappings(source: source, destination: destination)
        }
        return model
    }
}

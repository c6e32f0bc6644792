import StepwiseMapping
import StepwiseModel

extension ModelHistory {
    /// The history of a store that holds only the configuration `name`: each version restricted
    /// to its member entities (``/StepwiseModel/ObjectModel/restricted(toConfiguration:)``), and
    /// each mapping model to the entity mappings between them.
    ///
    /// A version without the configuration stays whole: its stores were written with Core
    /// Data's default configuration, every entity.
    ///
    /// ```swift
    /// let cloud = try ModelHistory(bundleAt: modelURL).restricted(toConfiguration: "Cloud")
    /// let upgrader = Upgrader(history: cloud)
    /// ```
    ///
    /// - throws: ``/StepwiseModel/ModelError`` when no version has the configuration, or a
    ///   version's configuration can't be a store of its own.
    public func restricted(toConfiguration name: String) throws -> ModelHistory {
        guard versions.versions.contains(where: { $0.configurations[name] != nil }) else {
            let known = Set(versions.versions.flatMap(\.configurations.keys)).sorted()
            throw ModelError(
                path: nil,
                kind: .malformed(
                    "no version of the model has a configuration named '\(name)'"
                        + (known.isEmpty ? "; it has none" : ". Configurations: \(known.joined(separator: ", "))")))
        }
        let restricted = try versions.versions.map { try $0.restricted(toConfiguration: name) }
        let byName = Dictionary(restricted.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var kept: [MappingDirectory.StepKey: [MappingModel]] = [:]
        for (key, models) in mappings {
            guard let source = byName[key.source], let destination = byName[key.destination] else {
                kept[key] = models  // a step from a version as shipped: its models are whole
                continue
            }
            kept[key] = models.map { model in
                var model = model
                model.entityMappings = model.entityMappings.filter { mapping in
                    (mapping.sourceEntity.map { source[entity: $0] != nil } ?? true)
                        && (mapping.destinationEntity.map { destination[entity: $0] != nil } ?? true)
                }
                return model
            }
        }
        return ModelHistory(
            versions: VersionHistory(restricted), order: order, mappings: kept, shipped: shipped,
            asShipped: try asShipped.map { try $0.restricted(toConfiguration: name) }, currentVersion: currentVersion)
    }
}

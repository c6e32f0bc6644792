extension ObjectModel {
    /// One model holding the entities of `models`, as `NSManagedObjectModel(byMerging:)` makes
    /// the model of a store that several models share: an app's own model and a framework's, say.
    ///
    /// Each entity keeps its definition, and so its version hash: Core Data hashes an entity on
    /// its own properties and its parent's, never on the model around it. The entities are
    /// numbered in the store as every model's are, by name (``CoreDataNameOrder``), so a merged
    /// model lays out as Core Data lays out its merged model. The version identifiers are the
    /// models' together.
    ///
    /// - parameters:
    ///   - models: The models to merge, in the order their version names are joined.
    ///   - name: The merged model's name; the models' names joined by `" + "` by default.
    /// - throws: ``ModelError`` when two models have an entity of the same name, which
    ///   `NSManagedObjectModel(byMerging:)` refuses too ("Can't merge models with two different
    ///   entities named …").
    public static func merging(_ models: [ObjectModel], name: String? = nil) throws(ModelError) -> ObjectModel {
        var owners: [String: String] = [:]
        for model in models {
            for entity in model.entities {
                if let other = owners[entity.name] {
                    throw ModelError(
                        path: nil,
                        kind: .malformed(
                            "the models '\(other)' and '\(model.name)' both have an entity named '\(entity.name)': Core Data can't merge them either. Rename one of them, or keep them in separate stores"
                        ))
                }
                owners[entity.name] = model.name
            }
        }
        return ObjectModel(
            name ?? models.map(\.name).joined(separator: " + "),
            versionIdentifiers: models.flatMap(\.versionIdentifiers),
            entities: models.flatMap(\.entities))
    }
}

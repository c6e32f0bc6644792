import StepwiseModel

extension ModelHistory {
    /// The entity names, and renaming identifiers, of every version: an entity of a store that
    /// none of them names is unknown to the history (``UpgradeError/Kind/unknownEntities(entities:tables:)``),
    /// where one that some version had is a removal.
    var knownEntityNames: Set<String> {
        var known: Set<String> = []
        for version in versions.versions {
            for entity in version.entities {
                known.insert(entity.name)
                if let renamed = entity.renamingIdentifier { known.insert(renamed) }
            }
        }
        return known
    }
}

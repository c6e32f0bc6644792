extension ObjectModel {
    /// The model of a store that holds only the configuration `name`: its member entities, as
    /// `NSPersistentStoreCoordinator` adds a store for one configuration.
    ///
    /// Hashes don't change: Core Data hashes each entity on its own. The store's entities are
    /// numbered among the members only (`-[NSManagedObjectModel _sortedEntitiesForConfiguration:]`),
    /// which laying out the restricted model does. A version without that configuration is
    /// returned whole: its stores were written with Core Data's default configuration, every
    /// entity, and the entities the configuration leaves out are then removed by the step that
    /// first has it, as any removal, named.
    ///
    /// - throws: ``ModelError`` when a member's parent isn't a member (their rows share a table),
    ///   or a member's relationship points at an entity outside the configuration (Core Data
    ///   keeps no relationship across stores).
    public func restricted(toConfiguration name: String) throws(ModelError) -> ObjectModel {
        guard let members = configurations[name] else { return self }
        let kept = Set(members)
        for entity in entities where kept.contains(entity.name) {
            if let parent = entity.parentName, !kept.contains(parent) {
                throw ModelError(
                    path: nil,
                    kind: .malformed(
                        "version '\(self.name)': the configuration '\(name)' holds '\(entity.name)' but not its parent '\(parent)', whose rows share its table. Add '\(parent)' to the configuration"
                    ))
            }
            for relationship in entity.relationships where !kept.contains(relationship.destination) {
                throw ModelError(
                    path: nil,
                    kind: .malformed(
                        "version '\(self.name)': in the configuration '\(name)', '\(entity.name).\(relationship.name)' points at '\(relationship.destination)', which the configuration leaves out; Core Data keeps no relationship across stores. Add '\(relationship.destination)' to the configuration, or remove the relationship"
                    ))
            }
        }
        var restricted = self
        restricted.entities = entities.filter { kept.contains($0.name) }
        return restricted
    }
}

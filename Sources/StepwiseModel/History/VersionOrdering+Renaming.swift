extension VersionOrdering {
    /// The renaming clues between versions of different stems: one per ordered pair of stems,
    /// the first found (stems in order, versions in natural order), so that the error or the
    /// order's description names one example rather than every version of a long run.
    ///
    /// A renaming identifier is the name an entity or property has "in an earlier version"
    /// (Core Data's `NSEntityDescription.renamingIdentifier`; Xcode's "Renaming ID", written
    /// `elementID`). So `later` comes after `earlier` when `later`'s element carries, as its
    /// renaming identifier, a name other than its own that `earlier` uses for it, and each
    /// has only its own name: `earlier` lacks the new name and `later` the old one. The last
    /// two conditions keep out identifiers that name the element itself, as Wire's `messages`
    /// does, and an element that exists under both names.
    func renamingClues() -> [OrderClue] {
        let versions = stems.flatMap(\.versions).compactMap { models[$0] }.map(NamedElements.init)
        var clues: [OrderClue] = []
        var ordered: Set<StemGraph.Pair> = []
        for later in versions where !later.renames.isEmpty {
            guard let laterStem = stemOfVersion[later.version] else { continue }
            for earlier in versions {
                guard let earlierStem = stemOfVersion[earlier.version], earlierStem != laterStem else { continue }
                let pair = StemGraph.Pair(first: earlierStem, second: laterStem)
                guard !ordered.contains(pair), let clue = later.clue(after: earlier) else { continue }
                ordered.insert(pair)
                clues.append(clue)
            }
        }
        return clues
    }
}

/// A version's entity and property names, and the renames it declares, for comparing many
/// pairs of versions at the cost of set lookups.
private struct NamedElements {
    /// An element whose renaming identifier names something else, absent from its version.
    struct Rename {
        /// The entity's name in this version.
        var entity: String
        /// The entity's renaming identifier, when it has one.
        var entityRenamingIdentifier: String?
        /// The property's name; nil for the entity itself.
        var property: String?
        /// The name the renaming identifier gives.
        var old: String
    }

    var version: String
    /// Each entity's property names.
    var properties: [String: Set<String>]
    var renames: [Rename]

    init(_ model: ObjectModel) {
        version = model.name
        var properties: [String: Set<String>] = [:]
        for entity in model.entities { properties[entity.name] = Set(entity.properties.map(\.name)) }
        var renames: [Rename] = []
        for entity in model.entities {
            if let old = entity.renamingIdentifier, old != entity.name, properties[old] == nil {
                renames.append(Rename(entity: entity.name, entityRenamingIdentifier: old, property: nil, old: old))
            }
            let names = properties[entity.name] ?? []
            for property in entity.properties {
                guard let old = property.renamingIdentifier, old != property.name, !names.contains(old) else {
                    continue
                }
                renames.append(
                    Rename(
                        entity: entity.name, entityRenamingIdentifier: entity.renamingIdentifier,
                        property: property.name, old: old))
            }
        }
        self.properties = properties
        self.renames = renames
    }

    /// The first rename of this version that names an element `earlier` has under the old
    /// name only.
    func clue(after earlier: NamedElements) -> OrderClue? {
        for rename in renames {
            guard let property = rename.property else {
                guard earlier.properties[rename.old] != nil, earlier.properties[rename.entity] == nil else { continue }
                return .renamingIdentifier(
                    earlier: earlier.version, later: version, element: rename.entity, renames: rename.old)
            }
            // The entity in `earlier`: under its own name, or under the name it was renamed from.
            let entity =
                earlier.properties[rename.entity] != nil
                ? rename.entity : rename.entityRenamingIdentifier ?? rename.entity
            guard let names = earlier.properties[entity], names.contains(rename.old), !names.contains(property) else {
                continue
            }
            return .renamingIdentifier(
                earlier: earlier.version, later: version, element: "\(rename.entity).\(property)",
                renames: "\(entity).\(rename.old)")
        }
        return nil
    }
}

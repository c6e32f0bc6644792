/// Composite attributes (`NSCompositeAttributeDescription`, iOS 17 and macOS 14): what they are
/// made of and how they are stored.
///
/// A composite has no column of its own. Core Data stores each *leaf* element, composites
/// nested inside it expanded in place, in a column of the entity's table, named after the
/// element alone: `_flattenElements:` walks `elements` depth-first and keeps every
/// non-composite attribute (decompiled `NSCompositeAttributeDescription`, Core Data 17.0,
/// `_flattenElements:` and `_flattenedElements`); a real SwiftData store keeps a struct
/// `Author { person, place, year, id }` in `ZPERSON`, `ZPLACE`, `ZYEAR` and `ZID1` (issue 24).
///
/// Stepwise stores and migrates a composite through its *flattened* form
/// (``ObjectModel/flatteningComposites()``): each leaf becomes an ordinary attribute whose name
/// is its key path from the entity, `author.person`, as Core Data addresses elements in fetch
/// requests (`magnitude.richter`, `NSCompositeAttributeDescription`'s documentation). A
/// property name can't contain a dot, so such a name never meets a real property's.
extension Attribute {
    /// What separates a composite's name from an element's in a flattened attribute's name.
    public static let elementPathSeparator: Character = "."

    /// A composite attribute holding `elements`.
    ///
    /// - parameters:
    ///   - name: The attribute's name.
    ///   - elements: Its elements, in declared order; an element may be a composite itself.
    ///   - compositeName: The model-level `<composite>` definition it uses in a source model;
    ///     nil names it after the attribute when the model is written.
    ///   - isOptional: Whether the whole value may be nil.
    ///   - renamingIdentifier: The attribute's name in an earlier version.
    public static func composite(
        _ name: String, elements: [Attribute], compositeName: String? = nil, isOptional: Bool = true,
        renamingIdentifier: String? = nil
    ) -> Attribute {
        var attribute = Attribute(name, .composite, isOptional: isOptional, renamingIdentifier: renamingIdentifier)
        attribute.elements = elements
        attribute.compositeName = compositeName
        return attribute
    }

    /// Whether this is a leaf of a flattened composite (its name is a key path, `author.person`).
    public var isFlattenedElement: Bool {
        name.contains(Self.elementPathSeparator)
    }

    /// The name the column is made from: the element's own name for a flattened leaf
    /// (`author.id` is stored as `ZID`, or `ZID1` if `ZID` is taken), else the name.
    public var storageName: String {
        guard let last = name.split(separator: Self.elementPathSeparator).last else { return name }
        return String(last)
    }

    /// The leaves of a composite, nested composites expanded in place, depth-first in declared
    /// order, each named by its key path from the entity (`author.place.city`).
    ///
    /// A leaf is optional when it or any composite above it is, since a nil composite leaves
    /// every column NULL. It is renamed (``renamingIdentifier``) when it or a composite above it
    /// is: `writer.person` becomes `author.person` when `author` was `writer`. Empty for an
    /// attribute that is not a composite.
    public var flattenedElements: [Attribute] {
        guard type == .composite else { return [] }
        return flattened(prefix: name, oldPrefix: renamingIdentifier, isOptional: isOptional, isTransient: isTransient)
    }

    private func flattened(prefix: String, oldPrefix: String?, isOptional: Bool, isTransient: Bool) -> [Attribute] {
        elements.flatMap { element -> [Attribute] in
            let path = prefix + String(Self.elementPathSeparator) + element.name
            let oldPath: String? =
                oldPrefix != nil || element.renamingIdentifier != nil
                ? (oldPrefix ?? prefix) + String(Self.elementPathSeparator)
                    + (element.renamingIdentifier ?? element.name)
                : nil
            let optional = isOptional || element.isOptional
            let transient = isTransient || element.isTransient
            if element.type == .composite {
                return element.flattened(prefix: path, oldPrefix: oldPath, isOptional: optional, isTransient: transient)
            }
            var leaf = element
            leaf.name = path
            leaf.renamingIdentifier = oldPath
            leaf.isOptional = optional
            leaf.isTransient = transient
            return [leaf]
        }
    }
}

extension Entity {
    /// This entity with each composite attribute replaced by its ``Attribute/flattenedElements``,
    /// which follow the entity's other attributes; the entity itself when it has none.
    public func flatteningComposites() -> Entity {
        guard attributes.contains(where: { $0.type == .composite }) else { return self }
        var entity = self
        entity.attributes =
            attributes.filter { $0.type != .composite }
            + attributes.filter { $0.type == .composite }.flatMap(\.flattenedElements)
        return entity
    }
}

extension ObjectModel {
    /// Whether an entity has a composite attribute.
    public var hasCompositeAttributes: Bool {
        entities.contains { $0.attributes.contains { $0.type == .composite } }
    }

    /// The stored attributes of `entity`, inherited ones included, as the store holds them:
    /// each composite as its leaves, named by key path (``Attribute/flattenedElements``);
    /// transient ones left out. A model already flattened is its own stored form.
    public func storedAttributes(of entity: Entity) -> [Attribute] {
        allAttributes(of: entity).flatMap { $0.type == .composite ? $0.flattenedElements : [$0] }
            .filter { !$0.isTransient }
    }

    /// The model as it is stored: every composite attribute replaced by its leaves
    /// (``Entity/flatteningComposites()``). Store layouts and inferred mappings work on this
    /// form; version hashes on the model itself, where a composite hashes as one attribute.
    public func flatteningComposites() -> ObjectModel {
        guard hasCompositeAttributes else { return self }
        var model = self
        model.entities = entities.map { $0.flatteningComposites() }
        return model
    }
}

extension Property {
    /// Whether this is a leaf of a flattened composite (``Attribute/isFlattenedElement``).
    public var isFlattenedElement: Bool {
        guard case .attribute(let attribute) = self else { return false }
        return attribute.isFlattenedElement
    }

    /// The name the property's column is made from (``Attribute/storageName``).
    public var storageName: String {
        guard case .attribute(let attribute) = self else { return name }
        return attribute.storageName
    }
}

import GRDB
import StepwiseModel
import StepwiseStore

/// Key-value coding over stored objects, as Core Data's `valueForKeyPath:` and
/// `setValue:forKeyPath:` read and write managed objects: what expressions evaluate row by row,
/// and what a policy calls to read or write a value by name.
extension ObjectContext {
    /// The value at `keyPath` from `object`, as Core Data's `valueForKeyPath:` reads it.
    ///
    /// - An attribute gives its value; a to-one its object; a to-many its objects.
    /// - A composite attribute's own name (`author`) gives its whole value,
    ///   ``MappingValue/composite(_:)``: its elements by name, nested composites nested, or nil
    ///   when every element is nil. An element's key path (`author.person`,
    ///   `author.born.year`) gives that element.
    /// - A path goes on through relationships and composites: `book.author.person`.
    ///
    /// ```swift
    /// let author = try manager.source.value(forKeyPath: "author", of: source)
    /// // .composite(["person": "Ada", "year": 1843])
    /// let person = try manager.source.value(forKeyPath: "author.person", of: source)
    /// // .string("Ada")
    /// ```
    ///
    /// - parameters:
    ///   - keyPath: Names separated by dots; collection operators (`@count`,
    ///     `@distinctUnionOfSets`) as in mapping expressions.
    ///   - object: An object of this context, as read from it: its own values are read from
    ///     the row in hand.
    /// - throws: ``MappingError/Kind/unknownProperty(entity:property:version:)`` for a name
    ///   the entity doesn't have; store errors for rows that can't be read.
    public func value(forKeyPath keyPath: String, of object: StoredObject) throws -> MappingValue {
        let path = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = path.first, let entity = layout.entity(named: object.id.entity) else {
            return try value(ofKeyPath: path[...], from: .object(object.id))
        }
        if entity.attribute(named: keyPath) != nil { return MappingValue(object[keyPath]) }
        if entity.attribute(named: first) != nil {
            return try value(ofKeyPath: path.dropFirst(), from: MappingValue(object[first]))
        }
        if entity.relationship(named: first) == nil,
            let whole = CompositeValue.read(first, from: object, entity: entity)
        {
            return try value(ofKeyPath: path.dropFirst(), from: whole)
        }
        return try value(ofKeyPath: path[...], from: .object(object.id))
    }

    /// Sets the value at `keyPath` of the object `id`, as Core Data's `setValue:forKeyPath:`
    /// on the object's own properties, and bumps its `Z_OPT` once.
    ///
    /// - An attribute, or one element of a composite by its key path (`author.person`), takes
    ///   the value converted as a mapping's value is (``MappingValue/date(_:)`` for a date…).
    /// - A composite's own name (`author`) takes its whole value,
    ///   ``MappingValue/composite(_:)``, split into its leaves by element name: an element
    ///   left out becomes nil, and nil makes every element nil.
    /// - A to-one relationship takes an object, or nil.
    ///
    /// ```swift
    /// try manager.destination.setValue(.composite(["person": "Ada", "year": 1843]), forKeyPath: "author", of: book)
    /// ```
    ///
    /// - throws: ``MappingError/Kind/unknownCompositeElement(entity:attribute:element:version:)``
    ///   for an element the composite doesn't have,
    ///   ``MappingError/Kind/notACompositeValue(entity:attribute:given:)`` for a value that is
    ///   not a composite, ``MappingError/Kind/wrongValueForm(expected:given:)`` for an
    ///   attribute's value of the wrong form, and
    ///   ``MappingError/Kind/unknownProperty(entity:property:version:)``.
    public func setValue(_ value: MappingValue, forKeyPath keyPath: String, of id: ObjectID) throws {
        guard let entity = layout.entity(named: id.entity), let modelEntity = layout.model[entity: id.entity] else {
            throw MappingError(.unknownEntity(id.entity, version: layout.model.name))
        }
        let attributes = layout.model.allAttributes(of: modelEntity)
        var values: [String: (any DatabaseValueConvertible)?] = [:]
        if let attribute = attributes.first(where: { $0.name == keyPath }) {
            values[keyPath] = try stored(value, for: attribute, entity: id.entity)
        } else if entity.relationship(named: keyPath) != nil {
            try setToOne(id, keyPath, to: value.objectIDs.first)
            return
        } else {
            let leaves = CompositeValue.leaves(of: keyPath, among: attributes.lazy.map(\.name))
            guard !leaves.isEmpty else {
                throw MappingError(
                    .unknownProperty(entity: id.entity, property: keyPath, version: layout.model.name))
            }
            try CompositeValue.check(
                value, fits: leaves.map(\.element), entity: id.entity, attribute: keyPath,
                version: layout.model.name)
            for leaf in leaves {
                guard let attribute = attributes.first(where: { $0.name == leaf.name }) else { continue }
                values[leaf.name] = try stored(
                    CompositeValue.element(leaf.element, of: value), for: attribute, entity: id.entity)
            }
        }
        try update(id, values)
    }

    /// A value converted for `attribute`'s column, an error naming the attribute.
    private func stored(_ value: MappingValue, for attribute: Attribute, entity: String) throws -> DatabaseValue {
        do {
            return try ValueConversion.value(value, for: attribute, transformers: valueTransformers)
        } catch let error as MappingError {
            throw error.adding(entity: entity, property: attribute.name)
        }
    }

    /// The value of a key path from a value, following relationships as Core Data's
    /// key-value coding does: to-ones give an object, to-manys a list, and
    /// `@distinctUnionOfSets` (or `@distinctUnionOfObjects`, `@unionOfSets`) flattens the
    /// rest of the path over a list; `@count` counts it. A composite's whole value gives its
    /// elements by name.
    func value(ofKeyPath path: ArraySlice<String>, from start: MappingValue) throws -> MappingValue {
        guard let key = path.first else { return start }
        let rest = path.dropFirst()
        if key.hasPrefix("@") {
            switch key {
            case "@count":
                return .integer(Int64(start.objectIDs.count))
            case "@distinctUnionOfSets", "@distinctUnionOfObjects", "@unionOfSets", "@unionOfObjects":
                var seen: Set<ObjectID> = []
                var result: [ObjectID] = []
                for id in start.objectIDs {
                    for found in try value(ofKeyPath: rest, from: .object(id)).objectIDs
                    where !key.hasPrefix("@distinct") || seen.insert(found).inserted {
                        result.append(found)
                    }
                }
                return .objects(result)
            default:
                throw MappingError(.invalidValue("unsupported collection operator \(key)"))
            }
        }
        switch start {
        case .null:
            return .null
        case .object(let id):
            let next = try propertyValue(key, of: id)
            return try value(ofKeyPath: rest, from: next)
        case .objects(let ids):
            // A key path through a to-many without an operator: the union of the values.
            var result: [ObjectID] = []
            for id in ids {
                result += try value(ofKeyPath: path, from: .object(id)).objectIDs
            }
            return .objects(result)
        case .composite:
            return try value(ofKeyPath: rest, from: CompositeValue.element([key], of: start))
        default:
            throw MappingError(.invalidValue("can't follow '\(key)' from a value that is not an object"))
        }
    }

    /// One property of one object: an attribute's value, a to-one's object, a to-many's
    /// objects, a composite's whole value.
    func propertyValue(_ name: String, of id: ObjectID) throws -> MappingValue {
        guard let entity = layout.entity(named: id.entity) else {
            throw MappingError(.unknownEntity(id.entity, version: layout.model.name))
        }
        if entity.attribute(named: name) != nil {
            return MappingValue(try object(id)[name])
        }
        guard let relationship = entity.relationship(named: name) else {
            if !CompositeValue.leaves(of: name, in: entity).isEmpty,
                let whole = CompositeValue.read(name, from: try object(id), entity: entity)
            {
                return whole
            }
            throw MappingError(.unknownProperty(entity: id.entity, property: name, version: layout.model.name))
        }
        let related = try related(id, name)
        if relationship.isToMany { return .objects(related) }
        return related.first.map(MappingValue.object) ?? .null
    }
}

import Foundation

/// Turns the objects of a model archive into an ``ObjectModel`` (see ``CompiledModel`` for the
/// keys), naming the archive's origin in every error.
struct CompiledModelReader {
    typealias Value = BinaryPropertyList.Value

    let access: ArchiveAccess

    init(archive: KeyedArchive, origin: String) {
        access = ArchiveAccess(archive: archive, origin: origin)
    }

    func model(named name: String) throws(ModelError) -> ObjectModel {
        guard let root = try access.object(access.archive.top["root"].map(Value.uid), "the archive's root") else {
            throw access.unreadable("the archive has no root object")
        }
        guard root.className == "NSManagedObjectModel" else {
            throw access.unreadable("its root object is an \(root.className), not an NSManagedObjectModel")
        }
        var entities: [Entity] = []
        for entry in try access.dictionary(root.fields["NSEntities"], "the model's entities") {
            guard let object = try access.object(entry.value, "entity '\(entry.key)'") else {
                throw access.unreadable("entity '\(entry.key)' is nil")
            }
            entities.append(try entity(object, key: entry.key))
        }
        // `NSVersionIdentifiers` is a set: `[""]` when the model sets none, as Xcode writes an
        // empty `userDefinedModelVersionIdentifier`.
        var identifiers: [String] = []
        for element in try access.elements(root.fields["NSVersionIdentifiers"], "the model's version identifiers") {
            if let identifier = try access.string(element, "a version identifier"), !identifier.isEmpty {
                identifiers.append(identifier)
            }
        }
        return ObjectModel(
            name, versionIdentifiers: identifiers.sorted(), entities: entities.sorted { $0.name < $1.name })
    }

    /// The entity `object`, `key` being its name in the model's entity dictionary.
    private func entity(_ object: KeyedArchive.Object, key: String) throws(ModelError) -> Entity {
        try expect(object, "NSEntityDescription", "entity '\(key)'")
        let name = try requiredString(object, "NSEntityName", "entity '\(key)'")
        let parent = try access.object(object.fields["NSSuperentity"], "the superentity of entity '\(name)'")
        var parentName: String?
        if let parent {
            try expect(parent, "NSEntityDescription", "the superentity of entity '\(name)'")
            parentName = try requiredString(parent, "NSEntityName", "the superentity of entity '\(name)'")
        }
        var entity = Entity(
            name,
            parentName: parentName,
            isAbstract: try access.flag(object.fields["NSIsAbstract"]),
            className: try className(object, entity: name),
            userInfo: try access.strings(object.fields["NSUserInfo"], "the user info of entity '\(name)'"),
            versionHashModifier: try access.string(
                object.fields["NSVersionHashModifier"], "the version hash modifier of entity '\(name)'"),
            renamingIdentifier: try renamingIdentifier(object, name: name, what: "entity '\(name)'"))
        // A subentity's properties include its inherited ones: as proxies (knowledgeC on macOS
        // 10.13, Photos on 10.15) or as copies naming the subentity (Screen Time, Photos on 13
        // and 15). An entity holds only its own, as in the source.
        var inherited: Set<String> = []
        if let parent { inherited = Set(try propertyNames(parent)) }
        for entry in try access.dictionary(object.fields["NSProperties"], "the properties of entity '\(name)'") {
            let what = "property '\(name).\(entry.key)'"
            guard let property = try access.object(entry.value, what) else { throw access.unreadable("\(what) is nil") }
            switch property.className {
            case "NSAttributeDescription", "NSDerivedAttributeDescription", "NSCompositeAttributeDescription":
                let attribute = try attribute(property, entity: name)
                if !inherited.contains(attribute.name) { entity.attributes.append(attribute) }
            case "NSRelationshipDescription":
                let relationship = try relationship(property, entity: name)
                if !inherited.contains(relationship.name) { entity.relationships.append(relationship) }
            // Not stored, so not in a store's schema or hashes: the source reader skips them too.
            case "_NSPropertyDescriptionProxy", "NSFetchedPropertyDescription", "NSExpressionDescription":
                continue
            default:
                throw ModelError(
                    path: access.origin,
                    kind: .invalidValue(element: what, attribute: "$classname", value: property.className))
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        entity.uniquenessConstraints = try propertyLists(
            object.fields["NSUniqueTuples"], "the uniqueness constraints of entity '\(name)'")
        if try access.resolved(object.fields["NSFetchIndexDescriptions"]) != nil {
            entity.fetchIndexes = try fetchIndexes(object, entity: name)
            // Where fetch indexes are archived, `NSIsIndexed` and `NSCompoundIndexes` mirror them
            // for older readers (every indexed attribute and compound index of the corpus's
            // compiled models and model caches is also a fetch index): the fetch indexes are the
            // model's indexes, as in the source, which has only them.
            for index in entity.attributes.indices { entity.attributes[index].isIndexed = false }
        } else {
            entity.compoundIndexes = try propertyLists(
                object.fields["NSCompoundIndexes"], "the compound indexes of entity '\(name)'")
        }
        return entity
    }

    /// Names of the properties an entity archives, inherited ones included.
    private func propertyNames(_ object: KeyedArchive.Object) throws(ModelError) -> [String] {
        try access.dictionary(object.fields["NSProperties"], "the properties of a superentity").map(\.key)
    }

    /// `NSClassNameForEntity`, nil for Core Data's default class, which the source leaves unnamed.
    private func className(_ object: KeyedArchive.Object, entity: String) throws(ModelError) -> String? {
        let name = try access.string(object.fields["NSClassNameForEntity"], "the class name of entity '\(entity)'")
        return name == "NSManagedObject" ? nil : name
    }

    /// `NSRenamingIdentifier`, nil when it is the element's own name: the archive always writes
    /// one, the source only for a rename (`elementID`).
    func renamingIdentifier(_ object: KeyedArchive.Object, name: String, what: String) throws(ModelError)
        -> String?
    {
        let identifier = try access.string(object.fields["NSRenamingIdentifier"], "the renaming identifier of \(what)")
        return identifier == name ? nil : identifier
    }

    /// Lists of property names (uniqueness constraints, compound indexes): arrays whose
    /// elements are names or property descriptions.
    private func propertyLists(_ value: Value?, _ what: String) throws(ModelError) -> [[String]] {
        var lists: [[String]] = []
        for list in try access.elements(value, what) {
            var names: [String] = []
            for element in try access.elements(list, "an element of \(what)") {
                if case .dictionary(let fields)? = try access.resolved(element), fields["NSPropertyName"] != nil {
                    names.append(
                        try access.string(fields["NSPropertyName"], "a property of \(what)") ?? "")
                } else if let name = try access.string(element, "a property of \(what)") {
                    names.append(name)
                }
            }
            lists.append(names)
        }
        return lists
    }

    /// `NSFetchIndexDescriptions`. An element on an expression (Photos' `expression1`) is left
    /// out, as the source reader leaves out an element without a `property`.
    private func fetchIndexes(_ object: KeyedArchive.Object, entity: String) throws(ModelError) -> [FetchIndex] {
        var indexes: [FetchIndex] = []
        for value in try access.elements(object.fields["NSFetchIndexDescriptions"], "the fetch indexes of '\(entity)'")
        {
            let what = "a fetch index of entity '\(entity)'"
            guard let index = try access.object(value, what) else { throw access.unreadable("\(what) is nil") }
            try expect(index, "NSFetchIndexDescription", what)
            let name = try requiredString(index, "NSIndexName", what)
            var elements: [FetchIndex.Element] = []
            for elementValue in try access.elements(index.fields["NSIndexElements"], "fetch index '\(entity).\(name)'")
            {
                let elementWhat = "an element of fetch index '\(entity).\(name)'"
                guard let element = try access.object(elementValue, elementWhat) else {
                    throw access.unreadable("\(elementWhat) is nil")
                }
                if let indexed = try access.object(element.fields["NSIndexedProperty"], elementWhat),
                    indexed.className == "NSExpressionDescription"
                {
                    continue
                }
                let isAscending =
                    element.fields["NSAscending"] == nil ? true : try access.flag(element.fields["NSAscending"])
                let kind: String
                switch try access.integer(element.fields["NSFetchIndexElementType"], elementWhat) ?? 0 {
                case 0: kind = "Binary"
                case 1: kind = "R-Tree"
                case let code:
                    throw ModelError(
                        path: access.origin,
                        kind: .invalidValue(
                            element: elementWhat, attribute: "NSFetchIndexElementType", value: "\(code)"))
                }
                elements.append(
                    FetchIndex.Element(
                        property: try requiredString(element, "NSPropertyName", elementWhat), kind: kind,
                        isAscending: isAscending))
            }
            indexes.append(FetchIndex(name: name, elements: elements))
        }
        return indexes
    }

    /// Checks an object's class.
    func expect(_ object: KeyedArchive.Object, _ className: String, _ what: String) throws(ModelError) {
        guard object.className == className else {
            throw access.unreadable("\(what) is an \(object.className), not an \(className)")
        }
    }

    /// A string the object must have, not empty.
    func requiredString(_ object: KeyedArchive.Object, _ key: String, _ what: String) throws(ModelError)
        -> String
    {
        guard let text = try access.string(object.fields[key], "\(key) of \(what)"), !text.isEmpty else {
            throw ModelError(path: access.origin, kind: .invalidValue(element: what, attribute: key, value: nil))
        }
        return text
    }
}

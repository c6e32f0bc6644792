import Foundation

/// Reads one model version from Xcode's XML format (the `contents` file inside a `.xcdatamodel`).
///
/// Renames are written by Xcode as `elementID="oldName"`; they become renaming identifiers.
/// A composite attribute's elements come from the model-level definition it names
/// (`CompositeDefinitions`).
/// Layout (`<elements>`), configurations and fetch requests are skipped: they have no part
/// in a store's schema or version hashes.
package enum XcodeModelReader {
    /// Reads the `.xcdatamodel` folder at `url`. The version's name is the folder's name
    /// without its extension.
    ///
    /// A bundle's every version is read this way when an upgrader is made, so the work around
    /// the parse is kept to what it needs: on Linux each `URL` operation costs microseconds, and
    /// `appendingPathComponent(_:)` asks the file system whether the result is a folder. A
    /// `contents` file that reads means a model folder; only a failed read asks the file system
    /// why, with the same checks in the same order as ever.
    package static func readVersion(at url: URL) throws(ModelError) -> ObjectModel {
        let path = url.path
        let contents = url.appending(path: "contents", directoryHint: .notDirectory)
        let contentsPath = contents.path
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ModelError(path: path, kind: .notFound)
            }
            guard isDirectory.boolValue else {
                throw ModelError(path: path, kind: .notAModel)
            }
            // No `contents` file: Xcode's old binary format.
            guard FileManager.default.fileExists(atPath: contentsPath) else {
                throw ModelError(path: path, kind: .legacyBinaryFormat)
            }
            throw ModelError(path: contentsPath, kind: .malformed(error.localizedDescription))
        }
        return try parse(data, versionName: versionName(of: url), path: contentsPath)
    }

    /// The folder's name without its extension, as `URL` names it; string work for the usual
    /// `<Name>.xcdatamodel`.
    private static func versionName(of url: URL) -> String {
        let folder = url.lastPathComponent
        let suffix = ".xcdatamodel"
        guard folder.hasSuffix(suffix), folder.utf8.count > suffix.utf8.count else {
            return url.deletingPathExtension().lastPathComponent
        }
        return String(folder.dropLast(suffix.count))
    }

    /// Parses the XML of a `contents` file.
    /// - parameters:
    ///   - data: The file's bytes.
    ///   - versionName: The model version's name.
    ///   - path: The file named in errors.
    package static func parse(_ data: Data, versionName: String, path: String = "<memory>") throws(ModelError)
        -> ObjectModel
    {
        let root: XMLElementTree.Element
        do {
            root = try XMLElementTree.parse(data, allowsDocumentType: false)
        } catch {
            throw ModelError(path: path, kind: .malformed(error.reason))
        }
        guard root.name == "model" else {
            throw ModelError(path: path, kind: .malformed("the root element is not <model>"))
        }
        let reader = ElementReader(path: path, composites: CompositeDefinitions(model: root))
        var entities: [Entity] = []
        for element in root.elements(forName: "entity") {
            entities.append(try reader.entity(element))
        }
        let identifier = root.string("userDefinedModelVersionIdentifier")
        let identifiers = identifier.map { $0.isEmpty ? [] : [$0] } ?? []
        var model = ObjectModel(versionName, versionIdentifiers: identifiers, entities: entities)
        // `<configuration name="Cloud"><memberEntity name="Note"/></configuration>`, as Xcode's
        // model editor writes a configuration (Default, every entity, is never written).
        for element in root.elements(forName: "configuration") {
            guard let name = element.string("name") else {
                throw ModelError(path: path, kind: .malformed("a <configuration> without a name"))
            }
            model.configurations[name] = element.elements(forName: "memberEntity").compactMap { $0.string("name") }
        }
        return model
    }
}

/// Turns XML elements into model values, naming `path` in every error.
private struct ElementReader {
    let path: String
    var composites = CompositeDefinitions()
    /// The composite definitions being read around the current attribute, outermost first.
    var enclosingComposites: [String] = []

    func entity(_ element: XMLElementTree.Element) throws(ModelError) -> Entity {
        let name = try required(element, "name")
        var entity = Entity(
            name,
            parentName: element.string("parentEntity"),
            isAbstract: element.flag("isAbstract"),
            className: element.string("representedClassName"),
            userInfo: userInfo(element),
            versionHashModifier: element.string("versionHashModifier"),
            renamingIdentifier: element.string("elementID"))
        for child in element.elements(forName: "attribute") {
            entity.attributes.append(try attribute(child, entity: name))
        }
        for child in element.elements(forName: "relationship") {
            entity.relationships.append(try relationship(child, entity: name))
        }
        entity.uniquenessConstraints = element.elements(forName: "uniquenessConstraints")
            .flatMap { $0.elements(forName: "uniquenessConstraint") }
            .map { $0.elements(forName: "constraint").compactMap { $0.string("value") } }
        entity.compoundIndexes = element.elements(forName: "compoundIndexes")
            .flatMap { $0.elements(forName: "compoundIndex") }
            .map { $0.elements(forName: "index").compactMap { $0.string("value") } }
        for child in element.elements(forName: "fetchIndex") {
            let indexName = try required(child, "name")
            let elements = child.elements(forName: "fetchIndexElement").compactMap { item -> FetchIndex.Element? in
                guard let property = item.string("property") else { return nil }
                return FetchIndex.Element(
                    property: property, kind: item.string("type") ?? "Binary",
                    isAscending: item.string("order") != "descending")
            }
            entity.fetchIndexes.append(FetchIndex(name: indexName, elements: elements))
        }
        return entity
    }

    func attribute(_ element: XMLElementTree.Element, entity: String) throws(ModelError) -> Attribute {
        let name = try required(element, "name")
        // Xcode writes no `attributeType` for its *Undefined* type (Wire's 1,434 transient
        // attributes, zmessaging 1.27 to 2.101): that is `.undefined`, which validation
        // accepts on transient attributes only.
        let typeName = element.string("attributeType") ?? AttributeType.undefined.rawValue
        guard let type = AttributeType(rawValue: typeName) else {
            throw ModelError(
                path: path,
                kind: .invalidValue(
                    element: "attribute '\(entity).\(name)'", attribute: "attributeType", value: typeName))
        }
        var attribute = Attribute(
            name, type,
            isOptional: element.flag("optional"),
            isTransient: element.flag("transient"),
            isIndexed: element.flag("indexed"),
            defaultValue: element.string("defaultValueString"),
            minValue: element.string("minValueString"),
            maxValue: element.string("maxValueString"),
            renamingIdentifier: element.string("elementID"),
            versionHashModifier: element.string("versionHashModifier"),
            allowsExternalBinaryDataStorage: element.flag("allowsExternalBinaryDataStorage"),
            preservesValueInHistoryOnDeletion: element.flag("preserveAfterDeletion"),
            valueTransformerName: element.string("valueTransformerName"),
            customClassName: element.string("customClassName"),
            usesScalarValueType: element.string("usesScalarValueType").map { $0 == "YES" },
            userInfo: userInfo(element))
        if type == .composite {
            let (definition, elements) = try composites.elements(
                of: element, what: "attribute '\(entity).\(name)'", enclosing: enclosingComposites, path: path
            ) { child, definition throws(ModelError) in
                var inner = self
                inner.enclosingComposites.append(definition)
                return try inner.attribute(child, entity: "\(entity).\(name)")
            }
            attribute.compositeName = definition
            attribute.elements = elements
        }
        // `derived="YES" derivationExpression="…"` (Xcode 11+): an expression Stepwise can't
        // read is kept, and validation refuses it by name.
        if element.flag("derived") {
            attribute.derivationExpression = element.string("derivationExpression") ?? ""
        }
        return attribute
    }

    func relationship(_ element: XMLElementTree.Element, entity: String) throws(ModelError) -> Relationship {
        let name = try required(element, "name")
        guard let destination = element.string("destinationEntity") else {
            throw ModelError(
                path: path,
                kind: .invalidValue(
                    element: "relationship '\(entity).\(name)'", attribute: "destinationEntity", value: nil))
        }
        let ruleName = element.string("deletionRule") ?? DeletionRule.nullify.rawValue
        guard let rule = DeletionRule(rawValue: ruleName) else {
            throw ModelError(
                path: path,
                kind: .invalidValue(
                    element: "relationship '\(entity).\(name)'", attribute: "deletionRule", value: ruleName))
        }
        let isToMany = element.flag("toMany")
        return Relationship(
            name, destination: destination,
            inverse: element.string("inverseName"),
            isToMany: isToMany,
            isOrdered: element.flag("ordered"),
            minCount: try count(element, "minCount", entity: entity) ?? 0,
            maxCount: try count(element, "maxCount", entity: entity),
            deletionRule: rule,
            isOptional: element.flag("optional"),
            isTransient: element.flag("transient"),
            renamingIdentifier: element.string("elementID"),
            versionHashModifier: element.string("versionHashModifier"),
            userInfo: userInfo(element))
    }

    private func count(_ element: XMLElementTree.Element, _ attribute: String, entity: String) throws(ModelError)
        -> Int?
    {
        guard let text = element.string(attribute) else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw ModelError(
                path: path,
                kind: .invalidValue(
                    element: "relationship '\(entity).\(element.string("name") ?? "?")'", attribute: attribute,
                    value: text))
        }
        return value
    }

    private func userInfo(_ element: XMLElementTree.Element) -> [String: String] {
        var info: [String: String] = [:]
        for entry in element.elements(forName: "userInfo").flatMap({ $0.elements(forName: "entry") }) {
            if let key = entry.string("key") { info[key] = entry.string("value") ?? "" }
        }
        return info
    }

    private func required(_ element: XMLElementTree.Element, _ attribute: String) throws(ModelError) -> String {
        guard let value = element.string(attribute), !value.isEmpty else {
            throw ModelError(
                path: path, kind: .invalidValue(element: "<\(element.name)>", attribute: attribute, value: nil))
        }
        return value
    }
}

extension XMLElementTree.Element {
    /// Whether the attribute is `YES`, as Xcode writes booleans in model files.
    fileprivate func flag(_ name: String) -> Bool {
        string(name) == "YES"
    }
}

import Foundation
import StepwiseModel

/// The objects of an `.xcmappingmodel`'s `xcmapping.xml`, as Xcode's mapping editor saved them,
/// before they are bound to model versions (``XcodeMappingModel``).
///
/// `xcmapping.xml` is a Core Data XML store of the editor's own objects: `<object type=… id="z12">`
/// elements holding `<attribute name=… type=…>value</attribute>` and
/// `<relationship name=… idrefs="z3 z7">`. Reading starts at the one `XDDEVMAPPINGMODEL` object
/// and follows its references: the files hold orphans (objects the editor left behind that no
/// mapping reaches), which must not run.
package struct XcodeMappingDocument: Sendable {
    /// An `XDDEVENTITYMAPPING`.
    package struct EntityMappingObject: Sendable {
        package var id: String
        /// `name`; nil when Xcode left it out (the mapping is then `<Source>To<Destination>`).
        package var name: String?
        /// `sourcename`; nil for a mapping that adds a destination entity.
        package var sourceName: String?
        /// `destinationname`; nil for a mapping that removes a source entity.
        package var destinationName: String?
        /// `mappingnumber`: the run order.
        package var mappingNumber: Int
        /// `migrationpolicyclassname`, nil when empty.
        package var policyClassName: String?
        /// `sourcefilterpredicatestring`: the filter on source rows.
        package var filterPredicate: String?
        /// `autogenerateexpression`: property mappings without an expression take the
        /// same-named source property, unless their own flag says otherwise.
        package var autogeneratesExpressions: Bool
        /// `sourceexpressiondata`: a custom fetch of the source rows.
        package var sourceExpressionData: Data?
        /// `userinfodata`: an archived dictionary.
        package var userInfoData: Data?
        package var attributeMappings: [PropertyMappingObject]
        package var relationshipMappings: [PropertyMappingObject]

        /// The name other mappings refer to it by.
        package var resolvedName: String {
            name ?? EntityMapping.defaultName(source: sourceName, destination: destinationName)
        }
    }

    /// An `XDDEVATTRIBUTEMAPPING` or `XDDEVRELATIONSHIPMAPPING`.
    package struct PropertyMappingObject: Sendable {
        package var id: String
        /// The destination property's name.
        package var name: String
        /// `valueexpressiondata`: an archived `NSExpression`.
        package var valueExpressionData: Data?
        /// `sourcekeypath`, e.g. `$source.country.continent`.
        package var sourceKeyPath: String?
        /// `sourcemappingname`: the entity mapping that made the destination objects of
        /// ``sourceKeyPath``.
        package var sourceMappingName: String?
        /// `autogenerateexpression`, nil when the object doesn't say.
        package var autogeneratesExpression: Bool?
    }

    /// The `.xcmappingmodel` folder.
    package var path: String
    /// `sourcemodelpath`, e.g. `Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel`.
    package var sourceModelPath: String?
    /// `destinationmodelpath`.
    package var destinationModelPath: String?
    /// `sourcemodeldata`: Xcode's archived copy of the source model.
    package var sourceModelData: Data?
    /// `destinationmodeldata`.
    package var destinationModelData: Data?
    /// The entity mappings, in `mappingnumber` order.
    package var entityMappings: [EntityMappingObject]
    /// Every object in the file.
    package var objectCount: Int
    /// The objects no reference from the mapping model reaches.
    package var orphanCount: Int

    /// Reads the `xcmapping.xml` of the `.xcmappingmodel` folder at `url`.
    /// - throws: ``MappingError`` naming the folder.
    package init(contentsOf url: URL) throws(MappingError) {
        let file = url.appendingPathComponent("xcmapping.xml")
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw MappingError(
                .invalidFile("it has no readable xcmapping.xml (\(error.localizedDescription))"), file: url.path)
        }
        do {
            try self.init(data, path: url.path)
        } catch {
            throw error.adding(file: url.path)
        }
    }

    /// Reads the XML of an `xcmapping.xml`; `path` is the folder named in errors.
    package init(_ data: Data, path: String) throws(MappingError) {
        let root: XMLElementTree.Element
        do {
            root = try XMLElementTree.parse(data, allowsDocumentType: true)
        } catch {
            throw MappingError(.invalidFile("xcmapping.xml is \(error.reason)"))
        }
        guard root.name == "database" else {
            throw MappingError(.invalidFile("xcmapping.xml is not a Core Data XML store (its root is <\(root.name)>)"))
        }
        var objects: [String: StoredObject] = [:]
        for element in root.elements(forName: "object") {
            let object = try StoredObject(element)
            guard objects.updateValue(object, forKey: object.id) == nil else {
                throw MappingError(.invalidFile("xcmapping.xml has two objects with the id '\(object.id)'"))
            }
        }
        let models = objects.values.filter { $0.type == "XDDEVMAPPINGMODEL" }.map(\.id).sorted()
        guard models.count == 1, let model = objects[models[0]] else {
            throw MappingError(
                .invalidFile("xcmapping.xml holds \(models.count) mapping model objects (XDDEVMAPPINGMODEL), not one"))
        }
        var reached: Set<String> = [model.id]
        func follow(_ object: StoredObject, _ relationship: String, type: String) throws(MappingError) -> [StoredObject]
        {
            var found: [StoredObject] = []
            for id in object.references[relationship] ?? [] {
                guard let target = objects[id], target.type == type else {
                    throw MappingError(
                        .invalidFile(
                            "object '\(object.id)' refers in '\(relationship)' to '\(id)', which is not a \(type) object of the file"
                        ))
                }
                reached.insert(id)
                found.append(target)
            }
            return found
        }
        var entityMappings: [EntityMappingObject] = []
        for object in try follow(model, "entitymappings", type: "XDDEVENTITYMAPPING") {
            func properties(_ relationship: String, type: String) throws(MappingError) -> [PropertyMappingObject] {
                var result: [PropertyMappingObject] = []
                for property in try follow(object, relationship, type: type) {
                    guard let name = property.string("name") else {
                        throw MappingError(.invalidFile("property mapping '\(property.id)' has no name"))
                    }
                    result.append(
                        PropertyMappingObject(
                            id: property.id, name: name, valueExpressionData: try property.data("valueexpressiondata"),
                            sourceKeyPath: property.string("sourcekeypath"),
                            sourceMappingName: property.string("sourcemappingname"),
                            autogeneratesExpression: try property.flag("autogenerateexpression")))
                }
                return result
            }
            let numberText = object.string("mappingnumber")
            guard let number = numberText.map({ Int($0) }) ?? Int.max else {
                throw MappingError(
                    .invalidFile("entity mapping '\(object.id)' has the mappingnumber '\(numberText ?? "")'"))
            }
            entityMappings.append(
                EntityMappingObject(
                    id: object.id, name: object.string("name"), sourceName: object.string("sourcename"),
                    destinationName: object.string("destinationname"), mappingNumber: number,
                    policyClassName: object.string("migrationpolicyclassname"),
                    filterPredicate: object.string("sourcefilterpredicatestring"),
                    autogeneratesExpressions: try object.flag("autogenerateexpression") ?? false,
                    sourceExpressionData: try object.data("sourceexpressiondata"),
                    userInfoData: try object.data("userinfodata"),
                    attributeMappings: try properties("attributemappings", type: "XDDEVATTRIBUTEMAPPING"),
                    relationshipMappings: try properties("relationshipmappings", type: "XDDEVRELATIONSHIPMAPPING")))
        }
        // The editor's order is mappingnumber; equal or missing numbers keep the file's order.
        self.entityMappings = entityMappings.enumerated()
            .sorted { ($0.element.mappingNumber, $0.offset) < ($1.element.mappingNumber, $1.offset) }
            .map(\.element)
        self.path = path
        self.sourceModelPath = model.string("sourcemodelpath")
        self.destinationModelPath = model.string("destinationmodelpath")
        self.sourceModelData = try model.data("sourcemodeldata")
        self.destinationModelData = try model.data("destinationmodeldata")
        self.objectCount = objects.count
        self.orphanCount = objects.count - reached.count
    }

    /// One `<object>` of the XML store: its typed attributes, as text, and its references.
    private struct StoredObject {
        var id: String
        var type: String
        var attributes: [String: String] = [:]
        var references: [String: [String]] = [:]

        init(_ element: XMLElementTree.Element) throws(MappingError) {
            guard let id = element.string("id"), let type = element.string("type") else {
                throw MappingError(.invalidFile("xcmapping.xml has an <object> without an id or a type"))
            }
            self.id = id
            self.type = type.uppercased()
            for attribute in element.elements(forName: "attribute") {
                guard let name = attribute.string("name") else { continue }
                attributes[name.lowercased()] = attribute.text
            }
            for relationship in element.elements(forName: "relationship") {
                guard let name = relationship.string("name") else { continue }
                references[name.lowercased()] = (relationship.string("idrefs") ?? "")
                    .split(whereSeparator: \.isWhitespace).map(String.init)
            }
        }

        /// A string attribute; an empty one reads as absent, as the editor writes "no policy".
        func string(_ name: String) -> String? {
            attributes[name].flatMap { $0.isEmpty ? nil : $0 }
        }

        /// A `bool` attribute: `1` or `0`.
        func flag(_ name: String) throws(MappingError) -> Bool? {
            guard let text = string(name)?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
            switch text {
            case "1", "YES", "true": return true
            case "0", "NO", "false": return false
            default: throw MappingError(.invalidFile("object '\(id)' has '\(text)' for the flag '\(name)'"))
            }
        }

        /// A `binary` attribute: base64, broken into lines.
        func data(_ name: String) throws(MappingError) -> Data? {
            guard let text = string(name) else { return nil }
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw MappingError(.invalidFile("object '\(id)' has '\(name)' that is not base64"))
            }
            return data
        }
    }
}

import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads one model version from Xcode's XML format (the `contents` file inside a `.xcdatamodel`).
///
/// Renames are written by Xcode as `elementID="oldName"`; they become renaming identifiers.
/// Layout (`<elements>`), configurations and fetch requests are skipped: they have no part
/// in a store's schema or version hashes.
public enum XcodeModelReader {
    /// Reads the `.xcdatamodel` folder at `url`. The version's name is the folder's name
    /// without its extension.
    public static func readVersion(at url: URL) throws(XcodeModelError) -> ObjectModel {
        let name = url.deletingPathExtension().lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw XcodeModelError(path: url.path, kind: .notFound)
        }
        guard isDirectory.boolValue else {
            throw XcodeModelError(path: url.path, kind: .notAModel)
        }
        let contents = url.appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            throw XcodeModelError(path: url.path, kind: .legacyBinaryFormat)
        }
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw XcodeModelError(path: contents.path, kind: .malformed(error.localizedDescription))
        }
        return try parse(data, versionName: name, path: contents.path)
    }

    /// Parses the XML of a `contents` file.
    /// - parameters:
    ///   - versionName: The model version's name.
    ///   - path: The file named in errors.
    public static func parse(_ data: Data, versionName: String, path: String = "<memory>") throws(XcodeModelError)
        -> ObjectModel
    {
        // One pass of XMLParser builds the element tree. XMLDocument is not used: on Linux
        // (swift-corelibs-foundation) every node it makes from parsed data retains itself and
        // its document, so each document read leaked whole; it parses in libxml2's recovery
        // mode, accepting truncated files and mismatched tags; and it crashes instead of
        // throwing on a file with no element (empty, or a NUL byte). XMLParser reports those
        // errors, and "no root element" is checked below.
        //
        // XMLParser itself traps (a force-unwrap in swift-corelibs-foundation) when libxml2
        // hands it a name that is not UTF-8, which libxml2 does after falling back to Latin-1
        // on a byte that is not UTF-8 (`<\u{FF}…`). Xcode writes model files in UTF-8, so
        // anything else is refused before parsing.
        if let offset = firstNonUTF8Offset(in: data) {
            throw XcodeModelError(
                path: path, kind: .malformed("not UTF-8 at byte offset \(offset) (Xcode writes model files in UTF-8)"))
        }
        //
        // With a delegate set, XMLParser also crashes on a processing instruction without data
        // (`<?x?>`: it takes the length of libxml2's NULL), and its DTD callbacks force-unwrap
        // what libxml2 hands them. Xcode writes neither, so both are refused before parsing.
        if let (offset, what) = firstUnsupportedMarkup(in: data) {
            throw XcodeModelError(
                path: path,
                kind: .malformed("\(what) at byte offset \(offset) (Xcode writes none in a model file)"))
        }
        let parser = XMLParser(data: data)
        let builder = ElementTreeBuilder()
        parser.delegate = builder
        if !parser.parse() || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw XcodeModelError(
                path: path,
                kind: .malformed(
                    "not well-formed XML (XML parser error \(code) at line \(parser.lineNumber), column \(parser.columnNumber))"
                ))
        }
        guard let root = builder.root else {
            throw XcodeModelError(path: path, kind: .malformed("not well-formed XML (no root element)"))
        }
        guard root.name == "model" else {
            throw XcodeModelError(path: path, kind: .malformed("the root element is not <model>"))
        }
        let reader = ElementReader(path: path)
        var entities: [Entity] = []
        for element in root.elements(forName: "entity") {
            entities.append(try reader.entity(element))
        }
        let identifier = root.string("userDefinedModelVersionIdentifier")
        let identifiers = identifier.map { $0.isEmpty ? [] : [$0] } ?? []
        return ObjectModel(versionName, versionIdentifiers: identifiers, entities: entities)
    }

    /// The first processing instruction (other than the XML declaration that may open the file)
    /// or document type declaration, outside comments and CDATA sections; nil when there is none.
    ///
    /// `<` can't appear in an attribute value, so outside comments and CDATA every `<` opens
    /// markup. An unterminated comment or section ends the scan; XMLParser reports it.
    private static func firstUnsupportedMarkup(in data: Data) -> (offset: Int, what: String)? {
        let bytes = [UInt8](data)
        func starts(_ text: [UInt8], at index: Int) -> Bool {
            bytes[index...].starts(with: text)
        }
        func end(of terminator: [UInt8], from index: Int) -> Int {
            var index = index
            while index < bytes.count, !starts(terminator, at: index) { index += 1 }
            return min(index + terminator.count, bytes.count)
        }
        let declaration = Array("<?xml".utf8)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // `<?xml` then white space: the declaration, not a processing instruction `<?xml-…?>`.
        let afterDeclaration = index + declaration.count
        if starts(declaration, at: index), afterDeclaration < bytes.count,
            [0x20, 0x09, 0x0D, 0x0A].contains(bytes[afterDeclaration])
        {
            index = end(of: Array("?>".utf8), from: afterDeclaration)
        }
        let comment = Array("<!--".utf8)
        let cdata = Array("<![CDATA[".utf8)
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            if starts(comment, at: index) {
                index = end(of: Array("-->".utf8), from: index + comment.count)
            } else if starts(cdata, at: index) {
                index = end(of: Array("]]>".utf8), from: index + cdata.count)
            } else if bytes[index + 1] == UInt8(ascii: "?") {
                return (index, "a processing instruction")
            } else if bytes[index + 1] == UInt8(ascii: "!") {
                return (index, "a document type declaration")
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The offset of the first byte that doesn't start a valid UTF-8 sequence, nil when all of
    /// `data` is UTF-8.
    private static func firstNonUTF8Offset(in data: Data) -> Int? {
        var decoder = UTF8()
        var bytes = data.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

/// An element of a `contents` file: its name, attributes and child elements. The model format
/// keeps everything in attributes, so text is not kept.
private struct ModelElement {
    var name: String
    var attributes: [String: String]
    var children: [ModelElement] = []

    /// The child elements named `name`, in document order.
    func elements(forName name: String) -> [ModelElement] {
        children.filter { $0.name == name }
    }

    /// The attribute's value, nil when the attribute is absent.
    func string(_ name: String) -> String? {
        attributes[name]
    }

    /// Whether the attribute is `YES`, as Xcode writes booleans.
    func flag(_ name: String) -> Bool {
        string(name) == "YES"
    }
}

/// Builds the ``ModelElement`` tree from XMLParser's events.
private final class ElementTreeBuilder: NSObject, XMLParserDelegate {
    /// The document's element once parsing ends; nil when it has none.
    private(set) var root: ModelElement?
    /// The open elements, outermost first.
    private var open: [ModelElement] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        open.append(ModelElement(name: elementName, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = open.popLast() else { return }
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
    }
}

/// Turns XML elements into model values, naming `path` in every error.
private struct ElementReader {
    let path: String

    func entity(_ element: ModelElement) throws(XcodeModelError) -> Entity {
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

    func attribute(_ element: ModelElement, entity: String) throws(XcodeModelError) -> Attribute {
        let name = try required(element, "name")
        let typeName = element.string("attributeType")
        guard let typeName, let type = AttributeType(rawValue: typeName) else {
            throw XcodeModelError(
                path: path,
                kind: .invalidValue(
                    element: "attribute '\(entity).\(name)'", attribute: "attributeType", value: typeName))
        }
        return Attribute(
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
            valueTransformerName: element.string("valueTransformerName"),
            customClassName: element.string("customClassName"),
            usesScalarValueType: element.string("usesScalarValueType").map { $0 == "YES" },
            userInfo: userInfo(element))
    }

    func relationship(_ element: ModelElement, entity: String) throws(XcodeModelError) -> Relationship {
        let name = try required(element, "name")
        guard let destination = element.string("destinationEntity") else {
            throw XcodeModelError(
                path: path,
                kind: .invalidValue(
                    element: "relationship '\(entity).\(name)'", attribute: "destinationEntity", value: nil))
        }
        let ruleName = element.string("deletionRule") ?? DeletionRule.nullify.rawValue
        guard let rule = DeletionRule(rawValue: ruleName) else {
            throw XcodeModelError(
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

    private func count(_ element: ModelElement, _ attribute: String, entity: String) throws(XcodeModelError) -> Int? {
        guard let text = element.string(attribute) else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw XcodeModelError(
                path: path,
                kind: .invalidValue(
                    element: "relationship '\(entity).\(element.string("name") ?? "?")'", attribute: attribute,
                    value: text))
        }
        return value
    }

    private func userInfo(_ element: ModelElement) -> [String: String] {
        var info: [String: String] = [:]
        for entry in element.elements(forName: "userInfo").flatMap({ $0.elements(forName: "entry") }) {
            if let key = entry.string("key") { info[key] = entry.string("value") ?? "" }
        }
        return info
    }

    private func required(_ element: ModelElement, _ attribute: String) throws(XcodeModelError) -> String {
        guard let value = element.string(attribute), !value.isEmpty else {
            throw XcodeModelError(
                path: path, kind: .invalidValue(element: "<\(element.name)>", attribute: attribute, value: nil))
        }
        return value
    }
}

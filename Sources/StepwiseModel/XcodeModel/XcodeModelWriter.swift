import Foundation

/// Writes a model version in Xcode's XML format, so models built in Swift open in Xcode.
///
/// Attributes are written in the order Xcode writes them, and only when they differ from
/// Xcode's defaults. Reading what this writer wrote gives back an equal ``ObjectModel``.
package enum XcodeModelWriter {
    /// The XML of a `contents` file for `model`.
    package static func contents(of model: ObjectModel) -> String {
        var lines: [String] = [#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#]
        var modelAttributes: [(String, String?)] = [
            ("type", "com.apple.IDECoreDataModeler.DataModel"),
            ("documentVersion", "1.0"),
            ("minimumToolsVersion", "Automatic"),
            ("sourceLanguage", "Swift"),
        ]
        if let identifier = model.versionIdentifiers.first {
            modelAttributes.append(("userDefinedModelVersionIdentifier", identifier))
        }
        lines.append("<model\(render(modelAttributes))>")
        for entity in model.entities {
            lines += entityLines(entity).map { "    " + $0 }
        }
        lines += compositeLines(model).map { "    " + $0 }
        for (name, members) in model.configurations.sorted(by: { $0.key < $1.key }) {
            lines.append("    <configuration\(render([("name", name)]))>")
            lines += members.map { "        <memberEntity\(render([("name", $0)]))/>" }
            lines.append("    </configuration>")
        }
        lines.append("</model>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `model` as a `.xcdatamodel` folder at `url` (created if needed).
    ///
    /// - Throws: ``ModelError`` if `model` breaks a rule of ``ObjectModel/problems()``,
    ///   before anything is written: Xcode and every reader would refuse the file.
    package static func writeVersion(_ model: ObjectModel, to url: URL) throws {
        try writeVersion(model, to: url, validating: true)
    }

    /// ``writeVersion(_:to:)``, or with `validating: false` the same without the validation:
    /// for tests that need an invalid model on disk to check how readers refuse it.
    package static func writeVersion(_ model: ObjectModel, to url: URL, validating: Bool) throws {
        if validating { try model.validate(file: contentsFile(in: url).path) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(contents(of: model).utf8).write(to: contentsFile(in: url), options: .atomic)
    }

    /// Writes a `.xcdatamodeld` bundle holding `versions`, with `current` as the current version.
    ///
    /// Every version is validated and `current` checked before anything is written, so a
    /// refusal leaves no bundle behind.
    /// - Throws: ``ModelError`` for the first invalid version, or ``ModelError``
    ///   (``ModelError/Kind/unknownVersion(_:available:)``) if no version is named `current`.
    package static func writeBundle(_ versions: [ObjectModel], current: String, to url: URL) throws {
        try writeBundle(versions, current: current, to: url, validating: true)
    }

    /// ``writeBundle(_:current:to:)``, or with `validating: false` the same without checking the
    /// versions or `current`: for tests that need an invalid bundle on disk.
    package static func writeBundle(
        _ versions: [ObjectModel], current: String, to url: URL, validating: Bool
    ) throws {
        if validating {
            for version in versions {
                try version.validate(file: contentsFile(in: versionFolder(of: version, in: url)).path)
            }
            guard versions.contains(where: { $0.name == current }) else {
                throw ModelError(
                    path: url.path, kind: .unknownVersion(current, available: versions.map(\.name)))
            }
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for version in versions {
            try writeVersion(version, to: versionFolder(of: version, in: url), validating: false)
        }
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>\(escape(current)).xcdatamodel</string>
            </dict>
            </plist>

            """
        try Data(plist.utf8).write(to: url.appendingPathComponent(".xccurrentversion"), options: .atomic)
    }

    private static func versionFolder(of version: ObjectModel, in bundle: URL) -> URL {
        bundle.appendingPathComponent("\(version.name).xcdatamodel")
    }

    private static func contentsFile(in versionFolder: URL) -> URL {
        versionFolder.appendingPathComponent("contents")
    }

    private static func entityLines(_ entity: Entity) -> [String] {
        let attributes: [(String, String?)] = [
            ("name", entity.name),
            ("representedClassName", entity.className),
            // Xcode writes isAbstract before parentEntity.
            ("isAbstract", yes(entity.isAbstract)),
            ("parentEntity", entity.parentName),
            ("elementID", entity.renamingIdentifier),
            ("versionHashModifier", entity.versionHashModifier),
            ("syncable", "YES"),
        ]
        var body: [String] = []
        for attribute in entity.attributes { body += attributeLines(attribute) }
        for relationship in entity.relationships { body += relationshipLines(relationship) }
        for index in entity.fetchIndexes {
            body.append("<fetchIndex name=\"\(escape(index.name))\">")
            for element in index.elements {
                let order = element.isAscending ? "ascending" : "descending"
                body.append(
                    "    <fetchIndexElement property=\"\(escape(element.property))\" type=\"\(escape(element.kind))\" order=\"\(order)\"/>"
                )
            }
            body.append("</fetchIndex>")
        }
        body += listLines(entity.compoundIndexes, outer: "compoundIndexes", inner: "compoundIndex", item: "index")
        body += listLines(
            entity.uniquenessConstraints, outer: "uniquenessConstraints", inner: "uniquenessConstraint",
            item: "constraint")
        body += userInfoLines(entity.userInfo)
        return element("entity", attributes, body: body)
    }

    private static func attributeLines(_ attribute: Attribute) -> [String] {
        let attributes: [(String, String?)] = [
            ("name", attribute.name),
            ("optional", yes(attribute.isOptional)),
            ("transient", yes(attribute.isTransient)),
            // Xcode leaves the type out for Undefined (transient attributes only).
            ("attributeType", attribute.type == .undefined ? nil : attribute.type.rawValue),
            ("composite", attribute.type == .composite ? compositeName(of: attribute) : nil),
            ("derived", yes(attribute.isDerived)),
            ("derivationExpression", attribute.derivationExpression),
            ("minValueString", attribute.minValue),
            ("maxValueString", attribute.maxValue),
            ("defaultValueString", attribute.defaultValue),
            ("allowsExternalBinaryDataStorage", yes(attribute.allowsExternalBinaryDataStorage)),
            ("preserveAfterDeletion", yes(attribute.preservesValueInHistoryOnDeletion)),
            ("usesScalarValueType", attribute.usesScalarValueType.map { $0 ? "YES" : "NO" }),
            ("valueTransformerName", attribute.valueTransformerName),
            ("customClassName", attribute.customClassName),
            ("indexed", yes(attribute.isIndexed)),
            ("elementID", attribute.renamingIdentifier),
            ("versionHashModifier", attribute.versionHashModifier),
            ("syncable", "YES"),
        ]
        return element("attribute", attributes, body: userInfoLines(attribute.userInfo))
    }

    /// The model-level `<composite>` definitions the model's composite attributes name (see
    /// `CompositeDefinitions`), nested ones included, the first of each name, in model order.
    private static func compositeLines(_ model: ObjectModel) -> [String] {
        var written: Set<String> = []
        var lines: [String] = []
        var pending = model.entities.flatMap(\.attributes).filter { $0.type == .composite }
        while !pending.isEmpty {
            let composite = pending.removeFirst()
            guard written.insert(compositeName(of: composite)).inserted else { continue }
            lines += element(
                "composite", [("name", compositeName(of: composite))],
                body: composite.elements.flatMap(attributeLines))
            pending += composite.elements.filter { $0.type == .composite }
        }
        return lines
    }

    /// A compiled model keeps no definition name: the attribute's own name stands in.
    private static func compositeName(of attribute: Attribute) -> String {
        attribute.compositeName ?? attribute.name
    }

    private static func relationshipLines(_ relationship: Relationship) -> [String] {
        let defaultMax = relationship.isToMany ? 0 : 1
        let attributes: [(String, String?)] = [
            ("name", relationship.name),
            ("optional", yes(relationship.isOptional)),
            ("transient", yes(relationship.isTransient)),
            ("toMany", yes(relationship.isToMany)),
            ("minCount", relationship.minCount == 0 ? nil : String(relationship.minCount)),
            // Xcode always writes maxCount="1" on a to-one.
            (
                "maxCount",
                relationship.isToOne || relationship.maxCount != defaultMax ? String(relationship.maxCount) : nil
            ),
            ("deletionRule", relationship.deletionRule.rawValue),
            ("ordered", yes(relationship.isOrdered)),
            ("destinationEntity", relationship.destination),
            ("inverseName", relationship.inverse),
            ("inverseEntity", relationship.inverse == nil ? nil : relationship.destination),
            ("elementID", relationship.renamingIdentifier),
            ("versionHashModifier", relationship.versionHashModifier),
            ("syncable", "YES"),
        ]
        return element("relationship", attributes, body: userInfoLines(relationship.userInfo))
    }

    private static func listLines(_ lists: [[String]], outer: String, inner: String, item: String) -> [String] {
        guard !lists.isEmpty else { return [] }
        var lines = ["<\(outer)>"]
        for list in lists {
            lines.append("    <\(inner)>")
            lines += list.map { "        <\(item) value=\"\(escape($0))\"/>" }
            lines.append("    </\(inner)>")
        }
        lines.append("</\(outer)>")
        return lines
    }

    private static func userInfoLines(_ info: [String: String]) -> [String] {
        guard !info.isEmpty else { return [] }
        let entries = info.keys.sorted().map { key in
            "    <entry key=\"\(escape(key))\" value=\"\(escape(info[key] ?? ""))\"/>"
        }
        return ["<userInfo>"] + entries + ["</userInfo>"]
    }

    private static func element(_ name: String, _ attributes: [(String, String?)], body: [String]) -> [String] {
        let open = "<\(name)\(render(attributes))"
        guard !body.isEmpty else { return [open + "/>"] }
        return [open + ">"] + body.map { "    " + $0 } + ["</\(name)>"]
    }

    private static func render(_ attributes: [(String, String?)]) -> String {
        attributes.compactMap { key, value in value.map { " \(key)=\"\(escape($0))\"" } }.joined()
    }

    private static func yes(_ flag: Bool) -> String? { flag ? "YES" : nil }

    private static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            default: result.append(character)
            }
        }
        return result
    }
}

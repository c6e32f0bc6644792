import Foundation
import StepwiseModel
import StepwiseStore

/// Xcode's mapping model (a `.xcmappingmodel` folder, made in Xcode's mapping editor), read as a
/// first-class mapping format beside Stepwise's JSON files (``MappingFile``).
///
/// ```swift
/// let mapping = try XcodeMappingModel.load(
///     URL(fileURLWithPath: "Model/Migration2to3.xcmappingmodel"), history: bundle.history)
/// mapping.sourceVersion        // "Model 2"
/// mapping.origin?.binding      // .modelPaths
/// ```
///
/// **What is read.** Each entity mapping's source and destination, name (`<Source>To<Destination>`
/// by default), `mappingnumber` order, policy class name (found in the ``PolicyRegistry`` with or
/// without its module prefix), filter predicate, user info and `autogenerateexpression`; each
/// property mapping's value expression (an archived `NSExpression`, see `ArchivedExpression`),
/// `sourcekeypath` and `sourcemappingname`. A property mapping without an expression takes
/// the same-named source property when its own `autogenerateexpression` (or else its entity
/// mapping's) is set; one with a `sourcekeypath` takes the destination instances of that path,
/// through `sourcemappingname` when it names one.
///
/// **Which step it belongs to.** The version names at the end of `sourcemodelpath` and
/// `destinationmodelpath`. Those paths go stale when a version file is renamed; then the copies of
/// the two models that Xcode embeds are matched by entity and property names, and failing that,
/// the one pair of versions every entity mapping fits is taken (``MappingOrigin/Binding``).
/// The mapping is then checked against the two versions: every entity and property it names
/// must exist. A mapping model that fits no pair is an error. Core Data would fall back to an
/// inferred mapping and never run the team's policy; Stepwise refuses.
public enum XcodeMappingModel {
    /// The file-name extension of a mapping model folder.
    public static let pathExtension = "xcmappingmodel"

    /// Reads the mapping model at `url` and binds it to two versions of `history`.
    /// - throws: ``MappingError`` naming the folder and, for a value Stepwise can't run, the
    ///   entity mapping, the property and the archived class.
    public static func load(_ url: URL, history: VersionHistory) throws(MappingError) -> MappingModel {
        try load(url, document: nil, history: history)
    }

    /// ``load(_:history:)`` with the document already read, when it was.
    static func load(_ url: URL, document given: XcodeMappingDocument?, history: VersionHistory) throws(MappingError)
        -> MappingModel
    {
        let document: XcodeMappingDocument
        if let given { document = given } else { document = try XcodeMappingDocument(contentsOf: url) }
        do {
            return try bind(document, history: history)
        } catch {
            throw error.adding(file: url.path)
        }
    }

    private static func readDocument(_ url: URL) throws(MappingError) -> XcodeMappingDocument {
        try XcodeMappingDocument(contentsOf: url)
    }

    /// Binds a read document to two versions, as ``load(_:history:)`` documents.
    package static func bind(_ document: XcodeMappingDocument, history: VersionHistory) throws(MappingError)
        -> MappingModel
    {
        let drafts = try document.entityMappings.map { object throws(MappingError) in try draft(object) }
        let name = URL(fileURLWithPath: document.path).deletingPathExtension().lastPathComponent
        func model(_ source: ObjectModel, _ destination: ObjectModel, _ binding: MappingOrigin.Binding)
            throws(MappingError) -> MappingModel
        {
            let mappings = try drafts.map { draft throws(MappingError) in
                try draft.checked(source: source, destination: destination)
            }
            return MappingModel(
                name: name, from: source.name, to: destination.name, entityMappings: mappings,
                origin: MappingOrigin(path: document.path, format: .xcmappingmodel, binding: binding))
        }
        // 1. The model paths' version names, as the mapping editor recorded them.
        let sourceName = document.sourceModelPath.map(versionName)
        let destinationName = document.destinationModelPath.map(versionName)
        if let source = sourceName.flatMap(history.version(named:)),
            let destination = destinationName.flatMap(history.version(named:))
        {
            return try model(source, destination, .modelPaths)
        }
        // 2. The embedded model copies, matched by their entity and property names.
        // Each version's signature is computed once, for both ends, and only when needed.
        var versionSignatures: [ModelSnapshot.Signature]?
        let snapshotMatch = { (data: Data?) -> ObjectModel? in
            guard let signature = data.flatMap(ModelSnapshot.signature(of:)) else { return nil }
            let signatures = versionSignatures ?? history.versions.map(ModelSnapshot.signature(of:))
            versionSignatures = signatures
            let matches = zip(history.versions, signatures).filter { $0.1 == signature }.map(\.0)
            return matches.count == 1 ? matches[0] : nil
        }
        if let source = snapshotMatch(document.sourceModelData),
            let destination = snapshotMatch(document.destinationModelData), source.name != destination.name
        {
            return try model(source, destination, .modelSnapshots)
        }
        // 3. The one pair of versions every entity mapping fits: consecutive pairs first.
        let versions = history.versions
        let consecutive = zip(versions.indices, versions.indices.dropFirst()).map { ($0, $1) }
        let forward = versions.indices.flatMap { i in versions.indices.filter { $0 > i + 1 }.map { (i, $0) } }
        var closest: (fitting: Int, pair: String, error: MappingError)?
        for candidates in [consecutive, forward] {
            var fits: [MappingModel] = []
            for (i, j) in candidates {
                do {
                    fits.append(try model(versions[i], versions[j], .entityMappings))
                } catch {
                    let fitting = drafts.prefix {
                        (try? $0.checked(source: versions[i], destination: versions[j])) != nil
                    }
                    .count
                    if fitting > (closest?.fitting ?? -1) {
                        closest = (fitting, "'\(versions[i].name)' → '\(versions[j].name)'", error)
                    }
                }
            }
            if fits.count == 1 { return fits[0] }
            if fits.count > 1 {
                let pairs = fits.prefix(4).map { "'\($0.sourceVersion)' → '\($0.destinationVersion)'" }
                throw MappingError(
                    .noMatchingVersions(
                        "its model paths (\(describe(sourceName)) → \(describe(destinationName))) name no versions of the bundle, and its entity mappings fit \(fits.count) pairs of versions (\(pairs.joined(separator: ", "))\(fits.count > 4 ? ", …" : "")). In Xcode, select the mapping model and set its source and destination models to the versions it maps between."
                    ))
            }
        }
        let closestText = closest.map { " The closest pair is \($0.pair): \($0.error)." } ?? ""
        throw MappingError(
            .noMatchingVersions(
                "it fits no pair of model versions: its model paths name \(describe(sourceName)) → \(describe(destinationName)), which the bundle doesn't have both of, its embedded model copies match no version, and no pair of versions has every entity and property its entity mappings name.\(closestText) Set the mapping model's source and destination models in Xcode, or remove the mapping model."
            ))
    }

    /// The version name at the end of a model path: `…/Moody.xcdatamodeld/Moody 2.xcdatamodel` → `Moody 2`.
    static func versionName(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : last
    }

    /// The bundle named in a model path (`Moody` for `…/Moody.xcdatamodeld/Moody 2.xcdatamodel`), if any.
    static func bundleName(_ path: String) -> String? {
        let components = path.split(separator: "/").map(String.init)
        guard components.count >= 2, components[components.count - 2].hasSuffix(".xcdatamodeld") else { return nil }
        return String(components[components.count - 2].dropLast(".xcdatamodeld".count))
    }

    private static func describe(_ name: String?) -> String {
        name.map { "'\($0)'" } ?? "nothing"
    }

    /// An entity mapping object as a draft for the shared check (``EntityMappingDraft``).
    static func draft(_ object: XcodeMappingDocument.EntityMappingObject) throws(MappingError) -> EntityMappingDraft {
        let name = object.resolvedName
        func fail(_ error: MappingError, property: String? = nil) -> MappingError {
            error.adding(
                entityMapping: name, entity: object.destinationName ?? object.sourceName, property: property)
        }
        if object.sourceExpressionData != nil, !object.autogeneratesExpressions {
            throw fail(
                MappingError(
                    .unsupportedExpression(
                        className: "NSFetchRequestExpression",
                        reason: "a custom source fetch; use a filter predicate on the entity mapping instead")))
        }
        var userInfo: [String: String] = [:]
        if let data = object.userInfoData {
            do {
                userInfo = try ArchivedDictionary.strings(data)
            } catch {
                throw fail(error, property: "userInfo")
            }
        }
        func values(_ properties: [XcodeMappingDocument.PropertyMappingObject]) throws(MappingError)
            -> [String: EntityMappingDraft.Value]
        {
            var values: [String: EntityMappingDraft.Value] = [:]
            for property in properties {
                guard values[property.name] == nil else {
                    throw fail(
                        MappingError(.invalidFile("the property is mapped twice (objects of the same name)")),
                        property: property.name)
                }
                do {
                    values[property.name] = try value(
                        property, autogenerates: property.autogeneratesExpression ?? object.autogeneratesExpressions)
                } catch {
                    throw fail(error, property: property.name)
                }
            }
            return values
        }
        return EntityMappingDraft(
            name: object.name, kind: nil, source: object.sourceName, destination: object.destinationName,
            filter: object.filterPredicate, policy: object.policyClassName, copyMatchingProperties: false,
            attributes: try values(object.attributeMappings), relationships: try values(object.relationshipMappings),
            userInfo: userInfo)
    }

    /// A property mapping's value: its archived expression; else its source key path, through
    /// its source mapping name; else, when autogenerated, the same-named source property.
    private static func value(_ property: XcodeMappingDocument.PropertyMappingObject, autogenerates: Bool)
        throws(MappingError) -> EntityMappingDraft.Value
    {
        if let data = property.valueExpressionData {
            return .expression(try ArchivedExpression.decode(data))
        }
        if property.sourceKeyPath != nil || property.sourceMappingName != nil {
            let path = try sourcePath(property.sourceKeyPath ?? property.name)
            guard let mappingName = property.sourceMappingName else { return .expression(path) }
            return .expression(
                .function(
                    target: .variable(.manager), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                    arguments: [.constant(.string(mappingName)), path]))
        }
        return autogenerates ? .sameNamedSourceProperty : .unset
    }

    /// A `sourcekeypath` as an expression: `$source.country.continent`, or a bare path taken
    /// from `$source`.
    private static func sourcePath(_ text: String) throws(MappingError) -> Expression {
        let expression = try ExpressionParser.parseExpression(text)
        switch expression {
        case .keyPath(.evaluatedObject, let path) where !path.isEmpty:
            return .keyPath(root: .source, path: path)
        case .keyPath(.source, _):
            return expression
        default:
            throw MappingError(.invalidValue("the source key path '\(text)' is not a key path from $source"))
        }
    }
}

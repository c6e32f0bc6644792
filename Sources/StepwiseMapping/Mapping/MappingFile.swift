import Foundation
import StepwiseModel

/// Stepwise's declarative mapping file: one JSON file per mapping model, kept beside the
/// model bundle in `Versions/<Name>.mappings/`.
///
/// ```json
/// {
///   "source": "Recipes",
///   "destination": "Recipes 2",
///   "entityMappings": [
///     {
///       "name": "ChefToChef",
///       "source": "Chef",
///       "destination": "Chef",
///       "policy": "ChefNamePolicy",
///       "attributes": {
///         "firstName": "FUNCTION($entityPolicy, \"firstNameOf:\", $source.name)",
///         "lastName": "FUNCTION($entityPolicy, \"lastNameOf:\", $source.name)"
///       }
///     },
///     {
///       "source": "Recipe",
///       "destination": "Recipe",
///       "filter": "name != nil",
///       "relationships": {
///         "chef": "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"ChefToChef\", $source.chef)"
///       }
///     }
///   ]
/// }
/// ```
///
/// Keys of an entity mapping:
/// - `source`, `destination`: entity names; leave one out for an *add* or *remove* mapping.
/// - `name`: defaults to `<Source>To<Destination>`, as Xcode names mappings.
/// - `kind`: `add`, `remove`, `copy`, `transform` or `custom`; deduced when left out.
/// - `filter`: a predicate on the source rows (`name != nil AND rating > 2`).
/// - `policy`: the name of a registered ``EntityMigrationPolicy``.
/// - `attributes`, `relationships`: destination property → value expression.
/// - `copyMatchingProperties` (default `true`): destination properties not listed get the
///   same-named source property (`$source.<name>`), like Xcode's generated mappings.
/// - `userInfo`: strings for policies.
///
/// Top-level keys: `source` and `destination` version names, an optional `name`, and an
/// optional `order` when several files make one step (they run in `order`, then file-name order).
package enum MappingFile {
    /// Reads a mapping file and checks it against the two model versions.
    /// - throws: ``MappingError`` naming the file and, for bad expressions, the entity
    ///   mapping, property, line and column.
    package static func load(_ url: URL, source: ObjectModel, destination: ObjectModel) throws -> MappingModel {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MappingError(.invalidFile("can't read it: \(error.localizedDescription)"), file: url.path)
        }
        do {
            var model = try decode(data, source: source, destination: destination)
            model.origin = MappingOrigin(path: url.path, format: .json, binding: .fileHeader)
            return model
        } catch let error as MappingError {
            throw error.adding(file: url.path)
        }
    }

    /// The versions a mapping file connects and its order, without checking the rest.
    package static func header(of url: URL) throws -> (source: String, destination: String, order: Int) {
        do {
            let header = try JSONDecoder().decode(Header.self, from: Data(contentsOf: url))
            return (header.source, header.destination, header.order ?? 0)
        } catch {
            throw MappingError(.invalidFile(describe(error)), file: url.path)
        }
    }

    /// Decodes and checks a mapping file's JSON.
    package static func decode(_ data: Data, source: ObjectModel, destination: ObjectModel) throws -> MappingModel {
        let file: FileModel
        do {
            file = try JSONDecoder().decode(FileModel.self, from: data)
        } catch {
            throw MappingError(.invalidFile(describe(error)))
        }
        guard file.source == source.name, file.destination == destination.name else {
            throw MappingError(
                .invalidFile(
                    "it maps '\(file.source)' → '\(file.destination)', not '\(source.name)' → '\(destination.name)'"))
        }
        let mappings = try file.entityMappings.map { try $0.draft.checked(source: source, destination: destination) }
        return MappingModel(name: file.name, from: source.name, to: destination.name, entityMappings: mappings)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.debugDescription) at \(path(context))"
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON: \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            // Valid JSON with a value the format doesn't accept, such as an unknown `kind`.
            return "\(context.debugDescription) at \(path(context))"
        default:
            return "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "the top level" : text
    }

    private struct Header: Decodable {
        var source: String
        var destination: String
        var order: Int?
    }

    /// The file's JSON shape, read by ``decode(_:source:destination:)`` and written by
    /// ``encode(_:source:destination:)``; absent keys are nil and are not written.
    struct FileModel: Codable {
        var name: String?
        var source: String
        var destination: String
        var order: Int?
        var entityMappings: [FileEntityMapping]
    }

    /// One entity mapping of ``FileModel``.
    struct FileEntityMapping: Codable {
        var name: String?
        var kind: EntityMapping.Kind?
        var source: String?
        var destination: String?
        var filter: String?
        var policy: String?
        var copyMatchingProperties: Bool?
        var attributes: [String: String]?
        var relationships: [String: String]?
        var userInfo: [String: String]?

        var draft: EntityMappingDraft {
            EntityMappingDraft(
                name: name, kind: kind, source: source, destination: destination, filter: filter, policy: policy,
                copyMatchingProperties: copyMatchingProperties ?? true,
                attributes: (attributes ?? [:]).mapValues { .text($0) },
                relationships: (relationships ?? [:]).mapValues { .text($0) }, userInfo: userInfo ?? [:])
        }
    }
}

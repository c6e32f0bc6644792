import Foundation
import StepwiseModel
import StepwiseStore

/// The objects of a compiled mapping model (a `.cdm` file, which Xcode compiles from an
/// `.xcmappingmodel` into the app), before they are bound to model versions
/// (``CompiledMappingModel``).
///
/// A `.cdm` is an `NSKeyedArchiver` binary property list, read as data (``KeyedArchive``),
/// never unarchived. Its root is an `NSMappingModel`:
///
/// | class | keys read |
/// |---|---|
/// | `NSMappingModel` | `NSEntityMappings` (an array, in run order); `NSEntityMappingsByName` is the same objects by name |
/// | `NSEntityMapping` | `NSMappingName`, `NSMappingType`, `NSSourceEntityName`, `NSDestinationEntityName`, `NSSourceEntityVersionHash`, `NSDestinationEntityVersionHash` (32 bytes each), `NSSourceExpression`, `NSEntityMigrationPolicyClassName`, `NSUserInfo`, `NSAttributeMappings`, `NSRelationshipMappings` |
/// | `NSPropertyMapping` | `NSDestinationPropertyName`, `NSValueExpression` (`$null`: no value), `NSPropertyTransforms` (must be `$null`) |
///
/// Value expressions are objects of the same archive, decoded by ``ArchivedExpression``, as an
/// `.xcmappingmodel`'s are. A property mapping's `NSUserInfo` is not read, as the
/// `.xcmappingmodel` reader doesn't read one, so that both forms of one mapping read alike.
package struct CompiledMappingDocument: Sendable {
    /// An `NSEntityMapping`.
    package struct EntityMappingObject: Sendable {
        /// `NSMappingName`: the name other mappings refer to it by.
        package var name: String
        /// `NSMappingType`: 0 undefined, 1 custom, 2 add, 3 remove, 4 copy, 5 transform.
        package var type: Int64
        /// `NSSourceEntityName`; nil for a mapping that adds a destination entity.
        package var sourceName: String?
        /// `NSDestinationEntityName`; nil for a mapping that removes a source entity.
        package var destinationName: String?
        /// `NSSourceEntityVersionHash`: the source entity's version hash, as the source model
        /// had it when Xcode compiled the mapping.
        package var sourceHash: Data?
        /// `NSDestinationEntityVersionHash`.
        package var destinationHash: Data?
        /// `NSSourceExpression`: how the source rows are fetched.
        package var sourceFetch: SourceFetch
        /// `NSEntityMigrationPolicyClassName`, nil when absent or empty.
        package var policyClassName: String?
        /// `NSUserInfo`.
        package var userInfo: [String: String]
        package var attributeMappings: [PropertyMappingObject]
        package var relationshipMappings: [PropertyMappingObject]
    }

    /// What an entity mapping's `NSSourceExpression` fetches.
    package enum SourceFetch: Sendable, Hashable {
        /// `$null`: nothing, as an add mapping has.
        case none
        /// The default fetch Xcode compiles: `FETCH(FUNCTION($manager,
        /// "fetchRequestForSourceEntityNamed:predicateString:", "<source>", "<predicate>"),
        /// $manager.sourceContext, NO)`, where the predicate is the entity mapping's filter
        /// (`TRUEPREDICATE` when it has none, read as nil).
        case entity(filter: String?)
        /// Any other expression: a fetch the team wrote itself, named by its class.
        case custom(className: String)
    }

    /// An `NSPropertyMapping`.
    package struct PropertyMappingObject: Sendable {
        /// `NSDestinationPropertyName`.
        package var name: String
        /// `NSValueExpression`, decoded; nil when `$null`.
        package var value: Expression?
    }

    /// The selector of the function the default source fetch calls.
    static let sourceFetchSelector = "fetchRequestForSourceEntityNamed:predicateString:"
    /// The predicate string of a default fetch without a filter.
    static let noFilter = "TRUEPREDICATE"
    /// The length of an entity version hash (SHA-256).
    static let hashLength = 32

    /// The file read.
    package var path: String
    /// The entity mappings, in run order (`NSEntityMappings`).
    package var entityMappings: [EntityMappingObject]

    /// Reads the `.cdm` file at `url`.
    /// - throws: ``MappingError`` naming the file.
    package init(contentsOf url: URL) throws(MappingError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MappingError(
                .invalidFile("it can't be read as a compiled mapping model (\(error.localizedDescription))"),
                file: url.path)
        }
        do {
            try self.init(data, path: url.path)
        } catch {
            throw error.adding(file: url.path)
        }
    }

    /// Reads the bytes of a `.cdm`; `path` is the file named in errors.
    /// - throws: ``MappingError`` naming the entity mapping and property at fault.
    package init(_ data: Data, path: String) throws(MappingError) {
        self.path = path
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data)
        } catch {
            throw MappingError(
                .unreadableArchive(
                    "it is not a compiled mapping model (\(error.reason)); compile the .xcmappingmodel again in Xcode, or remove the file"
                ))
        }
        let reader = Reader(archive: archive)
        guard let rootUID = archive.top["root"], let root = try reader.object(rootUID) else {
            throw MappingError(.unreadableArchive("the archive has no root object"))
        }
        guard root.className == "NSMappingModel" else {
            throw MappingError(
                .unreadableArchive(
                    "its root is an archived \(root.className), not an NSMappingModel: it is not a compiled mapping model"
                ))
        }
        var entityMappings: [EntityMappingObject] = []
        for uid in try reader.list(root, "NSEntityMappings") {
            entityMappings.append(try reader.entityMapping(uid))
        }
        var names: Set<String> = []
        for mapping in entityMappings where !names.insert(mapping.name).inserted {
            throw MappingError(.invalidFile("two entity mappings are named '\(mapping.name)'"))
        }
        self.entityMappings = entityMappings
    }

    /// Whether `data` is a compiled mapping model: a keyed archive whose root is an
    /// `NSMappingModel`. How a file given under another name (`Model.cdm_precompiled`) is known.
    package static func isCompiledMappingModel(_ data: Data) -> Bool {
        guard data.starts(with: Array("bplist00".utf8)), let archive = try? KeyedArchive(data),
            let root = archive.top["root"], let object = (try? archive.object(root)) ?? nil
        else { return false }
        return object.className == "NSMappingModel"
    }

    /// Walks the archive's objects by class name and key.
    private struct Reader {
        let archive: KeyedArchive

        func entityMapping(_ uid: Int) throws(MappingError) -> EntityMappingObject {
            guard let object = try object(uid), object.className == "NSEntityMapping" else {
                throw MappingError(.invalidFile("NSEntityMappings holds something that is not an NSEntityMapping"))
            }
            guard let name = try string(object, "NSMappingName"), !name.isEmpty else {
                throw MappingError(.invalidFile("an entity mapping has no NSMappingName"))
            }
            let sourceName = try string(object, "NSSourceEntityName")
            let destinationName = try string(object, "NSDestinationEntityName")
            func fail(_ error: MappingError, property: String? = nil) -> MappingError {
                error.adding(entityMapping: name, entity: destinationName ?? sourceName, property: property)
            }
            guard case .integer(let type)? = object.fields["NSMappingType"], (0...5).contains(type) else {
                throw fail(
                    MappingError(
                        .invalidFile(
                            "its NSMappingType is \(describe(object.fields["NSMappingType"])), not one Core Data defines (0 to 5)"
                        )))
            }
            guard sourceName != nil || destinationName != nil else {
                throw fail(MappingError(.invalidFile("it names neither a source nor a destination entity")))
            }
            do {
                return EntityMappingObject(
                    name: name, type: type, sourceName: sourceName, destinationName: destinationName,
                    sourceHash: try hash(object, "NSSourceEntityVersionHash", entity: sourceName),
                    destinationHash: try hash(object, "NSDestinationEntityVersionHash", entity: destinationName),
                    sourceFetch: try sourceFetch(object, sourceName: sourceName),
                    policyClassName: try string(object, "NSEntityMigrationPolicyClassName").flatMap {
                        $0.isEmpty ? nil : $0
                    },
                    userInfo: try userInfo(object),
                    attributeMappings: try propertyMappings(object, "NSAttributeMappings"),
                    relationshipMappings: try propertyMappings(object, "NSRelationshipMappings"))
            } catch {
                throw fail(error)
            }
        }

        private func userInfo(_ object: KeyedArchive.Object) throws(MappingError) -> [String: String] {
            guard let field = object.fields["NSUserInfo"] else { return [:] }
            guard case .uid(let uid) = field else {
                throw MappingError(.invalidFile("its NSUserInfo is not a reference to a dictionary"))
            }
            do {
                return try ArchivedDictionary.strings(uid, in: archive)
            } catch {
                throw error.adding(property: "userInfo")
            }
        }

        /// A 32-byte version hash, present exactly when its entity is named.
        private func hash(_ object: KeyedArchive.Object, _ key: String, entity: String?) throws(MappingError) -> Data? {
            guard case .uid(let uid)? = object.fields[key], let value = try value(uid) else {
                guard entity == nil else {
                    throw MappingError(.invalidFile("it names the entity '\(entity ?? "")' without its \(key)"))
                }
                return nil
            }
            guard case .data(let data) = value, data.count == CompiledMappingDocument.hashLength else {
                throw MappingError(
                    .invalidFile("its \(key) is not a \(CompiledMappingDocument.hashLength)-byte entity version hash"))
            }
            return data
        }

        /// The source fetch: the default one when it has exactly the default's shape.
        private func sourceFetch(_ object: KeyedArchive.Object, sourceName: String?) throws(MappingError) -> SourceFetch
        {
            guard case .uid(let uid)? = object.fields["NSSourceExpression"], let fetch = try self.object(uid) else {
                guard sourceName == nil else {
                    // Xcode compiles a fetch for every mapping with a source entity; what Core
                    // Data would do without one is not known, so it isn't guessed.
                    throw MappingError(
                        .invalidFile(
                            "it maps the source entity '\(sourceName ?? "")' but has no source fetch (NSSourceExpression); compile the mapping model again in Xcode"
                        ))
                }
                return .none
            }
            let custom = SourceFetch.custom(className: fetch.className)
            guard fetch.className == "NSFetchRequestExpression", let sourceName,
                case .bool(false)? = fetch.fields["NSCountOnlyFlag"],
                case .uid(let requestUID)? = fetch.fields["NSFRExpression"],
                case .uid(let contextUID)? = fetch.fields["NSMOCExpression"],
                let request = try? ArchivedExpression.decode(requestUID, in: archive),
                let context = try? ArchivedExpression.decode(contextUID, in: archive),
                context == .keyPath(root: .manager, path: ["sourceContext"]),
                case .function(.keyPath(.manager, []), CompiledMappingDocument.sourceFetchSelector, let arguments) =
                    request,
                arguments.count == 2, arguments[0] == .constant(.string(sourceName)),
                case .constant(.string(let predicate)) = arguments[1]
            else { return custom }
            let trimmed = predicate.trimmingCharacters(in: .whitespacesAndNewlines)
            return .entity(filter: trimmed == CompiledMappingDocument.noFilter || trimmed.isEmpty ? nil : predicate)
        }

        private func propertyMappings(_ object: KeyedArchive.Object, _ key: String) throws(MappingError)
            -> [PropertyMappingObject]
        {
            var result: [PropertyMappingObject] = []
            for uid in try list(object, key) {
                guard let property = try self.object(uid), property.className == "NSPropertyMapping" else {
                    throw MappingError(.invalidFile("\(key) holds something that is not an NSPropertyMapping"))
                }
                guard let name = try string(property, "NSDestinationPropertyName"), !name.isEmpty else {
                    throw MappingError(.invalidFile("a property mapping of \(key) has no NSDestinationPropertyName"))
                }
                guard !result.contains(where: { $0.name == name }) else {
                    throw MappingError(.invalidFile("the property is mapped twice"), property: name)
                }
                if case .uid(let transforms)? = property.fields["NSPropertyTransforms"], try value(transforms) != nil {
                    throw MappingError(
                        .unsupportedExpression(
                            className: "NSPropertyTransform", reason: "property transforms; use a value expression"),
                        property: name)
                }
                var value: Expression?
                if case .uid(let expression)? = property.fields["NSValueExpression"], try self.value(expression) != nil
                {
                    do {
                        value = try ArchivedExpression.decode(expression, in: archive)
                    } catch {
                        throw error.adding(property: name)
                    }
                }
                result.append(PropertyMappingObject(name: name, value: value))
            }
            return result
        }

        /// The UIDs of the array under `key`; none when the key is absent or `$null`.
        func list(_ object: KeyedArchive.Object, _ key: String) throws(MappingError) -> [Int] {
            guard let field = object.fields[key] else { return [] }
            guard case .uid(let uid) = field else {
                throw MappingError(.invalidFile("\(object.className).\(key) is not a reference to an array"))
            }
            guard let list = try self.object(uid) else { return [] }
            guard ["NSArray", "NSMutableArray"].contains(list.className) else {
                throw MappingError(
                    .invalidFile("\(object.className).\(key) is an archived \(list.className), not an array"))
            }
            return try read { () throws(BinaryPropertyList.FormatError) in try archive.elements(of: list) }
        }

        /// The string under `key`; nil when the key is absent or `$null`.
        private func string(_ object: KeyedArchive.Object, _ key: String) throws(MappingError) -> String? {
            guard let field = object.fields[key] else { return nil }
            guard case .uid(let uid) = field else {
                throw MappingError(.invalidFile("\(object.className).\(key) is not a reference to a string"))
            }
            switch try value(uid) {
            case nil: return nil
            case .string(let text)?: return text
            case .dictionary?:
                // A string archived as an object (NSString, NSMutableString).
                guard let archived = try self.object(uid), case .uid(let textUID)? = archived.fields["NS.string"],
                    case .string(let text)? = try value(textUID)
                else {
                    throw MappingError(.invalidFile("\(object.className).\(key) is not a string"))
                }
                return text
            default:
                throw MappingError(.invalidFile("\(object.className).\(key) is not a string"))
            }
        }

        func object(_ uid: Int) throws(MappingError) -> KeyedArchive.Object? {
            try read { () throws(BinaryPropertyList.FormatError) in try archive.object(uid) }
        }

        private func value(_ uid: Int) throws(MappingError) -> BinaryPropertyList.Value? {
            try read { () throws(BinaryPropertyList.FormatError) in try archive.value(uid) }
        }

        private func describe(_ value: BinaryPropertyList.Value?) -> String {
            switch value {
            case nil: return "missing"
            case .integer(let number)?: return String(number)
            default: return "not a number"
            }
        }

        private func read<T>(_ body: () throws(BinaryPropertyList.FormatError) -> T) throws(MappingError) -> T {
            do {
                return try body()
            } catch {
                throw MappingError(.unreadableArchive(error.reason))
            }
        }
    }
}

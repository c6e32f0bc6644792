import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Writes a model as Core Data keeps it in a store's `Z_MODELCACHE`: the `NSKeyedArchiver`
/// archive of an `NSManagedObjectModel`, raw-deflated. A test store written with it is matched
/// by its own model cache (`StoreIdentification.MatchKind.modelCache`) with no Core Data and no
/// corpus store.
///
/// It writes what `CompiledModel` reads and the entity hashes depend on (the keys are listed
/// there): entities with their parent, abstract flag, renaming identifier and hash modifier;
/// attributes with their type, flags, renaming identifier and hash modifier; relationships with
/// their destination, inverse, counts, order and delete rule; uniqueness constraints and
/// composite attributes, as a SwiftData store's cache has them. Left out, because no test of it
/// needs them: default values, user info, indexes and derived attributes. A sub-entity
/// archives only its own properties: Core Data archives the inherited ones too (as proxies or
/// copies), and the reader skips them.
///
/// ```swift
/// try StoreCreator.createStore(at: url, model: cached)
/// try DatabaseQueue(path: url.path).write { db in try ModelCacheArchive.write(cached, into: db) }
/// ```
package enum ModelCacheArchive {
    typealias Value = BinaryPropertyList.Value

    /// Creates `Z_MODELCACHE` as Core Data does and stores `model` in it.
    package static func write(_ model: ObjectModel, into db: Database) throws {
        try db.execute(sql: #"CREATE TABLE "Z_MODELCACHE" ("Z_CONTENT" BLOB)"#)
        try db.execute(sql: #"INSERT INTO "Z_MODELCACHE" VALUES (?)"#, arguments: [content(of: model)])
    }

    /// The `Z_CONTENT` of `model`: its archive, raw-deflated in "stored" blocks (RFC 1951
    /// §3.2.4, no compression), each at most 65,535 bytes, the last marked final.
    package static func content(of model: ObjectModel) -> Data {
        let archive = archive(of: model)
        var content = Data()
        var start = archive.startIndex
        repeat {
            let end = min(start + 0xFFFF, archive.endIndex)
            let length = UInt16(end - start)
            let isFinal: UInt8 = end == archive.endIndex ? 1 : 0
            content.append(
                contentsOf: [
                    isFinal, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8),
                ])
            content.append(archive[start..<end])
            start = end
        } while start < archive.endIndex
        return content
    }

    /// The keyed archive of `model` (a binary property list), as a `.mom` file holds it.
    package static func archive(of model: ObjectModel) -> Data {
        var builder = Builder()
        // Entities refer to their parent by object: number them all before writing any.
        let slots = Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, builder.reserve()) })
        var entities: [(String, Value)] = []
        for entity in model.entities {
            guard let slot = slots[entity.name] else { continue }
            let archived = builder.entity(entity, parent: entity.parentName.flatMap { slots[$0] })
            builder.fill(slot, with: archived)
            entities.append((entity.name, .uid(slot)))
        }
        // `""` when the model sets no identifier, as Xcode writes it.
        var identifiers: [Value] = []
        for identifier in model.versionIdentifiers.isEmpty ? [""] : model.versionIdentifiers {
            identifiers.append(builder.string(identifier))
        }
        let entityDictionary = builder.dictionary(entities)
        let identifierSet = builder.object("NSSet", ["NS.objects": .array(identifiers)])
        let root = builder.object(
            "NSManagedObjectModel", ["NSEntities": entityDictionary, "NSVersionIdentifiers": identifierSet])
        return BinaryPropertyList.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
                "$top": .dictionary(["root": root]), "$objects": .array(builder.objects),
            ]))
    }

    /// The archive's `$objects`, built one object at a time; each call returns a reference.
    private struct Builder {
        /// Object 0 is `$null`, as in every keyed archive.
        var objects: [Value] = [.string("$null")]
        var classes: [String: Int] = [:]

        mutating func reserve() -> Int {
            objects.append(.null)
            return objects.count - 1
        }

        mutating func fill(_ slot: Int, with value: Value) {
            objects[slot] = value
        }

        mutating func add(_ value: Value) -> Value {
            objects.append(value)
            return .uid(objects.count - 1)
        }

        mutating func string(_ text: String) -> Value {
            add(.string(text))
        }

        /// An archived object's fields, its class description written once per class.
        mutating func fields(_ className: String, _ fields: [String: Value]) -> Value {
            let classUID: Int
            if let known = classes[className] {
                classUID = known
            } else {
                objects.append(
                    .dictionary([
                        "$classname": .string(className),
                        "$classes": .array([.string(className), .string("NSObject")]),
                    ]))
                classUID = objects.count - 1
                classes[className] = classUID
            }
            var all = fields
            all["$class"] = .uid(classUID)
            return .dictionary(all)
        }

        mutating func object(_ className: String, _ fields: [String: Value]) -> Value {
            add(self.fields(className, fields))
        }

        mutating func dictionary(_ entries: [(String, Value)]) -> Value {
            let keys = entries.map { string($0.0) }
            return object("NSDictionary", ["NS.keys": .array(keys), "NS.objects": .array(entries.map(\.1))])
        }

        mutating func entity(_ entity: Entity, parent: Int?) -> Value {
            var properties: [(String, Value)] = []
            for attribute in entity.attributes {
                let archived = self.attribute(attribute)
                properties.append((attribute.name, archived))
            }
            for relationship in entity.relationships {
                let archived = self.relationship(relationship)
                properties.append((relationship.name, archived))
            }
            let name = string(entity.name)
            let propertyDictionary = dictionary(properties)
            // Always written: the entity's own name unless it was renamed.
            let renamingIdentifier = string(entity.renamingIdentifier ?? entity.name)
            var fields: [String: Value] = [
                "NSEntityName": name, "NSProperties": propertyDictionary, "NSRenamingIdentifier": renamingIdentifier,
            ]
            if let parent { fields["NSSuperentity"] = .uid(parent) }
            if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
            if let modifier = entity.versionHashModifier { fields["NSVersionHashModifier"] = string(modifier) }
            if !entity.uniquenessConstraints.isEmpty {
                // Arrays of property names, as a SwiftData store's cache keeps `@Attribute(.unique)`.
                let tuples = entity.uniquenessConstraints.map { names in array(names.map { string($0) }) }
                fields["NSUniqueTuples"] = array(tuples)
            }
            return self.fields("NSEntityDescription", fields)
        }

        mutating func array(_ values: [Value]) -> Value {
            object("NSArray", ["NS.objects": .array(values)])
        }

        mutating func attribute(_ attribute: Attribute) -> Value {
            var fields = propertyFields(
                attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
                renamingIdentifier: attribute.renamingIdentifier, versionHashModifier: attribute.versionHashModifier)
            fields["NSAttributeType"] = .integer(Int64(attribute.type.versionHashCode))
            // Bit 2 (4): external storage; bit 4 (16): preserved after deletion (`CompiledModelReader`).
            let flags =
                (attribute.allowsExternalBinaryDataStorage ? 4 : 0)
                + (attribute.preservesValueInHistoryOnDeletion ? 16 : 0)
            if flags != 0 { fields["NSFlagsKey"] = .integer(Int64(flags)) }
            if attribute.isIndexed { fields["NSIsIndexed"] = .bool(true) }
            if let transformer = attribute.valueTransformerName {
                fields["NSValueTransformerName"] = string(transformer)
            }
            if attribute.type == .composite {
                // Its elements, in order (`-[NSCompositeAttributeDescription encodeWithCoder:]`).
                let elements = attribute.elements.map { self.attribute($0) }
                fields["NSCompositeElements"] = array(elements)
                return object("NSCompositeAttributeDescription", fields)
            }
            return object("NSAttributeDescription", fields)
        }

        mutating func relationship(_ relationship: Relationship) -> Value {
            var fields = propertyFields(
                relationship.name, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
                renamingIdentifier: relationship.renamingIdentifier,
                versionHashModifier: relationship.versionHashModifier)
            fields["_NSDestinationEntityName"] = string(relationship.destination)
            if let inverse = relationship.inverse { fields["_NSInverseRelationshipName"] = string(inverse) }
            fields["NSMinCount"] = .integer(Int64(relationship.minCount))
            // Core Data's rule, as the reader applies it: to-one exactly when the maximum is 1.
            fields["NSMaxCount"] = .integer(Int64(relationship.isToMany ? relationship.maxCount : 1))
            if relationship.isOrdered { fields["NSIsOrdered"] = .bool(true) }
            let rule: Int64
            switch relationship.deletionRule {
            case .noAction: rule = 0
            case .nullify: rule = 1
            case .cascade: rule = 2
            case .deny: rule = 3
            }
            fields["NSDeleteRule"] = .integer(rule)
            return object("NSRelationshipDescription", fields)
        }

        mutating func propertyFields(
            _ name: String, isOptional: Bool, isTransient: Bool, renamingIdentifier: String?,
            versionHashModifier: String?
        ) -> [String: Value] {
            let archivedName = string(name)
            let archivedIdentifier = string(renamingIdentifier ?? name)
            var fields: [String: Value] = ["NSPropertyName": archivedName, "NSRenamingIdentifier": archivedIdentifier]
            // Flags are written only when set.
            if isOptional { fields["NSIsOptional"] = .bool(true) }
            if isTransient { fields["NSIsTransient"] = .bool(true) }
            if let modifier = versionHashModifier { fields["NSVersionHashModifier"] = string(modifier) }
            return fields
        }
    }
}

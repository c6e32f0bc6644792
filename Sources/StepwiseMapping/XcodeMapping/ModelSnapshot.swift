import Foundation
import StepwiseModel
import StepwiseStore

/// The entity and property names of a model copy that Xcode embeds in a mapping model
/// (`sourcemodeldata`, `destinationmodeldata`), for binding a mapping model whose model paths
/// went stale.
///
/// The copy is a keyed archive of Xcode's editor model, not of an `NSManagedObjectModel`:
/// `XDPMModel` → `_xd_rootPackage` (`XDModelPackage`) → `XDBucketForClassesstorage`, a dictionary
/// of `XDPMEntity` by name, each with `XDBucketForOwnedAttributesstorage`, a dictionary of its
/// own attributes and relationships by name. Property types live deeper, in the editor's UML
/// stereotypes, and are not read: names alone tell versions apart well enough to fall back on,
/// and the bound mapping is then checked property by property anyway.
package enum ModelSnapshot {
    /// Entity name → the names of its own properties; nil when the copy can't be read this way.
    package typealias Signature = [String: Set<String>]

    package static func signature(of data: Data) -> Signature? {
        guard let archive = try? KeyedArchive(data), let root = archive.top["root"] else { return nil }
        func object(_ value: BinaryPropertyList.Value?) -> KeyedArchive.Object? {
            guard case .uid(let uid)? = value else { return nil }
            return (try? archive.object(uid)) ?? nil
        }
        func dictionary(_ value: BinaryPropertyList.Value?) -> [(key: String, value: Int)]? {
            guard let object = object(value), let entries = try? archive.entries(of: object) else { return nil }
            var result: [(key: String, value: Int)] = []
            for entry in entries {
                guard case .string(let key)? = (try? archive.value(entry.key)) ?? nil else { return nil }
                result.append((key, entry.value))
            }
            return result
        }
        guard let model = (try? archive.object(root)) ?? nil, model.className == "XDPMModel",
            let package = object(model.fields["_xd_rootPackage"]),
            let classes = dictionary(package.fields["XDBucketForClassesstorage"])
        else { return nil }
        var signature: Signature = [:]
        for (name, uid) in classes {
            guard let entity = (try? archive.object(uid)) ?? nil, entity.className == "XDPMEntity",
                let properties = dictionary(entity.fields["XDBucketForOwnedAttributesstorage"])
            else { return nil }
            signature[name] = Set(properties.map(\.key))
        }
        return signature
    }

    /// The same signature for a model version.
    package static func signature(of model: ObjectModel) -> Signature {
        var signature: Signature = [:]
        for entity in model.entities {
            signature[entity.name] = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
        }
        return signature
    }
}

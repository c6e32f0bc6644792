import Foundation
import StepwiseMapping
import StepwiseModel

/// The two model versions the benchmark migrates between, and the mapping that forces
/// every `Item` through Swift.
///
/// Version 1, "Bench": `Item(name, value, createdAt, note, tag)` and `Tag(label, items)`.
/// Version 2, "Bench 2": `Item.name` is split into `firstName` and `lastName`, `value` is
/// renamed `amount`, and `isArchived` is added (required, default `NO`).
enum BenchModel {
    /// How many tags the seeded store holds; items point to them round-robin.
    static let tagCount = 100

    static let version1 = ObjectModel("Bench") {
        Entity("Item") {
            Attribute("name", .string).required()
            Attribute("value", .integer64).required().defaultValue("0")
            Attribute("createdAt", .date).required()
            Attribute("note", .string)
            Relationship("tag", to: "Tag", inverse: "items")
        }
        Entity("Tag") {
            Attribute("label", .string).required()
            Relationship("items", to: "Item", inverse: "tag").toMany()
        }
    }

    static let version2 = ObjectModel("Bench 2") {
        Entity("Item") {
            Attribute("firstName", .string)
            Attribute("lastName", .string)
            Attribute("amount", .integer64).required().defaultValue("0").renamed(from: "value")
            Attribute("createdAt", .date).required()
            Attribute("note", .string)
            Attribute("isArchived", .boolean).required().defaultValue("NO")
            Relationship("tag", to: "Tag", inverse: "items")
        }
        Entity("Tag") {
            Attribute("label", .string).required()
            Relationship("items", to: "Item", inverse: "tag").toMany()
        }
    }

    /// The mapping of the row-by-row run: `ItemToItem` has a policy whose functions split
    /// the name and upper-case the note, so pass 1 and pass 2 visit every item in Swift.
    /// `TagToTag` has no policy and stays set-based.
    static let policyMappingFile = """
        {
          "source": "Bench",
          "destination": "Bench 2",
          "entityMappings": [
            {
              "name": "TagToTag",
              "source": "Tag",
              "destination": "Tag",
              "copyMatchingProperties": false,
              "attributes": { "label": "$source.label" }
            },
            {
              "name": "ItemToItem",
              "source": "Item",
              "destination": "Item",
              "policy": "BenchItemPolicy",
              "copyMatchingProperties": false,
              "attributes": {
                "firstName": "FUNCTION($entityPolicy, \\"firstNameOf:\\", $source.name)",
                "lastName": "FUNCTION($entityPolicy, \\"lastNameOf:\\", $source.name)",
                "amount": "$source.value",
                "createdAt": "$source.createdAt",
                "note": "FUNCTION($entityPolicy, \\"upper:\\", $source.note)"
              },
              "relationships": {
                "tag": "FUNCTION($manager, \\"destinationInstancesForEntityMappingNamed:sourceInstances:\\", \\"TagToTag\\", $source.tag)"
              }
            }
          ]
        }
        """

    /// The row-by-row mapping model.
    static func policyMapping() throws -> MappingModel {
        try MappingFile.decode(Data(policyMappingFile.utf8), source: version1, destination: version2)
    }

    /// The policies the row-by-row mapping names.
    static var policies: PolicyRegistry {
        var registry = PolicyRegistry()
        registry.register("BenchItemPolicy") { BenchItemPolicy() }
        return registry
    }
}

import Foundation
import StepwiseModel
import StepwiseTestSupport
import Testing

@testable import StepwiseModel

/// Composite attributes hashed as Core Data hashes them, pinned to hashes Apple's Core Data
/// computed (issue 43): a real SwiftData store (Core Data 1327) whose model cache holds
/// `SDFolder` (``SwiftDataFolders``), with a Codable enum `folderType` stored as a composite of
/// four optional String elements, one per case.
@Suite("Composite attributes hash as SwiftData's stores record")
struct SwiftDataCompositeHashTests {
    @Test func sdFolderHashesAsTheStoreRecords() throws {
        let model = SwiftDataFolders.model()
        #expect(model.entityVersionHashes["SDFolder"]?.base64EncodedString() == SwiftDataFolders.folderHash)
    }

    /// A compiled model (`.mom`) or a store's model cache holding `SDFolder` reads back with the
    /// composite's elements in declared order, and hashes as the store records.
    @Test func aCompiledModelOfSDFolderHashesAsTheStoreRecords() throws {
        let archive = ModelCacheArchive.archive(of: SwiftDataFolders.model())
        let read = try CompiledModel.read(archive: archive, name: "Recipes", origin: "Recipes.mom")
        #expect(
            read[entity: "SDFolder"]?.attribute(named: "folderType")?.elements.map(\.name)
                == SwiftDataFolders.folderTypeElements)
        #expect(read.entityVersionHashes["SDFolder"]?.base64EncodedString() == SwiftDataFolders.folderHash)
    }

    /// The elements are hashed sorted by name, so their declared order takes no part: the rule
    /// `-[NSCompositeAttributeDescription _versionHash:inStyle:]` follows.
    @Test func theElementsOrderTakesNoPart() throws {
        let reversed = SwiftDataFolders.model(elements: SwiftDataFolders.folderTypeElements.reversed())
        #expect(reversed.entityVersionHashes["SDFolder"]?.base64EncodedString() == SwiftDataFolders.folderHash)
    }

    /// Neither the composite's own name nor its optionality is hashed, only its elements (the
    /// name still places it among the entity's properties, which are hashed in name order:
    /// `folderKind` sorts where `folderType` does); the same four strings as plain attributes
    /// hash differently.
    @Test func theCompositeIsNotAPlainAttribute() throws {
        var plain = SwiftDataFolders.model()
        plain.update("SDFolder") { folder in
            folder.attributes.removeAll { $0.name == "folderType" }
            folder.attributes += ["systemAll", "systemStandard", "systemRecentlyDeleted", "user"].map {
                Attribute($0, .string)
            }
        }
        #expect(plain.entityVersionHashes["SDFolder"]?.base64EncodedString() != SwiftDataFolders.folderHash)
        var renamed = SwiftDataFolders.model()
        renamed.update("SDFolder") { folder in
            folder.attributes = folder.attributes.map { attribute in
                guard attribute.type == .composite else { return attribute }
                var kind = attribute
                kind.name = "folderKind"
                kind.isOptional = false
                return kind
            }
        }
        #expect(renamed.entityVersionHashes["SDFolder"]?.base64EncodedString() == SwiftDataFolders.folderHash)
    }

    /// SwiftData stores a raw-value enum property (`var status: Status`, `enum Status: String`)
    /// as a composite with one optional String element named after the property: its hash is
    /// the element's own attribute hash, digested once more, which no plain attribute of any
    /// type gives, and its one column is named after the element, `ZSTATUS`.
    @Test func aRawValueEnumIsACompositeOfOneStringNamedAfterTheProperty() throws {
        let status = Attribute.composite("status", elements: [Attribute("status", .string)])
        let element = VersionHasher.attributeHash(Attribute("status", .string))
        #expect(VersionHasher.attributeHash(status) == VersionHasherTests.sha256([element]))
        for type in AttributeType.allCases where type != .composite {
            #expect(VersionHasher.attributeHash(Attribute("status", type)) != VersionHasher.attributeHash(status))
            #expect(
                VersionHasher.attributeHash(Attribute("status", type, isOptional: false))
                    != VersionHasher.attributeHash(status))
        }
        #expect(status.flattenedElements.map(\.name) == ["status.status"])
        #expect(status.flattenedElements.map(\.storageName) == ["status"])
    }
}

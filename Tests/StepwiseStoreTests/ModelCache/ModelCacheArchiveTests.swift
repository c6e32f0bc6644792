import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// The test fixture that writes a model as `Z_MODELCACHE` holds it (`ModelCacheArchive`) gives
/// back, through the reader every store's cache goes through, a model with the same entity
/// hashes and renaming identifiers: a test store made with it is matched by its cache as a real
/// one is.
@Suite("ModelCacheArchive (test fixture)")
struct ModelCacheArchiveTests {
    /// An abstract parent with a to-many, and a subentity with a required attribute.
    static let inheritance = ObjectModel("Zoo") {
        Entity("Animal") {
            Attribute("name", .string).required()
            Relationship("keepers", to: "Keeper", inverse: "animals").toMany().ordered()
        }.abstract()
        Entity("Lion") { Attribute("mane", .integer16) }.parent("Animal")
        Entity("Keeper") {
            Attribute("badge", .integer64)
            Relationship("animals", to: "Animal", inverse: "keepers").toMany()
        }
    }

    static let models: [ObjectModel] = [
        RenameChainHistory.v1, RenameChainHistory.v2, RenameChainHistory.v3, inheritance, CachedRenameHistory.v4,
    ]

    @Test(arguments: models)
    func aWrittenCacheReadsBackWithTheSameHashes(_ model: ObjectModel) throws {
        let content = ModelCacheArchive.content(of: model)
        let archive = try ModelCache.archive(fromContent: content, path: "Zoo.sqlite")
        #expect(archive == ModelCacheArchive.archive(of: model))
        let read = try ModelCache.model(fromArchive: archive, path: "Zoo.sqlite")
        #expect(read.name == "Zoo.sqlite's model cache")
        #expect(read.entityVersionHashes == model.entityVersionHashes)
        #expect(read.entities.map(\.name) == model.entities.map(\.name).sorted())
        for entity in model.entities {
            let readEntity = try #require(read[entity: entity.name])
            #expect(readEntity.renamingIdentifier == entity.renamingIdentifier)
            #expect(readEntity.parentName == entity.parentName)
            for property in entity.properties {
                let readProperty = try #require(readEntity.properties.first { $0.name == property.name })
                #expect(
                    readProperty.renamingIdentifier == property.renamingIdentifier, "\(entity.name).\(property.name)")
            }
        }
    }

    /// Stored blocks hold at most 65,535 bytes each: a larger archive spans several.
    @Test func aLargeArchiveSpansSeveralStoredBlocks() throws {
        let wide = ObjectModel("Wide") {
            Entity("Row") {
                for index in 0..<3_000 { Attribute("column\(index)", .string) }
            }
        }
        let archive = ModelCacheArchive.archive(of: wide)
        #expect(archive.count > 0xFFFF)
        let content = ModelCacheArchive.content(of: wide)
        #expect(content.count == archive.count + 5 * ((archive.count + 0xFFFE) / 0xFFFF))
        #expect(try ModelCache.archive(fromContent: content, path: "Wide.sqlite") == archive)
        let read = try ModelCache.model(fromArchive: archive, path: "Wide.sqlite")
        #expect(read.entityVersionHashes == wide.entityVersionHashes)
    }
}

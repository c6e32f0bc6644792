import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import Testing

@Suite("MappingDiff")
struct MappingDiffTests {
    static let source = ObjectModel("A") {
        Entity("Author") {
            Attribute("name", .string).required()
            Relationship("posts", to: "Post", inverse: "author").toMany()
        }
        Entity("Post") {
            Attribute("color", .string)
            Attribute("title", .string)
            Attribute("views", .integer16)
            Relationship("author", to: "Author", inverse: "posts")
        }
        Entity("Tag") { Attribute("name", .string) }
        Entity("Draft") { Attribute("text", .string) }
    }

    static let destination = ObjectModel("B") {
        Entity("Author") {
            Attribute("name", .string)
            Relationship("posts", to: "Article", inverse: "author").ordered()
        }
        Entity("Content", isAbstract: true) { Attribute("title", .string) }
        Entity("Article", parent: "Content") {
            Attribute("views", .integer32)
            Attribute("hexColor", .string)
            Relationship("author", to: "Author", inverse: "posts").toMany()
        }
        .renamed(from: "Post")
        Entity("Tag") { Attribute("name", .string) }
    }

    func diff() throws -> MappingDiff {
        let mapping = try MappingInference.inferMapping(from: Self.source, to: Self.destination)
        return MappingDiff(mapping, from: Self.source, to: Self.destination)
    }

    @Test func listsEntitiesInMappingOrderWithTheirChange() throws {
        let diff = try diff()
        #expect(diff.from == "A" && diff.to == "B")
        #expect(diff.entities.map(\.name) == ["Author", "Content", "Article", "Tag", "Draft"])
        #expect(diff.entities.map(\.change) == [.kept, .added, .renamed, .kept, .removed])
        #expect(diff.entities.map(\.mappingKind) == [.transform, .add, .transform, .copy, .remove])
        #expect(
            diff.entities.map(\.mapping) == ["AuthorToAuthor", "ToContent", "PostToArticle", "TagToTag", "DraftTo"])
        #expect(diff.entity(named: "Article")?.oldName == "Post")
        #expect(diff.entity(named: "Article")?.parent == EntityDiff.ParentChange(from: nil, to: "Content"))
        #expect(diff.entity(named: "Author")?.parent == nil)
        #expect(diff.entity(named: "Content")?.isAbstract == true)
        #expect(diff.entity(named: "Content")?.properties.isEmpty == true)
        #expect(diff.entity(named: "Draft")?.properties.isEmpty == true)
        #expect(diff.hasChanges)
    }

    @Test func listsKeptRenamedAddedRemovedAndWidenedProperties() throws {
        let article = try #require(try diff().entity(named: "Article"))
        #expect(
            article.properties == [
                PropertyDiff(
                    name: "title", kind: .attribute, change: .kept, type: "String",
                    notes: ["moved from Post to Content"]),
                PropertyDiff(
                    name: "views", kind: .attribute, change: .widened, type: "Integer 32", oldType: "Integer 16",
                    widening: TypeWidening(from: .integer16, to: .integer32)),
                PropertyDiff(
                    name: "hexColor", kind: .attribute, change: .added, type: "String",
                    notes: ["NULL in existing rows"]),
                PropertyDiff(
                    name: "author", kind: .relationship, change: .kept, type: "to-many Author",
                    oldType: "to-one Author", notes: ["to-one → to-many"]),
                PropertyDiff(
                    name: "color", kind: .attribute, change: .removed, type: "String", dropped: .removedFromModel),
            ])
        let author = try #require(try diff().entity(named: "Author"))
        #expect(
            author.properties == [
                PropertyDiff(
                    name: "name", kind: .attribute, change: .kept, type: "String", notes: ["becomes optional"]),
                PropertyDiff(
                    name: "posts", kind: .relationship, change: .kept, type: "ordered to-many Article",
                    oldType: "to-many Post", notes: ["unordered → ordered"]),
            ])
    }

    @Test func notesRenamesDefaultsAndRelationshipChanges() throws {
        let source = ObjectModel("A") {
            Entity("Owner") { Relationship("pets", to: "Pet", inverse: "owner").toMany() }
            Entity("Pet") {
                Attribute("nickname", .string)
                Relationship("owner", to: "Owner", inverse: "pets").required()
            }
        }
        let destination = ObjectModel("B") {
            Entity("Owner") { Relationship("pet", to: "Pet", inverse: "owner").renamed(from: "pets") }
            Entity("Pet") {
                Attribute("name", .string).required().defaultValue("Rex").renamed(from: "nickname")
                Attribute("rating", .integer16).required().defaultValue("0")
                Relationship("owner", to: "Owner", inverse: "pet")
                Relationship("toys", to: "Pet").toMany()
            }
        }
        let mapping = try MappingInference.inferMapping(from: source, to: destination)
        let diff = MappingDiff(mapping, from: source, to: destination)
        #expect(
            diff.entity(named: "Owner")?.properties == [
                PropertyDiff(
                    name: "pet", oldName: "pets", kind: .relationship, change: .renamed, type: "to-one Pet",
                    oldType: "to-many Pet", notes: ["to-many → to-one (keeps one object)"])
            ])
        #expect(
            diff.entity(named: "Pet")?.properties == [
                PropertyDiff(
                    name: "name", oldName: "nickname", kind: .attribute, change: .renamed, type: "String",
                    notes: ["becomes required; NULL values get the default Rex"]),
                PropertyDiff(
                    name: "rating", kind: .attribute, change: .added, type: "Integer 16",
                    notes: ["required", "default 0"]),
                PropertyDiff(
                    name: "owner", kind: .relationship, change: .kept, type: "to-one Owner",
                    notes: ["becomes optional"]),
                PropertyDiff(
                    name: "toys", kind: .relationship, change: .added, type: "to-many Pet",
                    notes: ["empty in existing rows"]),
            ])
    }

    @Test func readsAsTextWithOneLinePerChange() throws {
        #expect(
            try diff().description == """
                A → B
                  ~ Author: changed (mapping AuthorToAuthor)
                      ~ name: String, becomes optional
                      ~ posts: ordered to-many Article, unordered → ordered
                  + Content: added (abstract, mapping ToContent)
                  ~ Article: renamed from Post (mapping PostToArticle)
                      parent: none → Content
                      ~ title: String, moved from Post to Content
                      ~ views: widened Integer 16 → Integer 32
                      + hexColor: String, NULL in existing rows
                      ~ author: to-many Author, to-one → to-many
                      - color: String, values dropped
                  = Tag: unchanged (1 property)
                  - Draft: removed (mapping DraftTo), rows dropped
                """)
    }

    @Test func aStepWithoutChangesSaysSo() throws {
        let model = RecipesHistory.v4
        let diff = MappingDiff(try MappingInference.inferMapping(from: model, to: model), from: model, to: model)
        #expect(!diff.hasChanges)
        #expect(diff.description.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix("  = ") })
    }

    @Test func encodesEveryKeyAndDecodesBack() throws {
        let diff = try diff()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(diff)
        #expect(try JSONDecoder().decode(MappingDiff.self, from: data) == diff)

        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entities = try #require(json["entities"] as? [[String: Any]])
        let article = try #require(entities.first { $0["name"] as? String == "Article" })
        #expect(
            Set(article.keys)
                == [
                    "name", "oldName", "change", "mapping", "mappingKind", "isAbstract", "parent", "properties",
                    "dropped",
                ])
        #expect(article["change"] as? String == "renamed")
        #expect(article["mappingKind"] as? String == "transform")
        let parent = try #require(article["parent"] as? [String: Any])
        #expect(parent["from"] is NSNull && parent["to"] as? String == "Content")
        let properties = try #require(article["properties"] as? [[String: Any]])
        let views = try #require(properties.first { $0["name"] as? String == "views" })
        #expect(
            Set(views.keys)
                == ["name", "oldName", "kind", "change", "type", "oldType", "widening", "notes", "dropped"])
        #expect(views["widening"] as? String == "integer16→integer32")
        #expect(views["oldName"] is NSNull)
        #expect(entities.first { $0["name"] as? String == "Tag" }?["parent"] is NSNull)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func moodyThreeToFourMovesTheRegionAttributesIntoTheNewRoots() throws {
        let bundle = try Corpus.required().modelBundle(.moody)
        let source = try bundle.version(named: "Moody 3")
        let destination = try bundle.version(named: "Moody 4")
        let diff = MappingDiff(
            try MappingInference.inferMapping(from: source, to: destination), from: source, to: destination)
        #expect(diff.entities.map(\.name) == ["Continent", "Country", "Mood", "GeographicRegion"])
        #expect(diff.entities.map(\.change) == [.kept, .kept, .kept, .removed])
        for name in ["Continent", "Country"] {
            let entity = try #require(diff.entity(named: name))
            #expect(entity.parent == EntityDiff.ParentChange(from: "GeographicRegion", to: nil))
            let moved = entity.properties.filter { $0.notes == ["moved from GeographicRegion to \(name)"] }
            #expect(
                moved.map(\.name) == [
                    "markedForDeletionDate", "numberOfMoods", "numericISO3166Code", "uniquenessDummy", "updatedAt",
                ])
            #expect(entity.properties.allSatisfy { $0.change == .kept })
        }
    }
}

import Crypto
import Foundation
import GRDB
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// One change to ``VersionHasherTests/library`` and whether it changes one entity's hash.
struct HashChange: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var entity: String
    var changesHash: Bool
    var apply: @Sendable (inout ObjectModel) -> Void

    init(
        _ description: String, _ entity: String, changesHash: Bool,
        _ apply: @escaping @Sendable (inout ObjectModel) -> Void
    ) {
        self.testDescription = "\(description): \(entity) \(changesHash ? "changes" : "stays")"
        self.entity = entity
        self.changesHash = changesHash
        self.apply = apply
    }

    static let all: [HashChange] = [
        // Changes Core Data ignores.
        HashChange("renaming the class", "Book", changesHash: false) { $0.update("Book") { $0.className = "Novel" } },
        HashChange("adding user info to the entity", "Book", changesHash: false) {
            $0.update("Book") { $0.userInfo["k"] = "v" }
        },
        HashChange("adding user info to an attribute", "Book", changesHash: false) {
            $0.update("Book") { $0.updateAttribute("isbn") { $0.userInfo["k"] = "v" } }
        },
        HashChange("adding user info to a relationship", "Book", changesHash: false) {
            $0.update("Book") { $0.updateRelationship("author") { $0.userInfo["k"] = "v" } }
        },
        HashChange("changing a default value", "Book", changesHash: false) {
            $0.update("Book") { $0.updateAttribute("pages") { $0.defaultValue = "1" } }
        },
        HashChange("adding an index", "Book", changesHash: false) {
            $0.update("Book") { $0.updateAttribute("isbn") { $0.isIndexed = true } }
        },
        HashChange("adding a compound index", "Book", changesHash: false) {
            $0.update("Book") { $0.compoundIndexes.append(["isbn", "pages"]) }
        },
        HashChange("adding a fetch index", "Book", changesHash: false) {
            $0.update("Book") {
                $0.fetchIndexes.append(FetchIndex(name: "byISBN", elements: [FetchIndex.Element(property: "isbn")]))
            }
        },
        HashChange("adding a transient attribute", "Book", changesHash: false) {
            $0.update("Book") { $0.attributes.append(Attribute("cachedCover", .binary).transient()) }
        },
        HashChange("adding a transient relationship", "Book", changesHash: false) {
            $0.update("Book") { $0.relationships.append(Relationship("related", to: "Book").toMany().transient()) }
        },
        HashChange("changing min and max values", "Book", changesHash: false) {
            $0.update("Book") { $0.updateAttribute("pages") { $0 = $0.range(min: "10", max: "900") } }
        },
        HashChange("setting a renaming identifier", "Book", changesHash: false) {
            $0.update("Book") { $0.updateAttribute("isbn") { $0.renamingIdentifier = "code" } }
        },
        HashChange("changing a deletion rule", "Book", changesHash: false) {
            $0.update("Book") { $0.updateRelationship("author") { $0.deletionRule = .deny } }
        },
        HashChange("changing Xcode's scalar type setting", "Book", changesHash: false) {
            $0.update("Book") { $0.updateAttribute("pages") { $0.usesScalarValueType = true } }
        },
        HashChange("changing a subentity", "Item", changesHash: false) {
            $0.update("Book") { $0.attributes.append(Attribute("subtitle", .string)) }
        },
        HashChange("adding an attribute to a parent", "Author", changesHash: false) {
            $0.update("Item") { $0.attributes.append(Attribute("summary", .string)) }
        },
        HashChange("changing the destination entity's hash", "Author", changesHash: false) {
            $0.update("Book") { $0.versionHashModifier = "2" }
        },
        // Changes that make a store incompatible.
        HashChange("making an optional attribute required", "Book", changesHash: true) {
            $0.update("Book") { $0.updateAttribute("isbn") { $0.isOptional = false } }
        },
        HashChange("making a required attribute optional", "Book", changesHash: true) {
            $0.update("Book") { $0.updateAttribute("pages") { $0.isOptional = true } }
        },
        HashChange("changing an attribute's type", "Book", changesHash: true) {
            $0.update("Book") { $0.updateAttribute("pages") { $0.type = .integer64 } }
        },
        HashChange("renaming an attribute", "Book", changesHash: true) {
            $0.update("Book") { $0.updateAttribute("isbn") { $0.name = "code" } }
        },
        HashChange("renaming a relationship", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("author") { $0.name = "writer" } }
        },
        HashChange("adding an attribute", "Book", changesHash: true) {
            $0.update("Book") { $0.attributes.append(Attribute("subtitle", .string)) }
        },
        HashChange("removing an attribute", "Book", changesHash: true) {
            $0.update("Book") { $0.attributes.removeAll { $0.name == "isbn" } }
        },
        HashChange("making an attribute transient", "Book", changesHash: true) {
            $0.update("Book") { $0.updateAttribute("isbn") { $0.isTransient = true } }
        },
        HashChange("making a to-one to-many", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("author") { $0 = $0.toMany() } }
        },
        HashChange("making a to-many ordered", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("shelves") { $0.isOrdered = true } }
        },
        HashChange("bounding a to-many", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("shelves") { $0.maxCount = 3 } }
        },
        HashChange("raising a minimum count", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("author") { $0.minCount = 1 } }
        },
        HashChange("making a relationship required", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("author") { $0.isOptional = false } }
        },
        HashChange("changing the inverse", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("shelves") { $0.inverse = "favorites" } }
        },
        HashChange("removing the inverse", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("shelves") { $0.inverse = nil } }
        },
        HashChange("renaming the destination entity", "Book", changesHash: true) {
            $0.update("Author") { $0.name = "Writer" }
            $0.update("Book") { $0.updateRelationship("author") { $0.destination = "Writer" } }
        },
        HashChange("making the entity abstract", "Book", changesHash: true) {
            $0.update("Book") { $0.isAbstract = true }
        },
        HashChange("a version hash modifier on the entity", "Book", changesHash: true) {
            $0.update("Book") { $0.versionHashModifier = "2" }
        },
        HashChange("a version hash modifier on an attribute", "Book", changesHash: true) {
            $0.update("Book") { $0.updateAttribute("isbn") { $0.versionHashModifier = "2" } }
        },
        HashChange("a version hash modifier on a relationship", "Book", changesHash: true) {
            $0.update("Book") { $0.updateRelationship("author") { $0.versionHashModifier = "2" } }
        },
        HashChange("adding a uniqueness constraint", "Book", changesHash: true) {
            $0.update("Book") { $0.uniquenessConstraints.append(["isbn"]) }
        },
        HashChange("adding an attribute to a parent", "Book", changesHash: true) {
            $0.update("Item") { $0.attributes.append(Attribute("summary", .string)) }
        },
        HashChange("a version hash modifier on a parent", "Book", changesHash: true) {
            $0.update("Item") { $0.versionHashModifier = "2" }
        },
        HashChange("a uniqueness constraint on a parent", "Book", changesHash: true) {
            $0.update("Item") { $0.uniquenessConstraints.append(["title"]) }
        },
    ]
}

extension ObjectModel {
    /// Changes the entity with this name in place.
    mutating func update(_ name: String, _ change: (inout Entity) -> Void) {
        guard let index = entities.firstIndex(where: { $0.name == name }) else {
            Issue.record("no entity \(name)")
            return
        }
        change(&entities[index])
    }
}

extension Entity {
    mutating func updateAttribute(_ name: String, _ change: (inout Attribute) -> Void) {
        guard let index = attributes.firstIndex(where: { $0.name == name }) else {
            Issue.record("no attribute \(self.name).\(name)")
            return
        }
        change(&attributes[index])
    }

    mutating func updateRelationship(_ name: String, _ change: (inout Relationship) -> Void) {
        guard let index = relationships.firstIndex(where: { $0.name == name }) else {
            Issue.record("no relationship \(self.name).\(name)")
            return
        }
        change(&relationships[index])
    }
}

/// A corpus store's metadata could not be read.
struct StoreMetadataError: Error, CustomStringConvertible {
    var description: String
}

@Suite("VersionHasher")
struct VersionHasherTests {
    /// The base model for the table of single changes.
    static let library = ObjectModel("Library") {
        Entity("Item", isAbstract: true) {
            Attribute("title", .string)
            Attribute("createdAt", .date).required()
        }
        Entity("Book", parent: "Item", className: "BookMO") {
            Attribute("pages", .integer32).required().defaultValue("0").range(min: "1", max: "5000")
            Attribute("isbn", .string)
            Relationship("author", to: "Author", inverse: "books")
            Relationship("shelves", to: "Shelf", inverse: "books").toMany()
        }
        Entity("Author") {
            Attribute("name", .string).required()
            Relationship("books", to: "Book", inverse: "author").toMany()
        }
        Entity("Shelf") {
            Attribute("label", .string)
            Relationship("books", to: "Book", inverse: "shelves").toMany()
            Relationship("favorites", to: "Book").toMany()
        }
    }

    /// `Z_METADATA.Z_PLIST` of a store copy, decoded.
    static func metadata(ofStoreAt url: URL) throws -> [String: Any] {
        let queue = try DatabaseQueue(path: url.path)
        let data = try queue.read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") }
        guard let data else { throw StoreMetadataError(description: "\(url.path) has no Z_METADATA row") }
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        guard let metadata = plist as? [String: Any] else {
            throw StoreMetadataError(description: "\(url.path): Z_PLIST is not a dictionary")
        }
        return metadata
    }

    static func sha256(_ parts: [any DataProtocol]) -> Data {
        var hasher = SHA256()
        for part in parts { hasher.update(data: part) }
        return Data(hasher.finalize())
    }

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }

    // MARK: - Real stores

    /// Entities per consistent corpus store: the 102 hashes of corpus README §4.3.
    static let entityCounts: [String: Int] = [
        "v1": 10, "v2": 11, "v3": 11, "v4": 11, "v5": 6, "v6": 8, "2W": 11, "3W": 11,
        "M1": 4, "M2": 4, "M3": 4, "M4": 3, "M5": 2, "W1": 1, "W2": 1, "W3": 2, "WW": 2,
    ]

    @Test("The store table covers all 102 entity hashes of the corpus")
    func storeTableCoversAllHashes() {
        #expect(CorpusStore.consistent.count == 17)
        #expect(CorpusStore.consistent.map(\.shortName).sorted() == Self.entityCounts.keys.sorted())
        #expect(CorpusStore.consistent.compactMap { Self.entityCounts[$0.shortName] }.reduce(0, +) == 102)
    }

    @Test(
        "Entity hashes equal NSStoreModelVersionHashes in every consistent corpus store",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusStore.consistent)
    func entityHashesMatchStoreMetadata(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(store, to: directory.url)
        let metadata = try Self.metadata(ofStoreAt: copy)
        let stored = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data])
        let model = try corpus.readVersion(store.version)
        let computed = model.entityVersionHashes
        #expect(stored.count == Self.entityCounts[store.shortName])
        #expect(computed.keys.sorted() == stored.keys.sorted())
        for (entity, hash) in stored.sorted(by: { $0.key < $1.key }) {
            #expect(
                computed[entity] == hash,
                "\(entity): computed \(computed[entity].map(VersionHasher.hex) ?? "nothing"), stored \(VersionHasher.hex(hash))"
            )
        }
        #expect(model.isCompatible(withStoreMetadata: metadata))
        #expect(model.isCompatible(withEntityHashes: stored))
    }

    @Test(
        "A store is incompatible with its neighbouring versions",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func storeIsIncompatibleWithOtherVersions() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(CorpusStore.named("M2"), to: directory.url)
        let metadata = try Self.metadata(ofStoreAt: copy)
        let compatible = try CorpusBundle.moody.versionNames.filter {
            try corpus.readVersion($0).isCompatible(withStoreMetadata: metadata)
        }
        #expect(compatible == ["Moody 2"])
    }

    @Test(
        "Entity hashes equal the values listed in the corpus README",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"),
        arguments: [
            ("ATDataModel", "ATEvent", "7c970c352f3e9fa06c0b67ea39f4daf51c01cdcb03f4d2b3bdb664ca5839d4ec"),
            ("ATDataModel 6", "ATEvent", "7c970c352f3e9fa06c0b67ea39f4daf51c01cdcb03f4d2b3bdb664ca5839d4ec"),
            ("ATDataModel 4", "ATRecord", "2e57b6c790b1d5eab596fef652a2744d643c8fd31115fa5429358e0d4570478a"),
            ("ATDataModel", "ATMessage", "91fb69077080df69910c9918fbf6fb9314992ea6d1cc9bc377b1466888d84e4f"),
            ("ATDataModel 5", "ATMessage", "5bed9b4de35329d2d2644528688f411c90ad199103ac06c83084f3cf860584be"),
            ("ATDataModel 2", "ATAbstractMessage", "27e38d4e6ae3b534b18062fedac0627193f98775b4b84a9f66df43d90b44acbe"),
            ("ATDataModel 3", "ATAbstractMessage", "fea3d2c15a20dac47e21335feeb0cb846ebd72d1426035f118b698774b828a5f"),
            ("ATDataModel 4", "ATAbstractMessage", "8f3f06d175d7d5afb3a8f31ca2d42ed37be5da4e97a3b5b135b5e0160fc14808"),
            ("ATDataModel", "ATAutomatedMessage", "3da6bdc6263dcbc7493053c9977d5f7027dc982a9a2750968217bab4ef4f60a5"),
            (
                "ATDataModel 4", "ATUpgradeRequestMessage",
                "32a07e1b6fb4edb5189e23d2e1eeafff31f10454a0670700314f078cdec4e105"
            ),
            ("ATDataModel", "ATMessageDisplayType", "298c6f7ecc0a40681ac4b171794bef43344ef4e00aff3ab8bf752f40c0978991"),
            (
                "ATDataModel 2", "ATMessageDisplayType",
                "5ebba721f9f6cef183a82cb3f75a78896134e4c28d8bb6121e010659305bf29f"
            ),
            ("ATDataModel", "ATMessageSender", "546d9fb8de3ba2ae69cefc0a7be439e2fb9e83e886331e5ce8f6d4b1c6496ffc"),
            ("ATDataModel 5", "ATMessageSender", "546d9fb8de3ba2ae69cefc0a7be439e2fb9e83e886331e5ce8f6d4b1c6496ffc"),
            ("ATDataModel 3", "ATMessageSender", "c9f97db357330e04a9e4cbf863779c33efb6ec2aaa1eeb0640b7b5db7ce27971"),
            ("ATDataModel 5", "ATFileAttachment", "8326b5d7e5b275a4cdd738bd01453f6d9cb911949e31d23d38f14c053184cdc8"),
            ("ATDataModel 6", "QueuedAttachment", "50fa584e2e9d13765b4aa1e32b1d2843026beb95e59663adbc27553be6d96976"),
            ("ATDataModel 6", "QueuedRequest", "3a3fc2fd28b4f892fdf2a7953bcd4d0015a67d375c4f29328ca673cce9c247f1"),
            ("Moody", "GeographicRegion", "c0e025164cb30e0c0736b581b14a9e832c948d9cbd6c58e189370e3c6afd6aa9"),
            ("Moody 2", "Continent", "195eb3f2c5c16adf08c7d7aad5ae09d6e84d4dcf00c9a7fa4157a83879b6b7ab"),
            ("Moody 3", "Continent", "194f5df69715d504997a194d4ac1ba0baacb2a9cb60a2f33858489786115457d"),
            ("Moody 4", "Continent", "7e7d574bb92dc743cec98cdb90a2325ab2490433b23fb0ba748e5ce24a1be4fb"),
            ("Moody", "Country", "2ba027cc056ea4bd998833e904586241e1ee53afb33926c24ee9910d995fb001"),
            ("Moody 5", "Country", "db57b9da2f0dc68749199c2528162e9d82b19f6bc7bb23d85754a9128b4625e3"),
            ("Moody", "Mood", "ed3f4675a939785a66d12c33a16f3180dc1e40469451d4695d4876867cc06c20"),
            ("Moody 2", "Mood", "4a3711e5576aff0c48420bf1b5580a2bf8cc1d1fac663367235f1e14d2ac72d6"),
            ("Moody 5", "Mood", "4a3711e5576aff0c48420bf1b5580a2bf8cc1d1fac663367235f1e14d2ac72d6"),
            ("Moody 4", "Mood", "19eed1835b15976d65908fefc82d451845c7694189224aea0f66acd5600cf036"),
            ("CoreDataMigration_Example", "Post", "b9f1d1b43446f1ad118ca4a03e226e05f98c899c98b524c13f02f6514ded5e80"),
            ("CoreDataMigration_Example 2", "Post", "7f16507467bee1d37b8c01282a8ca9a7e141344fbde06ac7280211d49731fb12"),
            ("CoreDataMigration_Example 3", "Post", "8a55fd4ce6c31444313d4c97e0247ac5d3ed2528c484daeb70b4e481d36e2345"),
            ("CoreDataMigration_Example 4", "Post", "d81901642c2396baa3d6f7548e957afb0e4bf63471ceeb709312aa1dbda395b5"),
            (
                "CoreDataMigration_Example 3", "Color",
                "c42610dacb82dfd67d8281d49d82916bd02493cb4cc897db9ca097fe7c9cb9e7"
            ),
        ])
    func entityHashesMatchReadmeValues(_ version: String, _ entity: String, _ hex: String) throws {
        let model = try Corpus.required().readVersion(version)
        #expect(model.entityVersionHashes[entity].map(VersionHasher.hex) == hex)
        let entityValue = try #require(model[entity: entity])
        #expect(VersionHasher.hex(VersionHasher.entityHash(of: entityValue, in: model)) == hex)
    }

    // MARK: - The formulas of corpus README §4.3

    @Test("An attribute hashes its property hash and type code")
    func attributeHashFormula() {
        // Property hash = SHA-256(name ‖ UInt16 flags); attribute hash adds the UInt32 type code.
        let optional = Self.sha256([Data("title".utf8), Self.littleEndian(UInt16(1))])
        #expect(
            VersionHasher.attributeHash(Attribute("title", .string))
                == Self.sha256([optional, Self.littleEndian(UInt32(700))]))
        let required = Self.sha256([Data("count".utf8), Self.littleEndian(UInt16(0))])
        #expect(
            VersionHasher.attributeHash(Attribute("count", .integer16, isOptional: false))
                == Self.sha256([required, Data([0x64, 0x00, 0x00, 0x00])]))
        let transient = Self.sha256([Data("cache".utf8), Self.littleEndian(UInt16(3))])
        #expect(
            VersionHasher.attributeHash(Attribute("cache", .binary, isTransient: true))
                == Self.sha256([transient, Self.littleEndian(UInt32(1000))]))
    }

    @Test(
        "Attribute type codes are NSAttributeType's raw values",
        arguments: [
            (AttributeType.integer16, UInt32(100)), (.integer32, 200), (.integer64, 300), (.decimal, 400),
            (.double, 500), (.float, 600), (.string, 700), (.boolean, 800), (.date, 900), (.binary, 1000),
            (.uuid, 1100), (.uri, 1200), (.transformable, 1800), (.objectID, 2000),
        ])
    func attributeTypeCodes(_ type: AttributeType, _ code: UInt32) {
        #expect(type.versionHashCode == code)
        let property = Self.sha256([Data("value".utf8), Self.littleEndian(UInt16(1))])
        #expect(
            VersionHasher.attributeHash(Attribute("value", type))
                == Self.sha256([property, Self.littleEndian(code)]))
    }

    @Test("Every attribute type has a distinct code")
    func attributeTypeCodesAreDistinct() {
        #expect(Set(AttributeType.allCases.map(\.versionHashCode)).count == AttributeType.allCases.count)
        // The 14 stored types, Undefined (code 0), which only transient attributes have, and
        // Composite (2100).
        #expect(AttributeType.allCases.count == 16)
    }

    @Test("A relationship hashes destination, inverse, counts and the ordered flag")
    func relationshipHashFormula() {
        let property = Self.sha256([Data("author".utf8), Self.littleEndian(UInt16(1))])
        #expect(
            VersionHasher.relationshipHash(Relationship("author", destination: "Author", inverse: "books"))
                == Self.sha256([
                    property, Data("Author".utf8), Data("books".utf8), Self.littleEndian(UInt32(1)),
                    Self.littleEndian(UInt32(0)),
                ]))
        // No inverse: nothing in its place. Ordered: a trailing UInt16 1. minCount kept as written.
        let items = Self.sha256([Data("items".utf8), Self.littleEndian(UInt16(0))])
        #expect(
            VersionHasher.relationshipHash(
                Relationship(
                    "items", destination: "Item", isToMany: true, isOrdered: true, minCount: 2, isOptional: false))
                == Self.sha256([
                    items, Data("Item".utf8), Self.littleEndian(UInt32(0)), Self.littleEndian(UInt32(2)),
                    Self.littleEndian(UInt16(1)),
                ]))
    }

    @Test(
        "An entity hashes its name, abstract flag, parent hash, sorted inherited properties and constraints, concatenated"
    )
    func entityHashFormula() throws {
        var model = Self.library
        model.update("Item") { $0.uniquenessConstraints = [["title", "createdAt"], ["createdAt"]] }
        let item = try #require(model[entity: "Item"])
        let book = try #require(model[entity: "Book"])
        let itemHash = Self.sha256(
            [Data("Item".utf8), Data([1])]
                + [
                    VersionHasher.attributeHash(Attribute("createdAt", .date, isOptional: false)),
                    VersionHasher.attributeHash(Attribute("title", .string)),
                ] + [Data("createdAttitle.createdAt".utf8)])
        #expect(VersionHasher.entityHash(of: item, in: model) == itemHash)
        // The subentity includes the parent's hash and inherited properties, not its constraints.
        let properties = model.allProperties(of: book).sorted { $0.name < $1.name }
        #expect(properties.map(\.name) == ["author", "createdAt", "isbn", "pages", "shelves", "title"])
        let propertyHashes = properties.map { property in
            switch property {
            case .attribute(let attribute): VersionHasher.attributeHash(attribute)
            case .relationship(let relationship): VersionHasher.relationshipHash(relationship)
            }
        }
        let bookHash = Self.sha256([Data("Book".utf8), Data([0]), itemHash] + propertyHashes)
        #expect(VersionHasher.entityHash(of: book, in: model) == bookHash)
        #expect(model.entityVersionHashes["Book"] == bookHash)
    }

    // MARK: - Single changes

    @Test("A single change changes an entity's hash exactly when Core Data's would", arguments: HashChange.all)
    func singleChangeAffectsHash(_ change: HashChange) throws {
        var changed = Self.library
        change.apply(&changed)
        let before = try #require(Self.library.entityVersionHashes[change.entity])
        let after = try #require(changed.entityVersionHashes[change.entity])
        #expect((before != after) == change.changesHash)
    }

    @Test("Uniqueness constraints are sorted, so their order doesn't matter")
    func uniquenessConstraintOrderDoesNotMatter() {
        let orders: [[[String]]] = [
            [["isbn"], ["pages", "title"], ["author"]],
            [["pages", "title"], ["author"], ["isbn"]],
            [["author"], ["isbn"], ["pages", "title"]],
        ]
        let hashes = orders.map { constraints in
            var model = Self.library
            model.update("Book") { $0.uniquenessConstraints = constraints }
            return model.entityVersionHashes["Book"]
        }
        #expect(Set(hashes).count == 1)
        #expect(hashes.first != Self.library.entityVersionHashes["Book"])
        // One constraint over two properties is not two constraints over one each.
        var split = Self.library
        split.update("Book") { $0.uniquenessConstraints = [["isbn"], ["pages"]] }
        var joined = Self.library
        joined.update("Book") { $0.uniquenessConstraints = [["isbn", "pages"]] }
        #expect(split.entityVersionHashes["Book"] != joined.entityVersionHashes["Book"])
    }

    @Test("A parent's uniqueness constraint reaches a subentity only through the parent hash")
    func parentConstraintOnlyChangesParentHash() throws {
        var constrained = Self.library
        constrained.update("Item") { $0.uniquenessConstraints = [["title"]] }
        // The subentity's hash is its usual formula over the new parent hash: no constraint text.
        let parentHash = try #require(constrained.entityVersionHashes["Item"])
        let book = try #require(constrained[entity: "Book"])
        let propertyHashes = constrained.allProperties(of: book).sorted { $0.name < $1.name }.map { property in
            switch property {
            case .attribute(let attribute): VersionHasher.attributeHash(attribute)
            case .relationship(let relationship): VersionHasher.relationshipHash(relationship)
            }
        }
        let expected = Self.sha256([Data("Book".utf8), Data([0]), parentHash] + propertyHashes)
        #expect(constrained.entityVersionHashes["Book"] == expected)
        #expect(constrained.entityVersionHashes["Book"] != Self.library.entityVersionHashes["Book"])
        #expect(constrained.entityVersionHashes["Author"] == Self.library.entityVersionHashes["Author"])
    }

    @Test("Hashes are computed for every entity, even in a model with an inheritance cycle")
    func hashingTerminatesOnCycles() {
        let model = ObjectModel("Cycle") {
            Entity("A", parent: "B") { Attribute("a", .string) }
            Entity("B", parent: "A") { Attribute("b", .string) }
        }
        let hashes = model.entityVersionHashes
        #expect(hashes.keys.sorted() == ["A", "B"])
        #expect(hashes.values.allSatisfy { $0.count == 32 })
    }

    // MARK: - Compatibility with store metadata

    @Test("A model is compatible only with metadata holding exactly its hashes")
    func compatibilityWithMetadata() throws {
        let model = Self.library
        let hashes = model.entityVersionHashes
        #expect(hashes.keys.sorted() == ["Author", "Book", "Item", "Shelf"])
        let bookHash = try #require(hashes["Book"])
        func metadata(_ hashes: [String: Any]) -> [String: Any] {
            ["NSStoreType": "SQLite", "NSStoreModelVersionHashesVersion": 3, "NSStoreModelVersionHashes": hashes]
        }
        #expect(model.isCompatible(withStoreMetadata: metadata(hashes)))

        var differing = hashes
        differing["Book"] = Data(repeating: 0, count: 32)
        #expect(!model.isCompatible(withStoreMetadata: metadata(differing)))

        var extra = hashes
        extra["Magazine"] = bookHash
        #expect(!model.isCompatible(withStoreMetadata: metadata(extra)))

        var missing = hashes
        missing["Shelf"] = nil
        #expect(!model.isCompatible(withStoreMetadata: metadata(missing)))

        var notData: [String: Any] = hashes
        notData["Book"] = VersionHasher.hex(bookHash)
        #expect(!model.isCompatible(withStoreMetadata: metadata(notData)))

        #expect(!model.isCompatible(withStoreMetadata: ["NSStoreType": "SQLite"]))
        #expect(!model.isCompatible(withStoreMetadata: [:]))
    }

    @Test("hex prints lowercase hex, two digits a byte")
    func hex() {
        #expect(VersionHasher.hex(Data([0x00, 0x0f, 0xa0, 0xff, 0x5c])) == "000fa0ff5c")
        #expect(VersionHasher.hex(Data()) == "")
    }
}

import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A to-many without inverse: a hidden foreign key `Z<n><NAME>` in the destination's table from
/// Core Data 1241, a join table before (``CoreDataRelease``). The models are those of real stores,
/// rebuilt in Swift from their tables (their own models are only in `Z_MODELCACHE`).
@Suite("StoreLayout: to-many without inverse")
struct InverselessToManyLayoutTests {
    /// CartKit's Core Data store (`CartStorage_v1.sqlite`, 1523): `CDCartItem.modifiers` has no
    /// inverse, and neither has `CDCartItemModifier.item`.
    static let cartKit = ObjectModel("CartStorage") {
        Entity("CDCart") {
            Attribute("context", .string)
            Attribute("createdAt", .date)
            Attribute("displayName", .string)
            Attribute("id", .string)
            Attribute("maxItemCount", .integer64)
            Attribute("metadataJSON", .binary)
            Attribute("minSubtotalAmount", .decimal)
            Attribute("minSubtotalCurrencyCode", .string)
            Attribute("profileID", .string)
            Attribute("status", .string)
            Attribute("storeID", .string)
            Attribute("storeImageURL", .string)
            Attribute("updatedAt", .date)
            Relationship("items", to: "CDCartItem", inverse: "cart").toMany()
        }
        Entity("CDCartItem") {
            Attribute("availableStock", .integer64)
            Attribute("id", .string)
            Attribute("imageURL", .string)
            Attribute("productID", .string)
            Attribute("quantity", .integer64)
            Attribute("totalPriceAmount", .decimal)
            Attribute("totalPriceCurrencyCode", .string)
            Attribute("unitPriceAmount", .decimal)
            Attribute("unitPriceCurrencyCode", .string)
            Relationship("cart", to: "CDCart", inverse: "items")
            Relationship("modifiers", to: "CDCartItemModifier").toMany()
        }
        Entity("CDCartItemModifier") {
            Attribute("id", .string)
            Attribute("name", .string)
            Attribute("priceDeltaAmount", .decimal)
            Attribute("priceDeltaCurrencyCode", .string)
            Relationship("item", to: "CDCartItem")
        }
    }

    /// CartKit's SwiftData store (`CartKitSwiftData_v1.sqlite`, 1523): both to-manys lack an
    /// inverse.
    static let cartKitSwiftData = ObjectModel("CartKitSwiftData") {
        Entity("CartItemModel") {
            Attribute("availableStock", .integer64)
            Attribute("id", .string)
            Attribute("imageURLString", .string)
            Attribute("productID", .string)
            Attribute("quantity", .integer64)
            Attribute("totalPriceAmount", .decimal)
            Attribute("totalPriceCurrencyCode", .string)
            Attribute("unitPriceAmount", .decimal)
            Attribute("unitPriceCurrencyCode", .string)
            Relationship("modifiers", to: "CartItemModifierModel").toMany()
            Unique("id")
        }
        Entity("CartItemModifierModel") {
            Attribute("id", .string)
            Attribute("name", .string)
            Attribute("priceDeltaAmount", .decimal)
            Attribute("priceDeltaCurrencyCode", .string)
            Unique("id")
        }
        Entity("CartModel") {
            Attribute("context", .string)
            Attribute("createdAt", .date)
            Attribute("displayName", .string)
            Attribute("id", .string)
            Attribute("maxItemCount", .integer64)
            Attribute("metadataJSON", .binary)
            Attribute("minSubtotalAmount", .decimal)
            Attribute("minSubtotalCurrencyCode", .string)
            Attribute("profileID", .string)
            Attribute("status", .string)
            Attribute("storeID", .string)
            Attribute("storeImageURLString", .string)
            Attribute("updatedAt", .date)
            Relationship("items", to: "CartItemModel").toMany()
            Unique("id")
        }
    }

    /// The part of Photos' model (macOS 13, `Test-PhotoScript-13.0.1.photoslibrary`, 1241) around
    /// `Asset.libraryScopeAssetContributors`: Asset is Z_ENT 3, AssetContributor 5.
    static let photos = ObjectModel("Photos") {
        Entity("AdditionalAssetAttributes") { Attribute("title", .string) }
        Entity("AlbumList") { Attribute("identifier", .integer32) }
        Entity("Asset") {
            Attribute("uuid", .string)
            Relationship("libraryScopeAssetContributors", to: "AssetContributor").toMany()
        }
        Entity("AssetAnalysisState") { Attribute("analysisState", .integer32) }
        Entity("AssetContributor") {
            Relationship("participant", to: "Participant", inverse: "contributions")
        }
        Entity("Participant") {
            Relationship("contributions", to: "AssetContributor", inverse: "participant").toMany()
        }
    }

    static let release1145 = CoreDataRelease(frameworkVersion: 1145)
    static let release1241 = CoreDataRelease(frameworkVersion: 1241)
    static let release1523 = CoreDataRelease(frameworkVersion: 1523)

    @Test func cartKitModifiersAreAHiddenForeignKeyAfterTheModifiersOwnToOne() throws {
        let layout = try StoreLayout(model: Self.cartKit, release: Self.release1523)
        // CREATE TABLE ZCDCARTITEMMODIFIER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
        //   ZITEM INTEGER, Z2MODIFIERS INTEGER, ZPRICEDELTAAMOUNT DECIMAL, ZID VARCHAR, ZNAME VARCHAR,
        //   ZPRICEDELTACURRENCYCODE VARCHAR )
        let table = try #require(layout.table(named: "ZCDCARTITEMMODIFIER"))
        #expect(
            table.columns.map { "\($0.name) \($0.type)" } == [
                "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZITEM INTEGER", "Z2MODIFIERS INTEGER",
                "ZPRICEDELTAAMOUNT DECIMAL", "ZID VARCHAR", "ZNAME VARCHAR", "ZPRICEDELTACURRENCYCODE VARCHAR",
            ])
        #expect(
            table.column(named: "Z2MODIFIERS")?.role
                == .hiddenForeignKey(entity: "CDCartItem", relationship: "modifiers"))
        #expect(
            layout.indexes(on: "ZCDCARTITEMMODIFIER").map { "\($0.name) \($0.columns)" } == [
                #"ZCDCARTITEMMODIFIER_ZITEM_INDEX ["ZITEM"]"#,
                #"ZCDCARTITEMMODIFIER_Z2MODIFIERS_INDEX ["Z2MODIFIERS"]"#,
            ])
        let modifiers = try #require(layout.entity(named: "CDCartItem")?.relationship(named: "modifiers"))
        #expect(
            modifiers.storage
                == .inverseForeignKey(table: "ZCDCARTITEMMODIFIER", column: "Z2MODIFIERS", orderColumn: nil))
        #expect(modifiers.hasHiddenForeignKey)
        #expect(layout.entity(named: "CDCart")?.relationship(named: "items")?.hasHiddenForeignKey == false)
        // No join table: entity tables and bookkeeping only.
        #expect(
            layout.tables.map(\.name) == [
                "ZCDCART", "ZCDCARTITEM", "ZCDCARTITEMMODIFIER", "Z_PRIMARYKEY", "Z_METADATA",
            ])
        // DECIMAL is a group of its own, after TIMESTAMP: `ZCREATEDAT, ZUPDATEDAT, ZMINSUBTOTALAMOUNT`.
        #expect(
            layout.table(named: "ZCDCART")?.columnNames == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZMAXITEMCOUNT", "ZCREATEDAT", "ZUPDATEDAT", "ZMINSUBTOTALAMOUNT", "ZCONTEXT",
                "ZDISPLAYNAME", "ZID", "ZMINSUBTOTALCURRENCYCODE", "ZPROFILEID", "ZSTATUS", "ZSTOREID",
                "ZSTOREIMAGEURL",
                "ZMETADATAJSON",
            ])
    }

    @Test func photosContributorsComeAfterTheParticipantThoughTheirNameSortsFirst() throws {
        let layout = try StoreLayout(model: Self.photos, release: Self.release1241)
        #expect(layout.entity(named: "Asset")?.number == 3)
        #expect(layout.entity(named: "AssetContributor")?.number == 5)
        // CREATE TABLE ZASSETCONTRIBUTOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
        //   ZPARTICIPANT INTEGER, Z3LIBRARYSCOPEASSETCONTRIBUTORS INTEGER )
        #expect(
            layout.table(named: "ZASSETCONTRIBUTOR")?.createStatement
                == #"CREATE TABLE "ZASSETCONTRIBUTOR" ( "Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, "ZPARTICIPANT" INTEGER, "Z3LIBRARYSCOPEASSETCONTRIBUTORS" INTEGER )"#
        )
        #expect(
            layout.indexes(on: "ZASSETCONTRIBUTOR").map(\.name) == [
                "ZASSETCONTRIBUTOR_ZPARTICIPANT_INDEX", "ZASSETCONTRIBUTOR_Z3LIBRARYSCOPEASSETCONTRIBUTORS_INDEX",
            ])
    }

    /// Core Data stores a to-many without inverse this way in every release (``CoreDataRelease``).
    @Test(arguments: [637, 1044, 1145, 1240, 1523])
    func everyReleaseHasTheHiddenForeignKey(frameworkVersion: Int) throws {
        let layout = try StoreLayout(model: Self.cartKit, release: CoreDataRelease(frameworkVersion: frameworkVersion))
        #expect(layout.table(named: "Z_2MODIFIERS") == nil)
        #expect(layout.table(named: "ZCDCARTITEMMODIFIER")?.column(named: "Z2MODIFIERS") != nil)
        #expect(layout.entity(named: "CDCartItem")?.relationship(named: "modifiers")?.hasHiddenForeignKey == true)
        #expect(
            layout.indexes(on: "ZCDCARTITEMMODIFIER").map(\.name) == [
                "ZCDCARTITEMMODIFIER_ZITEM_INDEX", "ZCDCARTITEMMODIFIER_Z2MODIFIERS_INDEX",
            ])
    }

    /// A store that keeps such a to-many in a join table (a public Telegram store's form,
    /// `Z_6MEMBERS (Z_6MEMBERSINVERSE, Z_6MEMBERS)`) is read as it is.
    @Test func anExistingStoresJoinTableIsKept() throws {
        let release = CoreDataRelease(frameworkVersion: 1145)
        let joined = SQLiteSchema(
            tables: [
                SQLiteSchema.Table(
                    name: "Z_2MODIFIERS",
                    columns: [
                        .init(name: "Z_2MODIFIERSINVERSE", type: "INTEGER"),
                        .init(name: "Z_3MODIFIERS", type: "INTEGER"),
                    ], primaryKey: ["Z_2MODIFIERSINVERSE", "Z_3MODIFIERS"])
            ], indexes: [])
        let layout = try StoreLayout(model: Self.cartKit, release: release, matching: joined)
        #expect(layout.table(named: "Z_2MODIFIERS")?.columnNames == ["Z_2MODIFIERSINVERSE", "Z_3MODIFIERS"])
        #expect(layout.table(named: "ZCDCARTITEMMODIFIER")?.column(named: "Z2MODIFIERS") == nil)
        #expect(layout.entity(named: "CDCartItem")?.relationship(named: "modifiers")?.joinTableName == "Z_2MODIFIERS")
        #expect(layout.entity(named: "CDCartItem")?.relationship(named: "modifiers")?.hasHiddenForeignKey == false)
        #expect(layout.indexes(on: "Z_2MODIFIERS").map(\.name) == ["Z_2MODIFIERS_Z_3MODIFIERS_INDEX"])
    }

    /// The ordered form, as a Core Data 849 store has it (`ZACCELERATION.Z3ACCELERATIONS`,
    /// `Z_FOK_3ACCELERATIONS`), and the holder's entity column when the declaring entity has
    /// subentities (`NSSQLToOne`, decompiled; no store has one).
    @Test func anOrderedOneHasAPositionColumnAndAHierarchyAnEntityColumn() throws {
        #expect(CoreDataRelease.newest.frameworkVersion == 1523)
        let layout = try StoreLayout(
            model: ObjectModel("Files") {
                Entity("Folder") {
                    Relationship("files", to: "File").ordered()
                    Relationship("items", to: "File").toMany()
                }
                Entity("SmartFolder", parent: "Folder") {}
                Entity("File") { Attribute("name", .string) }
            }, release: CoreDataRelease(frameworkVersion: 849))
        // File is 1, Folder 2, SmartFolder 3.
        #expect(
            layout.table(named: "ZFILE")?.columnNames == [
                "Z_PK", "Z_ENT", "Z_OPT", "Z2FILES", "Z2_2FILES", "Z_FOK_2FILES", "Z2ITEMS", "Z2_2ITEMS", "ZNAME",
            ])
        #expect(layout.tables.filter { if case .join = $0.kind { true } else { false } }.isEmpty)
        let files = try #require(layout.entity(named: "Folder")?.relationship(named: "files"))
        #expect(files.storage == .inverseForeignKey(table: "ZFILE", column: "Z2FILES", orderColumn: "Z_FOK_2FILES"))
        #expect(files.hiddenEntityColumn == "Z2_2FILES")
        #expect(
            layout.table(named: "ZFILE")?.column(named: "Z2_2FILES")?.role
                == .hiddenForeignKeyEntity(entity: "Folder", relationship: "files"))
        #expect(
            layout.table(named: "ZFILE")?.column(named: "Z_FOK_2FILES")?.role
                == .order(entity: "Folder", relationship: "files"))
        #expect(layout.entity(named: "SmartFolder")?.relationship(named: "files")?.hiddenEntityColumn == "Z2_2FILES")
        // Only the keys are indexed. And the DDL runs.
        let schema = try SQLiteSchema(expectedFor: layout)
        #expect(schema.indexes(on: "ZFILE").map(\.name).sorted() == ["ZFILE_Z2FILES_INDEX", "ZFILE_Z2ITEMS_INDEX"])
    }

    /// The layouts against the real stores themselves (copies): every table, column (in order),
    /// type and index, and `Z_PRIMARYKEY`'s entities.
    @Test(
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"),
        arguments: [
            (
                "real-stores/Karim-ezzedine-CartKit/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite",
                "CartStorage"
            ),
            (
                "real-stores/Karim-ezzedine-CartKit/Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite",
                "CartKitSwiftData"
            ),
            (
                "real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-13.0.1.photoslibrary/database/Photos.sqlite",
                "Photos"
            ),
        ])
    func theRealStoresHaveTheseLayouts(path: String, modelName: String) throws {
        let model = try #require([Self.cartKit, Self.cartKitSwiftData, Self.photos].first { $0.name == modelName })
        let directory = try TemporaryDirectory(prefix: "stepwise-inverseless")
        let copy = try Corpus.required().copyStore(path, to: directory.url)
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        let (actual, metadata, primaryKeys) = try queue.read { db in
            (
                try SQLiteSchema.read(from: db), try StoreMetadata.read(from: db, path: copy.path),
                try PrimaryKeyRow.readAll(from: db)
            )
        }
        let layout = try StoreLayout(model: model, release: metadata.release, matching: actual)
        let expected = try SQLiteSchema(expectedFor: layout)
        if modelName == "Photos" {
            #expect(metadata.release.frameworkVersion == 1241)
            for table in ["ZASSETCONTRIBUTOR"] {
                #expect(
                    actual.table(named: table)?.columns.map(\.name) == expected.table(named: table)?.columns.map(\.name)
                )
                #expect(Set(actual.indexes(on: table).map(\.name)) == Set(expected.indexes(on: table).map(\.name)))
            }
            return
        }
        #expect(metadata.release.frameworkVersion == 1523)
        #expect(primaryKeys.map(\.ignoringMaximum).filter { $0.entityNumber < 16_000 } == layout.primaryKeyRows)
        // SwiftData's persistent-history tables (ACHANGE…, Z_ENT 16001 and up) aren't the model's.
        let history: Set<String> = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
        #expect(actual.differences(from: expected, ignoringTables: StoreLayout.optionalTableNames.union(history)) == [])
        for table in layout.tables {
            #expect(actual.table(named: table.name)?.columns.map(\.name) == table.columnNames)
        }
    }
}

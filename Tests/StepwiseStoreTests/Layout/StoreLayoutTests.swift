import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// Layout rules the corpus doesn't exercise, on models built in Swift.
@Suite("StoreLayout")
struct StoreLayoutTests {
    @Test func entitiesAreNumberedRootsByNameThenSubentitiesDepthFirst() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Zoo") {
                Entity("Zebra") { Attribute("stripes", .integer16) }
                Entity("Animal", isAbstract: true) { Attribute("name", .string) }
                Entity("Dog", parent: "Animal") {}
                Entity("Cat", parent: "Animal") {}
                Entity("Kitten", parent: "Cat") {}
            })
        #expect(layout.entities.map(\.name) == ["Animal", "Cat", "Kitten", "Dog", "Zebra"])
        #expect(layout.entities.map(\.number) == [1, 2, 3, 4, 5])
        #expect(layout.entities.map(\.superNumber) == [0, 1, 2, 1, 0])
        #expect(layout.entity(named: "Cat")?.subentityNumbers == [2, 3])
        #expect(layout.entity(named: "Animal")?.subentityNumbers == [1, 2, 3, 4])
        #expect(layout.entity(named: "Kitten")?.tableName == "ZANIMAL")
        #expect(layout.entity(number: 5)?.name == "Zebra")
        #expect(layout.entity(number: 6) == nil)
        #expect(layout.tables.map(\.name) == ["ZANIMAL", "ZZEBRA", "Z_PRIMARYKEY", "Z_METADATA"])
        #expect(layout.indexes.map(\.name) == ["ZANIMAL_Z_ENT_INDEX"])
        #expect(layout.table(named: "ZANIMAL")?.entityNumbers == [1, 2, 3, 4])
    }

    @Test func sameNameInThreeEntitiesOfATableGetsNumberedColumns() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Zoo") {
                Entity("Animal") { Attribute("age", .integer16) }
                Entity("Dog", parent: "Animal") { Attribute("name", .string) }
                Entity("Cat", parent: "Animal") { Attribute("name", .string) }
                Entity("Fish", parent: "Animal") { Attribute("name", .integer32).indexed() }
                Entity("Owner") { Attribute("name", .string) }
            })
        // Z_ENT: Animal 1, Cat 2, Dog 3, Fish 4: the lowest keeps the name.
        #expect(layout.entity(named: "Cat")?.column(for: "name") == "ZNAME")
        #expect(layout.entity(named: "Dog")?.column(for: "name") == "ZNAME1")
        #expect(layout.entity(named: "Fish")?.column(for: "name") == "ZNAME2")
        #expect(layout.entity(named: "Owner")?.column(for: "name") == "ZNAME")  // another table
        let table = try #require(layout.table(named: "ZANIMAL"))
        #expect(table.columnNames == ["Z_PK", "Z_ENT", "Z_OPT", "ZAGE", "ZNAME2", "ZNAME", "ZNAME1"])
        #expect(table.column(named: "ZNAME2")?.type == "INTEGER")
        #expect(table.column(named: "ZNAME1")?.role == .attribute(entity: "Dog", property: "name"))
        // Core Data 847 and later name an attribute's index after its entity and property.
        #expect(layout.indexes(on: "ZANIMAL").map(\.name).contains("Z_Fish_name"))
        let older = try StoreLayout(model: layout.model, release: CoreDataRelease(frameworkVersion: 754))
        #expect(older.indexes(on: "ZANIMAL").map(\.name).contains("ZANIMAL_ZNAME2_INDEX"))
    }

    /// Screen Time's organizations (RMAdminStore-Local, Core Data 1044): `settings` is a to-one in
    /// Cloud (8) and Local (10) and a to-many in Family (9), which has no column and takes no number.
    @Test func aToManyTakesNoNumberInItsTable() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Organizations") {
                Entity("CoreOrganization") { Attribute("identifier", .string) }.abstract()
                Entity("CloudOrganization", parent: "CoreOrganization") {
                    Relationship("settings", to: "Settings", inverse: "cloud")
                }
                Entity("FamilyOrganization", parent: "CoreOrganization") {
                    Relationship("settings", to: "Settings", inverse: "family").toMany()
                }
                Entity("LocalOrganization", parent: "CoreOrganization") {
                    Relationship("settings", to: "Settings", inverse: "local")
                }
                Entity("Settings") {
                    Relationship("cloud", to: "CloudOrganization", inverse: "settings")
                    Relationship("family", to: "FamilyOrganization", inverse: "settings")
                    Relationship("local", to: "LocalOrganization", inverse: "settings")
                }
            })
        #expect(layout.entity(named: "CloudOrganization")?.column(for: "settings") == "ZSETTINGS")
        #expect(layout.entity(named: "LocalOrganization")?.column(for: "settings") == "ZSETTINGS1")
        #expect(
            layout.table(named: "ZCOREORGANIZATION")?.columnNames == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZSETTINGS", "ZSETTINGS1", "ZIDENTIFIER",
            ])
    }

    /// Screen Time's `Usage` (RMAdminStore-Local, 1044): a fetch index on one to-one alone would
    /// repeat its foreign key's index, and Core Data doesn't create it; one on two does.
    @Test func aFetchIndexOnOneToOneAloneIsTheForeignKeysIndex() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Usage") {
                Entity("Usage") {
                    Relationship("user", to: "User", inverse: "usages")
                    Relationship("device", to: "Device", inverse: "usages")
                    FetchIndex(name: "byUser", elements: [.init(property: "user")])
                    FetchIndex(name: "byUserAndDevice", elements: [.init(property: "user"), .init(property: "device")])
                }
                Entity("User") { Relationship("usages", to: "Usage", inverse: "user").toMany() }
                Entity("Device") { Relationship("usages", to: "Usage", inverse: "device").toMany() }
            })
        #expect(
            Set(layout.indexes(on: "ZUSAGE").map(\.name)) == [
                "ZUSAGE_ZUSER_INDEX", "ZUSAGE_ZDEVICE_INDEX", "Z_Usage_byUserAndDevice",
            ])
    }

    @Test func manyToManyTableIsNamedByTheEntityWhoseNameSortsFirst() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Notes") {
                Entity("Tag") { Relationship("notes", to: "Note", inverse: "tags").toMany() }
                Entity("Note") { Relationship("tags", to: "Tag", inverse: "notes").toMany() }
            })
        // Note is 1, Tag is 2; "Note" < "Tag", so Note.tags names the table.
        let table = try #require(layout.table(named: "Z_1TAGS"))
        #expect(table.kind == .join(entity: "Note", relationship: "tags"))
        #expect(table.columnNames == ["Z_1NOTES", "Z_2TAGS"])
        #expect(table.primaryKey == ["Z_1NOTES", "Z_2TAGS"])
        #expect(
            table.createStatement
                == #"CREATE TABLE "Z_1TAGS" ( "Z_1NOTES" INTEGER, "Z_2TAGS" INTEGER, PRIMARY KEY ("Z_1NOTES", "Z_2TAGS") )"#
        )
        #expect(
            layout.entity(named: "Tag")?.relationship(named: "notes")?.storage
                == .joinTable(
                    table: "Z_1TAGS", sourceColumn: "Z_2TAGS", destinationColumn: "Z_1NOTES", orderColumn: nil))
        // From Core Data 640 (every Wire store), led by the column the table is named after.
        #expect(layout.indexes(on: "Z_1TAGS").map(\.name) == ["Z_1TAGS_Z_2TAGS_INDEX"])
        #expect(layout.indexes(on: "Z_1TAGS").first?.columns == ["Z_2TAGS", "Z_1NOTES"])
        // Not before (Apptentive v1 to v4, 419 and 479).
        let older = try StoreLayout(model: layout.model, release: CoreDataRelease(frameworkVersion: 479))
        #expect(older.indexes(on: "Z_1TAGS").isEmpty)
    }

    @Test func manyToManyOwnerMayHaveTheHigherEntityNumber() throws {
        // As in Apptentive v1: ATMessage (6) owns Z_6DISPLAYTYPES over ATMessageDisplayType (2).
        let layout = try StoreLayout(
            model: ObjectModel("Messages") {
                Entity("Record") { Attribute("created", .date) }
                Entity("Message", parent: "Record") {
                    Relationship("kinds", to: "MessageKind", inverse: "messages").toMany()
                }
                Entity("MessageKind") { Relationship("messages", to: "Message", inverse: "kinds").toMany() }
            })
        #expect(layout.entity(named: "Message")?.number == 3)
        #expect(layout.table(named: "Z_3KINDS")?.columnNames == ["Z_3MESSAGES", "Z_1KINDS"])
        #expect(layout.table(named: "Z_1MESSAGES") == nil)
    }

    @Test func selfReferencingManyToManyNamesItsColumnsApart() throws {
        let layout = try StoreLayout(
            model: ObjectModel("People") {
                Entity("Person") {
                    Relationship("friends", to: "Person", inverse: "friends").toMany()
                    Relationship("followers", to: "Person", inverse: "following").toMany()
                    Relationship("following", to: "Person", inverse: "followers").toMany()
                }
            })
        // Its own inverse: one table, whose second column is `REFLEXIVE` (Photos'
        // `Z_54MERGECANDIDATES (Z_54MERGECANDIDATES, REFLEXIVE)`).
        let friends = try #require(layout.table(named: "Z_1FRIENDS"))
        #expect(friends.columnNames == ["Z_1FRIENDS", "REFLEXIVE"])
        #expect(friends.primaryKey == ["Z_1FRIENDS", "REFLEXIVE"])
        // Two relationships of one entity: the one first in the entity's slot order owns the table.
        #expect(layout.table(named: "Z_1FOLLOWERS")?.columnNames == ["Z_1FOLLOWING", "Z_1FOLLOWERS"])
        #expect(layout.table(named: "Z_1FOLLOWING") == nil)
        #expect(
            layout.entity(named: "Person")?.relationship(named: "following")?.storage
                == .joinTable(
                    table: "Z_1FOLLOWERS", sourceColumn: "Z_1FOLLOWERS", destinationColumn: "Z_1FOLLOWING",
                    orderColumn: nil))
        // And the DDL runs.
        let schema = try SQLiteSchema(expectedFor: layout)
        #expect(schema.table(named: "Z_1FRIENDS")?.columns.count == 2)
    }

    /// In every release, a hidden foreign key in the destination's table
    /// (``InverselessToManyLayoutTests``).
    @Test func toManyWithoutInverseIsAHiddenForeignKey() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Files") {
                Entity("Folder") { Relationship("items", to: "Item").toMany() }
                Entity("Item") { Attribute("name", .string) }
            }, release: CoreDataRelease(frameworkVersion: 1145))
        #expect(layout.table(named: "Z_1ITEMS") == nil)
        #expect(layout.entity(named: "Folder")?.relationship(named: "items")?.hasHiddenForeignKey == true)
        #expect(layout.table(named: "ZITEM")?.columnNames == ["Z_PK", "Z_ENT", "Z_OPT", "Z1ITEMS", "ZNAME"])
    }

    /// DuckDuckGo's `BookmarkEntity` (Bookmarks model 4, Core Data 1333): `favorites` comes
    /// before `favoriteFolders` in the entity's slot order, so it names the table, though its name
    /// sorts after; `favoriteFolders`' column is named first and `favorites`' second. The
    /// corpus's stores have exactly this table (`RealStoreLayoutTests`).
    @Test func selfReferencingManyToManyIsNamedByTheSideCoreDataVisitsFirst() throws {
        let layout = try StoreLayout(
            model: ObjectModel("BookmarksModel") {
                Entity("BookmarkEntity") {
                    Attribute("isFolder", .boolean)
                    Attribute("isPendingDeletion", .boolean)
                    Attribute("modifiedAt", .date)
                    Attribute("title", .string)
                    Attribute("url", .string)
                    Attribute("uuid", .string)
                    Relationship("children", to: "BookmarkEntity", inverse: "parent").ordered()
                    Relationship("favoriteFolders", to: "BookmarkEntity", inverse: "favorites").toMany()
                    Relationship("favorites", to: "BookmarkEntity", inverse: "favoriteFolders").ordered()
                    Relationship("parent", to: "BookmarkEntity", inverse: "children")
                }
            })
        let table = try #require(layout.table(named: "Z_1FAVORITES"))
        #expect(table.columnNames == ["Z_1FAVORITEFOLDERS", "Z_1FAVORITES", "Z_FOK_1FAVORITES"])
        #expect(table.primaryKey == ["Z_1FAVORITEFOLDERS", "Z_1FAVORITES"])
        #expect(layout.table(named: "Z_1FAVORITEFOLDERS") == nil)
        let bookmark = try #require(layout.entity(named: "BookmarkEntity"))
        #expect(
            bookmark.relationship(named: "favorites")?.storage
                == .joinTable(
                    table: "Z_1FAVORITES", sourceColumn: "Z_1FAVORITEFOLDERS", destinationColumn: "Z_1FAVORITES",
                    orderColumn: "Z_FOK_1FAVORITES"))
        #expect(
            bookmark.relationship(named: "favoriteFolders")?.storage
                == .joinTable(
                    table: "Z_1FAVORITES", sourceColumn: "Z_1FAVORITES", destinationColumn: "Z_1FAVORITEFOLDERS",
                    orderColumn: nil))
        #expect(layout.indexes(on: "Z_1FAVORITES").map(\.name) == ["Z_1FAVORITES_Z_1FAVORITES_INDEX"])
    }

    /// An existing store keeps its own choice of the side naming a join table and of its columns'
    /// order (a store Core Data migrated in place may have an older one).
    @Test func anExistingStoresJoinTableChoicesAreKept() throws {
        let model = ObjectModel("People") {
            Entity("Person") {
                Relationship("followers", to: "Person", inverse: "following").toMany()
                Relationship("following", to: "Person", inverse: "followers").toMany()
            }
        }
        // A new store: `following` comes first in the slot order.
        #expect(
            try StoreLayout(model: model).table(named: "Z_1FOLLOWING")?.columnNames == ["Z_1FOLLOWERS", "Z_1FOLLOWING"])
        let store = SQLiteSchema(
            tables: [
                SQLiteSchema.Table(
                    name: "Z_1FOLLOWERS",
                    columns: [
                        .init(name: "Z_1FOLLOWERS", type: "INTEGER"), .init(name: "Z_1FOLLOWING", type: "INTEGER"),
                    ],
                    primaryKey: ["Z_1FOLLOWERS", "Z_1FOLLOWING"])
            ], indexes: [])
        let layout = try StoreLayout(model: model, matching: store)
        #expect(layout.table(named: "Z_1FOLLOWING") == nil)
        let table = try #require(layout.table(named: "Z_1FOLLOWERS"))
        #expect(table.columnNames == ["Z_1FOLLOWERS", "Z_1FOLLOWING"])
        #expect(table.primaryKey == ["Z_1FOLLOWERS", "Z_1FOLLOWING"])
        #expect(table.kind == .join(entity: "Person", relationship: "followers"))
        // The columns are named after the relationships whichever side names the table.
        #expect(
            layout.entity(named: "Person")?.relationship(named: "following")?.storage
                == .joinTable(
                    table: "Z_1FOLLOWERS", sourceColumn: "Z_1FOLLOWERS", destinationColumn: "Z_1FOLLOWING",
                    orderColumn: nil))
        #expect(layout.indexes(on: "Z_1FOLLOWERS").map(\.name) == ["Z_1FOLLOWERS_Z_1FOLLOWERS_INDEX"])
    }

    @Test func orderedOneToManyAddsAnOrderColumnWithoutIndex() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Lists") {
                Entity("List") { Relationship("entries", to: "Entry", inverse: "list").ordered() }
                Entity("Entry") {
                    Attribute("text", .string)
                    Relationship("list", to: "List", inverse: "entries")
                }
            })
        #expect(
            layout.table(named: "ZENTRY")?.columnNames == ["Z_PK", "Z_ENT", "Z_OPT", "ZLIST", "Z_FOK_LIST", "ZTEXT"])
        #expect(layout.indexes(on: "ZENTRY").map(\.name) == ["ZENTRY_ZLIST_INDEX"])
        #expect(
            layout.entity(named: "List")?.relationship(named: "entries")?.storage
                == .inverseForeignKey(table: "ZENTRY", column: "ZLIST", orderColumn: "Z_FOK_LIST"))
        #expect(layout.table(named: "ZLIST")?.columnNames == ["Z_PK", "Z_ENT", "Z_OPT"])
    }

    @Test func orderedManyToManyAddsAnOrderColumnToTheJoinTable() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Music") {
                Entity("Playlist") { Relationship("songs", to: "Song", inverse: "playlists").ordered() }
                Entity("Song") { Relationship("playlists", to: "Playlist", inverse: "songs").toMany() }
            })
        let table = try #require(layout.table(named: "Z_1SONGS"))
        #expect(table.columnNames == ["Z_1PLAYLISTS", "Z_2SONGS", "Z_FOK_2SONGS"])
        #expect(table.primaryKey == ["Z_1PLAYLISTS", "Z_2SONGS"])
        #expect(table.column(named: "Z_FOK_2SONGS")?.role == .order(entity: "Playlist", relationship: "songs"))
    }

    @Test func toOneIntoAHierarchyAlsoStoresTheDestinationEntity() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Pets") {
                Entity("Animal") {}
                Entity("Cat", parent: "Animal") {}
                Entity("Owner") { Relationship("pet", to: "Animal") }
            })
        #expect(layout.table(named: "ZOWNER")?.columnNames == ["Z_PK", "Z_ENT", "Z_OPT", "ZPET", "Z1_PET"])
        #expect(
            layout.entity(named: "Owner")?.relationship(named: "pet")?.storage
                == .foreignKey(column: "ZPET", entityColumn: "Z1_PET", orderColumn: nil))
        #expect(layout.indexes(on: "ZOWNER").map(\.name) == ["ZOWNER_ZPET_INDEX"])
    }

    @Test func transientPropertiesGetNoColumn() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Cache") {
                Entity("Item") {
                    Attribute("name", .string)
                    Attribute("cachedSize", .integer64).transient()
                    Relationship("parent", to: "Item").transient()
                }
            })
        let item = try #require(layout.entity(named: "Item"))
        #expect(item.column(for: "cachedSize") == nil)
        #expect(item.attribute(named: "cachedSize") == nil)
        #expect(item.relationship(named: "parent") == nil)
        #expect(layout.table(named: "ZITEM")?.columnNames == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME"])
    }

    @Test func indexesAndConstraintsFollowCoreDataNames() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Moods") {
                Entity("Mood") {
                    Attribute("date", .date)
                    Attribute("rating", .integer16)
                    Attribute("remoteID", .string).indexed()
                    CompoundIndex("rating", "date")
                    Unique("remoteID", "rating")
                    FetchIndex(
                        name: "byDate",
                        elements: [.init(property: "date", isAscending: false), .init(property: "rating")])
                }
            })
        // The newest forms, which Stepwise writes.
        let indexes = Dictionary(uniqueKeysWithValues: layout.indexes.map { ($0.name, $0) })
        #expect(
            Set(indexes.keys) == [
                "Z_Mood_remoteID", "Z_Mood_rating_date", "Z_Mood_byDate", "Z_Mood_UNIQUE_remoteID_rating",
            ])
        #expect(
            indexes["Z_Mood_byDate"]?.createStatement
                == #"CREATE INDEX "Z_Mood_byDate" ON "ZMOOD" ("ZDATE" COLLATE BINARY DESC, "ZRATING" COLLATE BINARY ASC)"#
        )
        #expect(indexes["Z_Mood_byDate"]?.kind == .fetchIndex(entity: "Mood", name: "byDate"))
        #expect(
            indexes["Z_Mood_UNIQUE_remoteID_rating"]?.createStatement
                == #"CREATE UNIQUE INDEX "Z_Mood_UNIQUE_remoteID_rating" ON "ZMOOD" ("ZREMOTEID" COLLATE BINARY ASC, "ZRATING" COLLATE BINARY ASC)"#
        )
        #expect(layout.table(named: "ZMOOD")?.uniqueConstraints.map(\.name) == ["ZREMOTEID_ZRATING"])
        let schema = try SQLiteSchema(expectedFor: layout)
        #expect(schema.index(named: "Z_Mood_byDate")?.columns == ["ZDATE", "ZRATING"])
        #expect(schema.index(named: "Z_Mood_UNIQUE_remoteID_rating")?.isUnique == true)
        #expect(schema.table(named: "ZMOOD")?.uniqueConstraints == [])

        // The forms of Core Data 637 (Moody's stores).
        let moody = try StoreLayout(model: layout.model, release: CoreDataRelease(frameworkVersion: 637))
        #expect(Set(moody.indexes.map(\.name)) == ["ZMOOD_ZREMOTEID_INDEX", "ZMOOD_ZRATING_ZDATE", "Z_Mood_byDate"])
        #expect(
            moody.indexes.first { $0.name == "ZMOOD_ZRATING_ZDATE" }?.createStatement
                == #"CREATE INDEX "ZMOOD_ZRATING_ZDATE" ON "ZMOOD" ("ZRATING", "ZDATE")"#)
        #expect(
            try SQLiteSchema(expectedFor: moody).table(named: "ZMOOD")?.uniqueConstraints == [["ZREMOTEID", "ZRATING"]])
    }

    @Test func attributeTypesMapToCoreDataColumnTypesInCoreDataOrder() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Types") {
                Entity("Value") {
                    for type in AttributeType.allCases where type != .undefined && type != .composite {
                        Attribute(type.rawValue.replacingOccurrences(of: " ", with: "").lowercased(), type)
                    }
                }
            })
        let table = try #require(layout.table(named: "ZVALUE"))
        let types = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0.type) })
        #expect(types["ZINTEGER16"] == "INTEGER")
        #expect(types["ZINTEGER64"] == "INTEGER")
        #expect(types["ZBOOLEAN"] == "INTEGER")
        #expect(types["ZDOUBLE"] == "FLOAT")
        #expect(types["ZFLOAT"] == "FLOAT")
        #expect(types["ZDATE"] == "TIMESTAMP")
        #expect(types["ZDECIMAL"] == "DECIMAL")
        #expect(types["ZSTRING"] == "VARCHAR")
        #expect(types["ZURI"] == "VARCHAR")
        #expect(types["ZOBJECTID"] == "VARCHAR")
        #expect(types["ZBINARY"] == "BLOB")
        #expect(types["ZTRANSFORMABLE"] == "BLOB")
        #expect(types["ZUUID"] == "BLOB")
        // DECIMAL after FLOAT and TIMESTAMP, not among them (CartKit's stores, Core Data 1523).
        #expect(
            table.columnNames == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZBOOLEAN", "ZINTEGER16", "ZINTEGER32", "ZINTEGER64", "ZDATE", "ZDOUBLE",
                "ZFLOAT", "ZDECIMAL", "ZOBJECTID", "ZSTRING", "ZURI", "ZBINARY", "ZTRANSFORMABLE", "ZUUID",
            ])
    }

    @Test func namesThatAreSQLKeywordsAreQuotedAndTheDDLRuns() throws {
        let model = ObjectModel("Keywords") {
            Entity("Order") {
                Attribute("group", .string).indexed()
                Attribute("select", .integer32)
                Relationship("table", to: "Table", inverse: "orders")
                CompoundIndex("group", "select")
                Unique("group", "select")
            }
            Entity("Table") { Relationship("orders", to: "Order", inverse: "table").ordered() }
        }
        let layout = try StoreLayout(model: model)
        #expect(layout.entity(named: "Order")?.column(for: "group") == "ZGROUP")
        let directory = try TemporaryDirectory()
        let url = directory.path("Keywords.sqlite")
        try StoreCreator.createStore(at: url, model: model)
        let dbQueue = try DatabaseQueue(path: url.path)
        defer { try? dbQueue.close() }
        try dbQueue.write { db in
            try db.execute(sql: #"INSERT INTO "ZTABLE" ("Z_PK", "Z_ENT", "Z_OPT") VALUES (1, 2, 1)"#)
            try db.execute(
                sql: #"INSERT INTO "ZORDER" ("Z_PK", "Z_ENT", "Z_OPT", "ZGROUP", "ZSELECT", "ZTABLE", "Z_FOK_TABLE")"#
                    + " VALUES (1, 1, 1, 'a', 2, 1, 1024)")
            // The uniqueness constraint is real.
            #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql:
                        #"INSERT INTO "ZORDER" ("Z_PK", "Z_ENT", "Z_OPT", "ZGROUP", "ZSELECT") VALUES (2, 1, 1, 'a', 2)"#
                )
            }
        }
        let schema = try dbQueue.read { db in try SQLiteSchema.read(from: db) }
        #expect(
            Set(schema.indexes.map(\.name)) == [
                "Z_Order_group", "Z_Order_group_select", "ZORDER_ZTABLE_INDEX", "Z_Order_UNIQUE_group_select",
            ])
        #expect(schema.differences(from: try SQLiteSchema(expectedFor: layout)) == [])
    }

    @Test func toManyInAnIndexIsRejected() throws {
        let model = ObjectModel("Bad") {
            Entity("Folder") {
                Relationship("items", to: "Item", inverse: "folder").toMany()
                CompoundIndex("items")
            }
            Entity("Item") { Relationship("folder", to: "Folder", inverse: "items") }
        }
        let error = try #require(throws: StoreError.self) { try StoreLayout(model: model) }
        guard case .unsupportedModel(let reason) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(reason.contains("'items'"))
        #expect(error.description.contains("model version 'Bad'"))
    }

    @Test func invalidModelIsReportedBeforeLayout() throws {
        let model = ObjectModel("Broken") {
            Entity("Item") { Relationship("owner", to: "Nobody") }
        }
        #expect(throws: ModelError.self) { try StoreLayout(model: model) }
    }

    @Test func namesDifferingOnlyByCaseAreRejected() throws {
        let model = ObjectModel("Cases") {
            Entity("Item") {}
            Entity("ITEM") {}
        }
        let error = try #require(throws: StoreError.self) { try StoreLayout(model: model) }
        #expect(error.description.contains("ZITEM"))
    }

    @Test func createStatementsQuoteEveryIdentifier() throws {
        let layout = try StoreLayout(
            model: ObjectModel("Quotes") {
                Entity("Item") { Attribute("name", .string).indexed() }
            })
        #expect(
            layout.createStatements == [
                #"CREATE TABLE "ZITEM" ( "Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, "ZNAME" VARCHAR )"#,
                #"CREATE TABLE "Z_PRIMARYKEY" ( "Z_ENT" INTEGER PRIMARY KEY, "Z_NAME" VARCHAR, "Z_SUPER" INTEGER, "Z_MAX" INTEGER )"#,
                #"CREATE TABLE "Z_METADATA" ( "Z_VERSION" INTEGER PRIMARY KEY, "Z_UUID" VARCHAR(255), "Z_PLIST" BLOB )"#,
                #"CREATE INDEX "Z_Item_name" ON "ZITEM" ("ZNAME" COLLATE BINARY ASC)"#,
            ])
    }
}

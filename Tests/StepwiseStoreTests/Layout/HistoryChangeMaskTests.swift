import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `ACHANGE.ZCOLUMNS` has one bit per property column, in Core Data's order: foreign keys,
/// entity keys, order keys, attributes, to-manys, many-to-manys; each group by declaring
/// entity, root first, then by name. Checked on a model with every kind of column, and on the
/// update masks Apple's Notes app wrote in a real store.
@Suite("HistoryChangeMask")
struct HistoryChangeMaskTests {
    static let library = ObjectModel("Library") {
        Entity("Item") {
            Attribute("title", .string)
            Attribute("code", .string)
            Relationship("owner", to: "Person", inverse: "items")
            Relationship("shelf", to: "Shelf", inverse: "items")
            Relationship("notes", to: "Note", inverse: "item").toMany()
            Relationship("tags", to: "Tag", inverse: "items").toMany()
        }
        Entity("Book") {
            Attribute("pages", .integer32)
            Attribute("author", .string)
            Relationship("publisher", to: "Publisher", inverse: "books")
        }.parent("Item")
        Entity("Note") {
            Attribute("text", .string)
            Relationship("item", to: "Item", inverse: "notes")
        }
        Entity("Person") {
            Attribute("name", .string)
            Relationship("items", to: "Item", inverse: "owner").toMany()
        }
        Entity("Member") {
            Attribute("since", .date)
        }.parent("Person")
        Entity("Publisher") {
            Relationship("books", to: "Book", inverse: "publisher").toMany()
        }
        Entity("Shelf") {
            Relationship("items", to: "Item", inverse: "shelf").ordered()
        }
        Entity("Tag") {
            Relationship("items", to: "Item", inverse: "tags").toMany()
        }
    }

    @Test func ordersTheBitsByColumnGroupThenDeclaringEntityThenName() throws {
        let layout = try StoreLayout(model: Self.library)
        let book = HistoryChangeMask(entity: try #require(layout.entity(named: "Book")), in: layout)
        #expect(
            book.propertyNames == [
                "owner", "shelf", "publisher",  // foreign keys: Item's, then Book's
                "owner",  // entity key: Person has a subentity (Z<n>_OWNER)
                "shelf",  // order key: Shelf.items is ordered (Z_FOK_SHELF)
                "code", "title", "author", "pages",  // attributes: Item's, then Book's
                "notes",  // to-many with a to-one inverse
                "tags",  // many-to-many
            ])
        #expect(book.byteCount == 2)
        let item = HistoryChangeMask(entity: try #require(layout.entity(named: "Item")), in: layout)
        #expect(item.propertyNames == ["owner", "shelf", "owner", "shelf", "code", "title", "notes", "tags"])
        #expect(item.byteCount == 1)
    }

    @Test func setsAndReadsBitsMostSignificantFirst() {
        let mask = HistoryChangeMask(propertyNames: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "b"])
        #expect(mask.bytes(setting: ["a"]) == [0b1000_0000, 0])
        #expect(mask.bytes(setting: ["b", "i"]) == [0b0100_0000, 0b1100_0000])
        #expect(mask.bytes(setting: []) == [0, 0])
        #expect(mask.propertyNames(setIn: [0b0010_0001, 0b1000_0000]) == ["c", "h", "i"])
        #expect(mask.propertyNames(setIn: [0xFF]) == nil)
    }

    @Test func remapsByNameAsCoreDataDoes() {
        let before = HistoryChangeMask(propertyNames: ["keeper", "age", "name", "nickname"])
        let after = HistoryChangeMask(propertyNames: ["keeper", "age", "breed", "moniker", "name"])
        // age and name keep their bits at their new places; nickname, renamed moniker, loses its.
        #expect(after.remapping([0b0111_0000], from: before) == [0b0100_1000])
        #expect(after.remapping([0b1000_0000], from: before) == [0b1000_0000])
        // A mask too short for its entity reads as no property, and comes out empty.
        #expect(after.remapping([], from: before) == [0])
    }

    // MARK: Notes, iOS (framework 1145)

    /// Enough of the Notes model (`NoteStore.sqlite`'s `Z_MODELCACHE`) to lay out
    /// `ICCloudState` and `ICDeviceMigrationState`, a subentity of `ICCloudSyncingObject`.
    static let notes = ObjectModel("Notes") {
        Entity("ICAccount") {
            Relationship("deviceMigrationStates", to: "ICDeviceMigrationState", inverse: "account").toMany()
        }
        Entity("ICCloudState") {
            Attribute("currentLocalVersion", .integer32)
            Attribute("inCloud", .boolean)
            Attribute("latestVersionSyncedToCloud", .integer32)
            Attribute("localVersionDate", .date)
            Relationship("cloudSyncingObject", to: "ICCloudSyncingObject", inverse: "cloudState")
        }
        Entity("ICCloudSyncingObject") {
            for name in [
                "activityEventsData", "assetCryptoInitializationVector", "assetCryptoTag", "cryptoInitializationVector",
                "cryptoSalt", "cryptoTag", "cryptoWrappedKey", "encryptedValuesJSON", "replicaIDToNotesVersionData",
                "serverRecordData", "serverShareData", "unappliedEncryptedRecord", "userSpecificServerRecordData",
            ] {
                Attribute(name, .binary)
            }
            for name in ["identifier", "passwordHint", "zoneOwnerName"] { Attribute(name, .string) }
            for name in [
                "isPasswordProtected", "markedForDeletion", "needsInitialFetchFromCloud", "needsToBeFetchedFromCloud",
                "needsToSaveUserSpecificRecord",
            ] {
                Attribute(name, .boolean)
            }
            Attribute("cryptoIterationCount", .integer32)
            Attribute("minimumSupportedNotesVersion", .integer32)
            Relationship("cloudState", to: "ICCloudState", inverse: "cloudSyncingObject")
        }.abstract()
        Entity("ICDeviceMigrationState") {
            Attribute("deviceIdentifier", .string)
            Attribute("state", .integer16)
            Attribute("stateModificationDate", .date)
            Relationship("account", to: "ICAccount", inverse: "deviceMigrationStates")
        }.parent("ICCloudSyncingObject")
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsTheUpdateMasksNotesWrote() throws {
        let directory = try TemporaryDirectory()
        let copy = try Corpus.required().copyStore(
            "real-stores/log2timeline-plaso/test_data/ios/NoteStore.sqlite", to: directory.url)
        let layout = try StoreLayout(model: Self.notes)
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        var found: [String: [Set<String>: Int]] = [:]
        try queue.read { db in
            for name in ["ICCloudState", "ICDeviceMigrationState"] {
                let mask = HistoryChangeMask(entity: try #require(layout.entity(named: name)), in: layout)
                let masks = try Data.fetchAll(
                    db,
                    sql: """
                        SELECT ZCOLUMNS FROM ACHANGE WHERE ZCHANGETYPE = 1
                        AND ZENTITY = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?)
                        """,
                    arguments: [name])
                #expect(masks.allSatisfy { $0.count == mask.byteCount }, "\(name)")
                for data in masks {
                    found[name, default: [:]][mask.propertyNames(setIn: [UInt8](data)) ?? [], default: 0] += 1
                }
            }
        }
        // A sync bumps the local version with its date, marks the upload; a migration state
        // saves its CloudKit record. Sorting the subentity's bits without regard to the declaring
        // entity would read the 31 migration-state updates as `replicaIDToNotesVersionData`.
        #expect(
            found["ICCloudState"] == [
                ["currentLocalVersion", "localVersionDate"]: 28, ["latestVersionSyncedToCloud"]: 21,
                ["inCloud", "latestVersionSyncedToCloud"]: 3, ["inCloud"]: 3,
            ])
        #expect(found["ICDeviceMigrationState"] == [["serverRecordData"]: 31])
        #expect(
            HistoryChangeMask(entity: try #require(layout.entity(named: "ICDeviceMigrationState")), in: layout)
                .byteCount == 4)
    }
}

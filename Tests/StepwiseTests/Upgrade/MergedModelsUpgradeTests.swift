import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// A store whose model merges several models (`NSManagedObjectModel(byMerging:)`), as
/// DuckDuckGo's merges its app's `AppRatingPrompt` with a framework's `HTTPSUpgrade` and
/// `RemoteMessaging`: each model's entities are identified in its own history, each history is
/// planned on its own, and an entity no model knows is refused, never dropped by default.
@Suite("Upgrading a store of merged models")
struct MergedModelsUpgradeTests {
    static let prompts = [
        ObjectModel("Prompt") { Entity("AppRatingPrompt") { Attribute("lastShown", .date) } },
        ObjectModel("Prompt 2") {
            Entity("AppRatingPrompt") {
                Attribute("lastShown", .date)
                Attribute("uniqueDayCount", .integer16).defaultValue("0").required()
            }
        },
    ]
    static let upgrades = [
        ObjectModel("HTTPS") { Entity("HTTPSWhitelistedDomain") { Attribute("domain", .string) } },
        ObjectModel("HTTPS 2") {
            Entity("HTTPSWhitelistedDomain") {
                Attribute("domain", .string)
                Attribute("addedAt", .date)
            }
        },
        ObjectModel("HTTPS 3") {
            Entity("HTTPSWhitelistedDomain") {
                Attribute("domain", .string)
                Attribute("addedAt", .date)
            }
            Entity("HTTPSStoredBloomFilterSpecification") { Attribute("totalEntries", .integer64) }
        },
    ]
    static let messages = [
        ObjectModel("RemoteMessaging") { Entity("RemoteMessage") { Attribute("text", .string) } }
    ]

    static func histories(_ models: [[ObjectModel]]) throws -> [ModelHistory] {
        try models.map { try ModelHistory(versions: VersionHistory($0)) }
    }

    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// A store at the merged model of `versions`, with two rows of each entity that has a text
    /// or date attribute.
    func store(_ versions: [ObjectModel]) throws -> URL {
        let url = directory.path("merged.sqlite")
        let model = try ObjectModel.merging(versions)
        try StoreCreator.createStore(at: url, model: model)
        try DatabaseQueue(path: url.path).write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: model))
            for index in 0..<2 {
                if let prompt = model[entity: "AppRatingPrompt"] {
                    var values: [String: (any DatabaseValueConvertible)?] = [
                        "lastShown": Date(timeIntervalSince1970: Double(index))
                    ]
                    if prompt.attribute(named: "uniqueDayCount") != nil { values["uniqueDayCount"] = 3 }
                    _ = try objects.insert("AppRatingPrompt", values)
                }
                if model[entity: "HTTPSWhitelistedDomain"] != nil {
                    _ = try objects.insert("HTTPSWhitelistedDomain", ["domain": "d\(index).example"])
                }
                if model[entity: "RemoteMessage"] != nil {
                    _ = try objects.insert("RemoteMessage", ["text": "m\(index)"])
                }
            }
        }
        return url
    }

    func counts(_ url: URL, _ model: ObjectModel) throws -> [String: Int] {
        try DatabaseQueue(path: url.path).read { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: model))
            return try Dictionary(uniqueKeysWithValues: model.entityNames.map { ($0, try objects.count($0)) })
        }
    }

    @Test("each model's history is planned on its own, and every model's rows are kept")
    func eachHistoryIsPlannedOnItsOwn() throws {
        let url = try store([Self.prompts[0], Self.upgrades[1], Self.messages[0]])
        let upgrader = try Upgrader(merging: try Self.histories([Self.prompts, Self.upgrades, Self.messages]))
        #expect(upgrader.targetVersion == "Prompt 2 + HTTPS 3 + RemoteMessaging")
        let prepared = try upgrader.plan(forStoreAt: url)
        #expect(prepared.version == "Prompt + HTTPS 2 + RemoteMessaging")
        #expect(prepared.identification.matchedBy == .hash)
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.from == "Prompt + HTTPS 2 + RemoteMessaging")
        #expect(report.to == "Prompt 2 + HTTPS 3 + RemoteMessaging")
        let current = try ObjectModel.merging([Self.prompts[1], Self.upgrades[2], Self.messages[0]])
        #expect(
            try counts(url, current) == [
                "AppRatingPrompt": 2, "HTTPSWhitelistedDomain": 2, "HTTPSStoredBloomFilterSpecification": 0,
                "RemoteMessage": 2,
            ])
        let metadata = try DatabaseQueue(path: url.path).read { db in try StoreMetadata.read(from: db, path: url.path) }
        #expect(metadata.versionHashes == current.entityVersionHashes)
        #expect(report.steps.flatMap(\.drops).filter { ($0.count ?? 0) > 0 } == [])
        // Up to date now, at every model's current version.
        #expect(try upgrader.upgradeIfNeededSynchronously(storeAt: url).upToDate)
    }

    @Test("a model the store doesn't hold yet joins at its current version")
    func aModelTheStoreLacksIsAdded() throws {
        let url = try store([Self.prompts[1], Self.upgrades[0]])
        let upgrader = try Upgrader(merging: try Self.histories([Self.prompts, Self.upgrades, Self.messages]))
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.from == "Prompt 2 + HTTPS")
        let current = try ObjectModel.merging([Self.prompts[1], Self.upgrades[2], Self.messages[0]])
        #expect(try counts(url, current)["RemoteMessage"] == 0)
        #expect(try counts(url, current)["HTTPSWhitelistedDomain"] == 2)
    }

    @Test("an entity no given model knows is refused, naming it and its table, and the store is untouched")
    func anUnknownEntityIsRefused() throws {
        let url = try store([Self.prompts[0], Self.upgrades[1], Self.messages[0]])
        let before = StepFixturesBytes.bytes(url)
        let upgrader = try Upgrader(merging: try Self.histories([Self.prompts, Self.upgrades]))
        let error = #expect(throws: UpgradeError.self) { try upgrader.upgradeIfNeededSynchronously(storeAt: url) }
        guard case .unknownEntities(let entities, let tables)? = error?.kind else {
            Issue.record("expected unknownEntities, got \(String(describing: error))")
            return
        }
        #expect(entities == ["RemoteMessage"])
        #expect(tables == ["ZREMOTEMESSAGE"])
        #expect(error?.description.contains("pass that model too") == true)
        #expect(StepFixturesBytes.bytes(url) == before)
    }

    @Test("two models with an entity of the same name can't be merged, as in Core Data")
    func aSharedEntityNameIsRefused() throws {
        let clash = [ObjectModel("Other") { Entity("RemoteMessage") { Attribute("body", .string) } }]
        #expect(throws: ModelError.self) {
            try Upgrader(merging: try Self.histories([Self.messages, clash]))
        }
    }
}

/// The bytes of a store and its `-wal` and `-shm`, to show a refusal left them alone.
enum StepFixturesBytes {
    static func bytes(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }
}

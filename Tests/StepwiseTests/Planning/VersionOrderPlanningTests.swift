import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Upgrades of histories whose names share no stem, with no history file (issue 42): the
/// upgrader orders them as the history itself does (``ModelHistory/order``), and only a plan
/// between two versions needs that order.
@Suite("Upgrades ordered without a history file")
struct VersionOrderPlanningTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "version-order")
    }

    /// `CyfaceModel`, then `2` … `13`, as a 13-version app names them; each version adds an
    /// optional attribute to `Measurement`, so each step is inferred.
    func cyfaceBundle() throws -> URL {
        let names = ["CyfaceModel"] + (2...13).map(String.init)
        let versions = names.enumerated().map { index, name in
            ObjectModel(
                name, versionIdentifiers: [name],
                entities: [Entity("Measurement", attributes: (0...index).map { Attribute("value\($0)", .double) })])
        }
        let url = directory.path("CyfaceModel.xcdatamodeld")
        try XcodeModelWriter.writeBundle(versions, current: "13", to: url)
        return url
    }

    /// `Launch`, `Spring Sale`, `Holiday` (current): names of three stems. `Holiday` is last as
    /// the current version; nothing but a mapping model orders the other two.
    func shopBundle(mapping: Bool) throws -> URL {
        let launch = ObjectModel("Launch") { Entity("Item") { Attribute("name", .string) } }
        let sale = ObjectModel("Spring Sale") {
            Entity("Item") {
                Attribute("name", .string)
                Attribute("price", .double)
            }
        }
        let holiday = ObjectModel("Holiday") {
            Entity("Item") {
                Attribute("name", .string)
                Attribute("price", .double)
                Attribute("stock", .integer32)
            }
        }
        let url = directory.path("Shop.xcdatamodeld")
        try XcodeModelWriter.writeBundle([launch, sale, holiday], current: "Holiday", to: url)
        if mapping {
            let folder = directory.path("Shop.mappings")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(
                #"{"source": "Launch", "destination": "Spring Sale", "entityMappings": [{"source": "Item", "destination": "Item"}]}"#
                    .utf8
            ).write(to: folder.appendingPathComponent("Launch to Spring Sale.json"))
        }
        return url
    }

    @Test func aStoreOfTheFirstOfThirteenVersionsUpgradesToTheCurrentWithNoHistoryFile() throws {
        let bundle = try cyfaceBundle()
        let upgrader = try Upgrader(bundleAt: bundle)
        let order = try upgrader.history.order.get()
        #expect(order.names == ["CyfaceModel"] + (2...13).map(String.init))
        #expect(
            order.description
                == "CyfaceModel, 2, …, 13 — natural order of the names within each stem; 'CyfaceModel' first as the bundle's name; '13' last as the current version (.xccurrentversion)"
        )
        let store = directory.path("Cyface.sqlite")
        try StoreCreator.createStore(at: store, model: #require(upgrader.history.version(named: "CyfaceModel")))
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.outcome == .upgraded)
        #expect(report.from == "CyfaceModel" && report.to == "13")
        #expect(try VersionRegistry(history: upgrader.history.versions).identify(storeAt: store).version?.name == "13")
    }

    @Test func aMappingModelOrdersTheVersionsItMapsBetween() throws {
        let bundle = try shopBundle(mapping: true)
        let upgrader = try Upgrader(bundleAt: bundle)
        let mapping = directory.path("Shop.mappings/Launch to Spring Sale.json").standardizedFileURL.path
        let order = try upgrader.history.order.get()
        #expect(order.names == ["Launch", "Spring Sale", "Holiday"])
        #expect(
            order.clues == [
                .naturalOrder(stems: ["Holiday", "Launch", "Spring Sale"]),
                .currentVersion(
                    "Holiday", file: bundle.standardizedFileURL.appendingPathComponent(".xccurrentversion").path),
                .mappingModel(from: "Launch", to: "Spring Sale", file: mapping),
            ])
        let store = directory.path("Shop.sqlite")
        try StoreCreator.createStore(at: store, model: #require(upgrader.history.version(named: "Launch")))
        let plan = try upgrader.plan(forStoreAt: store).plan
        #expect(
            plan.steps.map { "\($0.from) → \($0.to) \($0.kind)" } == [
                "Launch → Spring Sale explicit", "Spring Sale → Holiday inferred",
            ])
        #expect(try upgrader.upgradeIfNeededSynchronously(storeAt: store).to == "Holiday")
    }

    /// Without the mapping model nothing orders `Launch` and `Spring Sale`: the upgrader is still
    /// made, identifies stores and leaves one at the target alone; a plan from another version
    /// is refused with the versions that could go either way, before anything is written.
    @Test func anOrderNothingTellsIsAskedForOnlyByAPlan() throws {
        let bundle = try shopBundle(mapping: false)
        let upgrader = try Upgrader(bundleAt: bundle)
        let ambiguity = ModelError(
            path: bundle.standardizedFileURL.path,
            kind: .ambiguousOrder(
                ["Launch", "Spring Sale"],
                reason:
                    "the names have 3 stems ('Holiday', 'Launch', 'Spring Sale'), and nothing in the bundle tells which comes first: 'Launch' or 'Spring Sale'"
            ))
        #expect(upgrader.history.order == .failure(ambiguity))
        #expect(upgrader.targetVersion == "Holiday")

        let current = directory.path("Current.sqlite")
        try StoreCreator.createStore(at: current, model: #require(upgrader.history.version(named: "Holiday")))
        #expect(try upgrader.upgradeIfNeededSynchronously(storeAt: current).outcome == .upToDate)
        #expect(try upgrader.plan(forStoreAt: current).isUpToDate)

        let old = directory.path("Old.sqlite")
        try StoreCreator.createStore(at: old, model: #require(upgrader.history.version(named: "Launch")))
        let before = try Data(contentsOf: old)
        #expect(
            try VersionRegistry(history: upgrader.history.versions).identify(storeAt: old).version?.name == "Launch")
        #expect(throws: ambiguity) { try upgrader.plan(forStoreAt: old) }
        #expect(throws: ambiguity) { try upgrader.upgradeIfNeededSynchronously(storeAt: old) }
        #expect(try Data(contentsOf: old) == before)
        #expect(
            ambiguity.description.hasSuffix(
                "List them oldest first, one per line, in Shop.history beside the bundle, or pass an explicit order."))

        // The history file settles it.
        try Data("Launch\nSpring Sale\nHoliday\n".utf8).write(to: directory.path("Shop.history"))
        let listed = try Upgrader(bundleAt: bundle)
        #expect(
            try listed.history.order.get().source
                == .historyFile(directory.path("Shop.history").standardizedFileURL.path))
        #expect(try listed.upgradeIfNeededSynchronously(storeAt: old).from == "Launch")
    }

    /// A merged store whose part is Shop, unordered: the part's own order error is thrown when
    /// the store needs a step through it, and nothing is written; a store already at that part's
    /// current version upgrades its other part with no order asked for.
    @Test func aMergedStoreStepsThroughAnUnorderedPartOnlyWithItsOrder() throws {
        let bundle = try shopBundle(mapping: false)
        let shop = try ModelHistory(bundleAt: bundle)
        let notes = try ModelHistory(
            versions: VersionHistory([
                ObjectModel("Notes") { Entity("Note") { Attribute("text", .string) } },
                ObjectModel("Notes 2") {
                    Entity("Note") {
                        Attribute("text", .string)
                        Attribute("pinned", .boolean)
                    }
                },
            ]))
        let upgrader = try Upgrader(merging: [shop, notes])
        guard case .failure(let ambiguity) = shop.order else {
            Issue.record("Shop's order should be unknown")
            return
        }

        let old = directory.path("OldMerged.sqlite")
        try StoreCreator.createStore(
            at: old,
            model: ObjectModel.merging([
                #require(shop.version(named: "Launch")), #require(notes.version(named: "Notes")),
            ]))
        let before = try Data(contentsOf: old)
        #expect(throws: ambiguity) { try upgrader.upgradeIfNeededSynchronously(storeAt: old) }
        #expect(try Data(contentsOf: old) == before)

        let current = directory.path("ShopCurrent.sqlite")
        try StoreCreator.createStore(
            at: current,
            model: ObjectModel.merging([
                #require(shop.version(named: "Holiday")), #require(notes.version(named: "Notes")),
            ]))
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: current)
        #expect(report.from == "Holiday + Notes")
        #expect(report.to == "Holiday + Notes 2")
    }

    /// CoreDataPlus's compiled `SampleModel3.momd`, its three `.mom` files renamed as an SDK
    /// names its versions (`SFMCModel`, then release numbers) in a folder named after neither,
    /// with the current version in `VersionInfo.plist`: a real `.mom` of each version, and a
    /// store Core Data wrote at the first.
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func aCompiledModelWhoseReleasesAreNumbersUpgradesWithNoHistoryFile() throws {
        let corpus = try Corpus.required()
        let source = corpus.url(CompiledCorpusModel.all[1].compiledPath)
        let folder = directory.path("MarketingCloudSDK.momd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let renamed = ["SampleModel3": "SFMCModel", "SampleModel3_v2": "214.00", "SampleModel3_v3": "244.01"]
        for (old, new) in renamed {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent("\(old).mom"), to: folder.appendingPathComponent("\(new).mom"))
        }
        let info = try VersionInfo(inFolder: source)
        var hashes: [String: [String: Data]] = [:]
        for (old, new) in renamed { hashes[new] = info.hashes[old] }
        let plist: [String: Any] = [
            "NSManagedObjectModel_CurrentVersionName": "244.01", "NSManagedObjectModel_VersionHashes": hashes,
        ]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: folder.appendingPathComponent("VersionInfo.plist"))

        let upgrader = try Upgrader(bundleAt: folder)
        let order = try upgrader.history.order.get()
        #expect(order.names == ["SFMCModel", "214.00", "244.01"])
        #expect(
            order.description
                == "SFMCModel, 214.00, 244.01 — natural order of the names within each stem; '244.01' last as the current version (VersionInfo.plist)"
        )
        let store = try corpus.copyStore(CompiledCorpusModel.sampleModel3Store, to: directory.url)
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.outcome == .upgraded)
        #expect(report.from == "SFMCModel" && report.to == "244.01")
        let users = try DatabaseQueue(path: store.path).read { db in
            try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZUSER""#)
        }
        #expect(users == 12)
    }

    /// A store's matrix plans every pair, so it asks for the order when it is made.
    @Test func aMatrixNeedsTheOrder() throws {
        let bundle = try shopBundle(mapping: false)
        #expect(throws: ModelError.self) { try UpgradeMatrix(bundleAt: bundle) }
        #expect(try UpgradeMatrix(bundleAt: shopBundle(mapping: true)).cases.count == 3)
    }
}

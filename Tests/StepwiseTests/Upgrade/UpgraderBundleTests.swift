import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// `Upgrader(bundleAt:)` reads every version, mapping model and shipped record when it is made
/// (``ModelHistory``): a broken file is refused there, before any store is looked at, and an
/// upgrade never meets a reading error.
@Suite("Upgrader: made from a bundle")
struct UpgraderBundleTests {
    private static func contents(of version: String, in fixture: UpgradeFixture) -> URL {
        fixture.bundle.appendingPathComponent("\(version).xcdatamodel/contents")
    }

    private static func mappingFile(in fixture: UpgradeFixture) -> URL {
        fixture.directory.path("Recipes.mappings/Recipes to Recipes 2.json")
    }

    @Test("a broken old version is refused when the upgrader is made, with ModelBundle's error, and nothing is written")
    func brokenOldVersionRefusedWhenMade() throws {
        let fixture = try UpgradeFixture()
        try Data("not a model".utf8).write(to: Self.contents(of: "Recipes 2", in: fixture))
        let before = StoreBytes(fixture.store)
        let listingBefore = fixture.directoryListing()
        let expected = try #require(throws: ModelError.self) { try ModelBundle(contentsOf: fixture.bundle) }
        let error = try #require(throws: ModelError.self) { try fixture.upgrader() }
        #expect(error == expected)
        #expect(error.path == Self.contents(of: "Recipes 2", in: fixture).path)
        #expect(StoreBytes(fixture.store) == before)
        #expect(fixture.directoryListing() == listingBefore)
    }

    @Test("a broken mapping file is refused when the upgrader is made, naming the file")
    func brokenMappingRefusedWhenMade() throws {
        let fixture = try UpgradeFixture()
        try Data("not JSON".utf8).write(to: Self.mappingFile(in: fixture))
        let error = try #require(throws: MappingError.self) { try fixture.upgrader() }
        #expect(error.file == Self.mappingFile(in: fixture).path)
        #expect(try fixture.version() == "Recipes")
    }

    @Test("a chosen target is upgraded to; an unknown one is refused, listing the versions")
    func chosenTarget() throws {
        let fixture = try UpgradeFixture()
        let report = try fixture.upgrader(to: "Recipes 2").upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.to == "Recipes 2")
        let unknown = try fixture.upgrader(to: "Recipes 9")
        let error = try #require(throws: UpgradeError.self) {
            try unknown.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        expectUnknownVersion(error, "Recipes 9", available: ["Recipes", "Recipes 2", "Recipes 3", "Recipes 4"])
    }

    @Test("the history holds the bundle's versions, current version and mapping models")
    func historyHoldsTheWholeBundle() throws {
        let fixture = try UpgradeFixture()
        let upgrader = try fixture.upgrader()
        let bundle = try ModelBundle(contentsOf: fixture.bundle)
        let directory = try MappingDirectory(bundleAt: fixture.bundle, history: bundle.history)
        #expect(upgrader.history.versions == bundle.history)
        #expect(upgrader.history.currentVersion == "Recipes 4")
        #expect(upgrader.targetVersion == "Recipes 4")
        #expect(
            upgrader.history.mappings.mapValues { $0.map(\.name) } == directory.steps.mapValues { $0.map(\.name) })
        let plan = try upgrader.planner.plan(from: "Recipes", to: "Recipes 4")
        let direct = try UpgradePlanner(history: bundle.history, mappings: directory.steps)
            .plan(from: "Recipes", to: "Recipes 4")
        #expect(plan.steps.map(\.to) == direct.steps.map(\.to))
        #expect(plan.steps.map(\.mappingModels.count) == direct.steps.map(\.mappingModels.count))
    }

    @Test("an upgrader from a bundle upgrades as one from the same history given in code")
    func bundleAndCodeUpgradeAlike() throws {
        let fromBundle = try UpgradeFixture()
        let fromCode = try UpgradeFixture()
        let bundle = try ModelBundle(contentsOf: fromCode.bundle)
        let mappings = try MappingDirectory(bundleAt: fromCode.bundle, history: bundle.history).steps
        let inCode = try Upgrader(
            history: bundle.history, mappings: mappings, policies: SamplePolicies.registry,
            options: UpgradeOptions(lockTimeout: .seconds(30)))
        let bundleReport = try fromBundle.upgrader().upgradeIfNeededSynchronously(storeAt: fromBundle.store)
        let codeReport = try inCode.upgradeIfNeededSynchronously(storeAt: fromCode.store)
        #expect(!bundleReport.upToDate)
        let shape = { (report: UpgradeReport) in report.steps.map { "\($0.from) → \($0.to) \($0.kind) \($0.objects)" } }
        #expect(shape(bundleReport) == shape(codeReport))
        #expect(bundleReport.steps.map(\.rows) == codeReport.steps.map(\.rows))
        #expect(try fromBundle.version() == "Recipes 4")
        let query = "SELECT ZNAME FROM ZRECIPE ORDER BY ZNAME"
        #expect(try fromBundle.strings(query) == fromCode.strings(query))
    }

    @Test(
        "the history's planners share one inference per pair, and a changed model under a known name is inferred again")
    func inferenceIsShared() throws {
        let history = try ModelHistory(versions: VersionHistory([RecipesHistory.v3, RecipesHistory.v4]))
        #expect(history.inferences.count == 0)
        let first = try history.planner().plan(from: "Recipes 3", to: "Recipes 4")
        #expect(history.inferences.count == 1)
        let second = try history.planner().plan(from: "Recipes 3", to: "Recipes 4")
        #expect(history.inferences.count == 1)
        #expect(first.steps.map(\.mappingModels) == second.steps.map(\.mappingModels))
        // Another model named "Recipes 4" (a store's cached model, say) is not answered from the cache.
        var edited = RecipesHistory.v4
        edited.entities.removeLast()
        let inferred = try history.inferences.inferMapping(from: RecipesHistory.v3, to: edited)
        #expect(inferred != first.steps.first?.mappingModels.first)
    }
}

/// How the target version is found.
@Suite("Upgrader: finding the target version")
struct UpgraderTargetTests {
    /// Three versions whose order can't be told from their names (three stems), with `current`
    /// declared.
    private static func unorderedBundle(in directory: TemporaryDirectory, current: String) throws -> URL {
        let url = directory.path("Mixed.xcdatamodeld")
        let versions = ["Foo 2", "Bar 3", "Baz 4"].map { name in
            ObjectModel(name, entities: [Entity("Item", attributes: [Attribute("a" + name.prefix(3), .string)])])
        }
        try XcodeModelWriter.writeBundle(versions, current: current, to: url)
        return url
    }

    @Test(
        "versions whose order can't be told: the upgrader is made, its current version is the target, and only a plan from another version is refused"
    )
    func unorderedVersionsRefusedOnlyByAPlan() throws {
        let directory = try TemporaryDirectory(prefix: "launch-target")
        let bundle = try Self.unorderedBundle(in: directory, current: "Bar 3")
        // The upgrader keeps the problem ModelBundle keeps.
        let order = try ModelBundle(contentsOf: bundle).order
        let upgrader = try Upgrader(bundleAt: bundle)
        #expect(upgrader.history.order == order)
        #expect(upgrader.targetVersion == "Bar 3")
        guard case .failure(let expected) = order else {
            Issue.record("expected an order that can't be told, got \(order)")
            return
        }
        let current = directory.path("Current.sqlite")
        try StoreCreator.createStore(at: current, model: #require(upgrader.history.version(named: "Bar 3")))
        #expect(try Upgrader.upgradeIfNeededSynchronously(storeAt: current, bundleAt: bundle).outcome == .upToDate)
        #expect(try upgrader.upgradeIfNeededSynchronously(storeAt: current).outcome == .upToDate)
        let old = directory.path("Old.sqlite")
        try StoreCreator.createStore(at: old, model: #require(upgrader.history.version(named: "Foo 2")))
        #expect(throws: expected) { try upgrader.upgradeIfNeededSynchronously(storeAt: old) }
        #expect(throws: expected) { try Upgrader.upgradeIfNeededSynchronously(storeAt: old, bundleAt: bundle) }
    }

    @Test("without .xccurrentversion the newest version is the target")
    func newestWithoutCurrentVersionFile() throws {
        let fixture = try UpgradeFixture()
        try FileManager.default.removeItem(at: fixture.bundle.appendingPathComponent(".xccurrentversion"))
        let upgrader = try fixture.upgrader()
        #expect(upgrader.targetVersion == "Recipes 4")
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.to == "Recipes 4")
        #expect(try fixture.version() == "Recipes 4")
    }

    @Test("a declared current version the bundle doesn't have is refused when the upgrader is made")
    func unknownDeclaredCurrent() throws {
        let fixture = try UpgradeFixture()
        let file = fixture.bundle.appendingPathComponent(".xccurrentversion")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Recipes 4.xcdatamodel", with: "Recipes 9.xcdatamodel").utf8)
            .write(to: file)
        let expected = ModelError(
            path: fixture.bundle.standardizedFileURL.path, kind: .unknownCurrentVersion("Recipes 9"))
        #expect(throws: expected) { try ModelBundle(contentsOf: fixture.bundle) }
        #expect(throws: expected) { try fixture.upgrader() }
    }
}

import Foundation
import Stepwise
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The README's `upgradeIfNeeded` example, with only `import Stepwise`.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the launch-time example upgrades, keeps a backup and reports progress")
    func launchExample() async throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-readme")
        _ = try SampleHistories.write(to: directory.url)
        let storeURL = directory.path("Recipes.sqlite")
        try StoreCreator.createStore(at: storeURL, model: RecipesHistory.v1)
        try DemoSeed.seedRecipes(at: storeURL)
        let events = EventLog()

        var policies = PolicyRegistry()
        policies.register("ChefNamePolicy") { ChefNamePolicy() }
        policies.register("CuisinePolicy") { CuisinePolicy() }
        policies.register("SharedIngredientPolicy") { SharedIngredientPolicy() }
        let report = try await Upgrader.upgradeIfNeeded(
            storeAt: storeURL,
            bundleAt: directory.path("Recipes.xcdatamodeld"),
            policies: policies,
            options: UpgradeOptions(keepBackup: true, progress: { event in events.append(event) }))

        #expect(!report.upToDate)
        #expect("\(report.from) → \(report.to)" == "Recipes → Recipes 4")
        #expect(report.steps.map(\.kind).contains(.explicit))
        #expect(report.backupURL != nil)
        #expect(events.count > report.steps.count * 2)
        #expect(
            try await Upgrader.upgradeIfNeeded(storeAt: storeURL, bundleAt: directory.path("Recipes.xcdatamodeld"))
                .upToDate)
    }
}

/// Events from the progress handler, which runs on the upgrading thread.
final class EventLog: @unchecked Sendable {
    // @unchecked: `events` is guarded by `lock`.
    private let lock = NSLock()
    private var events: [UpgradeEvent] = []
    func append(_ event: UpgradeEvent) { lock.withLock { events.append(event) } }
    var count: Int { lock.withLock { events.count } }

    /// The reports of the `finished` events, in order.
    var finishedReports: [UpgradeReport] {
        lock.withLock {
            events.compactMap {
                if case .finished(let report) = $0 { return report }
                return nil
            }
        }
    }
}

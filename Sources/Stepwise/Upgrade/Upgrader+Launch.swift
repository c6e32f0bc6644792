import Foundation
import StepwiseMapping
import StepwiseModel

// The launch call: the store's metadata and the target version are enough to tell a store that
// needs nothing, so an app whose history is long doesn't read it at every launch. Anything else
// makes the upgrader, which reads and checks the whole bundle, and runs it.
extension Upgrader {
    /// Upgrades the store at `url` to the bundle's current version if it isn't there already,
    /// reading the rest of the bundle only when an upgrade is needed: the call for an app's launch.
    ///
    /// ```swift
    /// let report = try await Upgrader.upgradeIfNeeded(
    ///     storeAt: storeURL,
    ///     bundleAt: Bundle.main.url(forResource: "Model", withExtension: "momd")!,
    ///     policies: myPolicies)
    /// ```
    ///
    /// A store already at the target costs what Core Data pays at launch: the store's metadata,
    /// the bundle's current-version file and that one version's model, whatever the length of the
    /// history. Otherwise (an older store, a missing one, an upgrade to resume, or a bundle that
    /// doesn't declare its current version) this makes
    /// ``init(bundleAt:mappingsAt:policies:stages:options:)``, which reads and checks every
    /// version, mapping model and shipped record, and calls ``upgradeIfNeeded(storeAt:)``.
    ///
    /// So a bundle file other than the target version's (another version, `.history`, a
    /// mapping model, a shipped record) that can't be read or doesn't fit is reported by the
    /// first launch that needs an upgrade, not by one that doesn't. Catch it earlier in CI,
    /// where `stepwise check` and ``HistoryCheck`` read everything.
    ///
    /// Everything runs on a thread of its own, as ``upgradeIfNeeded(storeAt:)`` describes, and
    /// is cancelled the same way.
    ///
    /// - parameters: As ``init(bundleAt:mappingsAt:policies:stages:options:)``, with the store's
    ///   main file `url` first.
    /// - returns: What ``upgradeIfNeeded(storeAt:)`` returns.
    /// - throws: What ``init(bundleAt:mappingsAt:policies:stages:options:)`` and
    ///   ``upgradeIfNeeded(storeAt:)`` throw.
    public static func upgradeIfNeeded(
        storeAt url: URL, bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil,
        policies: PolicyRegistry = PolicyRegistry(), stages: [MigrationStage] = [],
        options: UpgradeOptions = UpgradeOptions()
    ) async throws -> UpgradeReport {
        try await onThreadOfItsOwn { cancellation in
            try launch(
                storeAt: url, bundleAt: bundleURL, mappingsAt: mappingsURL, policies: policies, stages: stages,
                options: options, cancellation: cancellation)
        }
    }

    /// ``upgradeIfNeeded(storeAt:bundleAt:mappingsAt:policies:stages:options:)`` on the calling
    /// thread, for code that can't `await`; don't call it on the main thread of an app.
    public static func upgradeIfNeededSynchronously(
        storeAt url: URL, bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil,
        policies: PolicyRegistry = PolicyRegistry(), stages: [MigrationStage] = [],
        options: UpgradeOptions = UpgradeOptions()
    ) throws -> UpgradeReport {
        try launch(
            storeAt: url, bundleAt: bundleURL, mappingsAt: mappingsURL, policies: policies, stages: stages,
            options: options, cancellation: nil)
    }

    /// Both launch calls: the up-to-date report when the target version alone tells it, else
    /// the upgrader made from the whole bundle, run with `cancellation`.
    private static func launch(
        storeAt url: URL, bundleAt bundleURL: URL, mappingsAt mappingsURL: URL?, policies: PolicyRegistry,
        stages: [MigrationStage], options: UpgradeOptions, cancellation: StepCancellation?
    ) throws -> UpgradeReport {
        if let report = upToDateReport(storeAt: url, bundleAt: bundleURL, options: options) { return report }
        let upgrader = try Upgrader(
            bundleAt: bundleURL, mappingsAt: mappingsURL, policies: policies, stages: stages, options: options)
        return try upgrader.perform(StoreFiles(store: url), cancellation: cancellation)
    }

    /// The report for a store already at the target, told from its main file's metadata and the
    /// target version's model alone, after ``UpgradeOptions/progress`` has been given it; nil when
    /// that can't tell.
    ///
    /// Nil covers every failure here on purpose: each file read here is read again, with its
    /// error reported, by the upgrader that the caller makes next. The test is the one
    /// ``perform(_:cancellation:)`` starts with (`UpgradeRun.isAtVersion`), so for a bundle the
    /// upgrader can be made from, the two calls agree on which stores are up to date.
    static func upToDateReport(storeAt url: URL, bundleAt bundleURL: URL, options: UpgradeOptions) -> UpgradeReport? {
        guard let bundle = try? ModelBundleListing.modelURL(bundleURL),
            let target = options.targetVersion ?? ModelBundleListing.declaredCurrentName(inBundleAt: bundle),
            let whole = try? ModelBundleListing.readVersion(named: target, inBundleAt: bundle),
            let version = try? options.configuration.map({ try whole.restricted(toConfiguration: $0) }) ?? whole,
            UpgradeRun.isAtVersion(
                StoreFiles(store: url), fileSystem: options.fileSystem,
                matching: { version.isCompatible(withEntityHashes: $0) })
        else { return nil }
        let report = UpgradeReport.upToDate(at: target)
        options.progress?(.finished(report))
        return report
    }
}

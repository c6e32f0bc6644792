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
        let answer = launchCheck(storeAt: url, bundleAt: bundleURL, options: options)
        if case .upToDate(let report) = answer { return report }
        let upgrader = try Upgrader(
            bundleAt: bundleURL, mappingsAt: mappingsURL, policies: policies, stages: stages, options: options)
        // "Not at the target" was read a moment ago without the lock: reused so that the upgrader
        // doesn't read the metadata again before taking it. Only a hint: under the lock the run
        // decides afresh, so another process finishing the upgrade meanwhile is still seen.
        var knownNotAtTarget: String?
        if case .notAtTarget(let target) = answer { knownNotAtTarget = target }
        return try upgrader.perform(
            StoreFiles(store: url), cancellation: cancellation, knownNotAtTarget: knownNotAtTarget)
    }

    /// What the launch call's read-only look tells.
    enum LaunchCheck {
        /// At the target: the report, already given to ``UpgradeOptions/progress``.
        case upToDate(UpgradeReport)
        /// Not at this target version by its main file's metadata (or an earlier run's work is
        /// waiting beside it).
        case notAtTarget(String)
        /// The bundle's target version couldn't be read alone: the upgrader decides.
        case unknown
    }

    /// The store's state told from its main file's metadata and the target version's model
    /// alone (``UpToDateCheck``, the test ``perform(_:cancellation:knownNotAtTarget:)`` starts
    /// with, so for a bundle the upgrader can be made from, the two agree on which stores are up
    /// to date).
    ///
    /// ``LaunchCheck/unknown`` covers every failure to read the bundle here on purpose: each
    /// file read here is read again, with its error reported, by the upgrader that the caller
    /// makes next.
    static func launchCheck(storeAt url: URL, bundleAt bundleURL: URL, options: UpgradeOptions) -> LaunchCheck {
        guard let bundle = try? ModelBundleListing.modelURL(bundleURL),
            let target = options.targetVersion ?? ModelBundleListing.declaredCurrentName(inBundleAt: bundle),
            let whole = try? ModelBundleListing.readVersion(named: target, inBundleAt: bundle),
            let version = try? options.configuration.map({ try whole.restricted(toConfiguration: $0) }) ?? whole
        else { return .unknown }
        let files = StoreFiles(store: url)
        guard
            UpToDateCheck.isAtVersion(
                files, fileSystem: options.fileSystem, matching: { version.isCompatible(withEntityHashes: $0) })
        else { return .notAtTarget(target) }
        let report = UpgradeReport.upToDate(at: target)
        options.progress?(.finished(report))
        return .upToDate(report)
    }
}

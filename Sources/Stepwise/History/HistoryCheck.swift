import Foundation
import StepwiseMapping
import StepwiseModel

/// Checks a model history for the mistakes that otherwise surface on a user's device: an order
/// that can't be told, an old version with no path to the current one, mapping models that no
/// longer fit their versions, policies that aren't registered; and, as warnings, versions with
/// equal hashes (interchangeable for stores) and inferred steps that drop data or hang on a
/// shared renaming identifier.
///
/// Run it in an app's own tests, or as `stepwise check` in CI:
///
/// ```swift
/// import Foundation
/// import Stepwise
/// import Testing
///
/// @Test func theModelHistoryIsSound() throws {
///     let report = try HistoryCheck(
///         bundleAt: Bundle.module.url(forResource: "Model", withExtension: "xcdatamodeld")!,
///         policies: AppPolicies.registry
///     ).run()
///     #expect(report.errors == 0, "\(report.findings)")
/// }
/// ```
///
/// A finding is data (``HistoryFinding``), never a thrown error: ``run()`` lists them all.
/// Only a bundle that can't be read at all (a missing folder, a broken model file) throws.
///
/// A finding the team has looked at and accepts goes in ``accepted``: read from
/// `<Name>.accepted-findings.json` beside the bundle (``AcceptedFindings``), or given in code.
/// It is still reported, marked with its reason, and doesn't fail the check; an accepted entry
/// that matches nothing is reported as ``HistoryFinding/Kind/staleAcceptance``.
///
/// The check plans with the upgrader's own machinery: `UpgradePlanner` for paths,
/// `MappingInference` and ``/StepwiseMapping/DroppedData`` for inferred
/// steps, ``/StepwiseMapping/MappingDirectory`` for mapping models. What it reports is what an
/// upgrade would meet.
public struct HistoryCheck: Sendable {
    /// The versions, oldest first. When their order can't be told (an
    /// ``HistoryFinding/Kind/ambiguousOrder`` finding), they are in name order and only the
    /// checks that need no order run.
    public var history: VersionHistory
    /// The order of ``history`` and how it was found (``/StepwiseModel/VersionOrder``), which
    /// the report repeats; nil when it can't be told.
    public var order: VersionOrder?
    /// The version stores are upgraded to: the bundle's current version, else the newest.
    public var currentVersion: String
    /// The explicit mapping models by step (those that could be read).
    public var mappings: [MappingDirectory.StepKey: [MappingModel]]
    /// The policies mappings may name; nil leaves policies unchecked.
    public var policies: PolicyRegistry?
    /// The versions recorded as shipped (``/StepwiseModel/ShippedRecords``): an edit since is an error.
    public var shipped: [ShippedVersion]
    /// The findings the team accepts, each with its reason; none by default.
    public var accepted = AcceptedFindings()
    /// The mapping folder's name, for fixes that add a mapping file (`Recipes.mappings`).
    var mappingFolderName: String
    /// The shipped records' folder's name, for fixes (`Recipes.shipped`).
    var shippedFolderName = "the bundle's .shipped folder"
    /// What reading the bundle found: an order that can't be told, mapping files that can't
    /// be read or bound.
    var readingFindings: [HistoryFinding] = []
    /// Whether ``history`` is in a known order: paths and steps are checked only then.
    var isOrdered: Bool { order != nil }

    /// A check of a history given in code.
    ///
    /// - parameters:
    ///   - history: The versions, oldest first.
    ///   - mappings: Explicit mapping models by step, as ``Upgrader/init(history:mappings:shipped:policies:stages:options:)``
    ///     takes them.
    ///   - policies: The policies the mappings may name; nil leaves them unchecked.
    ///   - currentVersion: The version stores are upgraded to; the newest by default.
    ///   - shipped: The versions recorded as shipped.
    public init(
        history: VersionHistory, mappings: [MappingDirectory.StepKey: [MappingModel]] = [:],
        policies: PolicyRegistry? = nil, currentVersion: String? = nil, shipped: [ShippedVersion] = []
    ) {
        self.history = history
        self.order = VersionOrder(names: history.names, source: .givenInCode)
        self.shipped = shipped
        self.mappings = mappings
        self.policies = policies
        self.currentVersion = currentVersion ?? history.latest?.name ?? ""
        self.mappingFolderName = "the bundle's .mappings folder"
    }

    /// A check of an `.xcdatamodeld` bundle and its mapping models (the `.xcmappingmodel`
    /// folders beside it and the mapping folder, as the ``Upgrader`` reads them).
    ///
    /// A mapping model that can't be read or bound, and versions whose order can't be told,
    /// are findings of ``run()``, not errors thrown here. The versions are ordered as the
    /// ``Upgrader`` orders them (``ModelHistory/order``).
    ///
    /// - parameters:
    ///   - bundleURL: The `.xcdatamodeld` bundle (or a single `.xcdatamodel`).
    ///   - mappingsURL: The mapping folder; `<Name>.mappings` beside the bundle by default.
    ///   - policies: The policies the mappings may name; nil leaves them unchecked.
    ///   - acceptedURL: The accepted-findings file (``AcceptedFindings``); by default
    ///     `<Name>.accepted-findings.json` beside the bundle, when there is one.
    /// - throws: ``/StepwiseModel/ModelError`` or ``/StepwiseModel/ModelError``
    ///   for a bundle or a model file that can't be read; ``/StepwiseModel/ModelError``
    ///   for a shipped record that can't be read; ``UpgradeError`` for an accepted-findings
    ///   file that can't be read (or is missing, when `acceptedURL` names it).
    public init(
        bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil, policies: PolicyRegistry? = nil,
        acceptedFindingsAt acceptedURL: URL? = nil
    ) throws {
        self = try Self(readingBundleAt: bundleURL, mappingsAt: mappingsURL, policies: policies)
        accepted = try Self.acceptedFindings(at: acceptedURL, forBundleAt: bundleURL)
    }

    private init(readingBundleAt bundleURL: URL, mappingsAt mappingsURL: URL?, policies: PolicyRegistry?) throws {
        let folder = mappingsURL ?? MappingDirectory.defaultURL(for: bundleURL)
        let bundle = try ModelBundle(contentsOf: bundleURL).orderedByMappings(at: mappingsURL)
        let shipped = try ShippedRecords.load(forBundleAt: bundleURL)
        guard case .success(let order) = bundle.order else {
            // Without an order only the versions themselves are checked: mapping models bound
            // against the names' order would give findings about the wrong steps.
            self.init(
                history: bundle.history, policies: policies, currentVersion: bundle.current.name, shipped: shipped)
            self.order = nil
            if case .failure(let error) = bundle.order {
                readingFindings = [Self.orderFinding(for: error, bundle: bundle.url)]
            }
            mappingFolderName = folder.lastPathComponent
            shippedFolderName = ShippedRecords.folderURL(forBundleAt: bundleURL).lastPathComponent
            return
        }
        var failures: [MappingError] = []
        let directory = MappingDirectory(
            bundleAt: bundleURL, mappingsAt: mappingsURL, history: bundle.history, settingAside: &failures)
        self.init(
            history: bundle.history, mappings: directory.steps, policies: policies, currentVersion: bundle.current.name,
            shipped: shipped)
        self.order = order
        mappingFolderName = folder.lastPathComponent
        shippedFolderName = ShippedRecords.folderURL(forBundleAt: bundleURL).lastPathComponent
        readingFindings = failures.map { mappingFinding(for: $0) }
    }

    /// Runs every check; never throws: each problem is a finding.
    public func run() -> HistoryCheckReport {
        // Each check is a function returning its findings.
        var findings =
            readingFindings + duplicateVersionFindings() + versionNameFindings() + modelWarningFindings()
            + shippedFindings()
        if isOrdered {
            // One inference per consecutive pair, shared by the path and step checks.
            let edges = planner.edges()
            findings += pathFindings(edges) + policyFindings() + inferredStepFindings(edges)
        }
        return HistoryCheckReport(findings: accepted.applied(to: findings), order: order)
    }

    /// The check with `accepted` as its accepted findings.
    ///
    /// - parameter accepted: The findings the team accepts, each with its reason.
    public func accepting(_ accepted: AcceptedFindings) -> HistoryCheck {
        var check = self
        check.accepted = accepted
        return check
    }

    /// The accepted findings at `url`, else in the conventional file beside the bundle when
    /// there is one, else none.
    private static func acceptedFindings(at url: URL?, forBundleAt bundleURL: URL) throws -> AcceptedFindings {
        if let url { return try AcceptedFindings(contentsOf: url) }
        let conventional = AcceptedFindings.defaultURL(forBundleAt: bundleURL)
        guard FileManager.default.fileExists(atPath: conventional.path) else { return AcceptedFindings() }
        return try AcceptedFindings(contentsOf: conventional)
    }

    /// The planner the upgrader would use for this history and these mappings.
    var planner: UpgradePlanner {
        UpgradePlanner(history: history, mappings: mappings)
    }
}

import Foundation
import StepwiseMapping

/// What ``Upgrader/upgradeIfNeeded(storeAt:)`` did.
///
/// An up-to-date store gives ``upToDate(at:)`` and a missing one ``noStore(at:)``: `upToDate`
/// is true and `steps` is empty. ``outcome`` tells the three cases apart.
public struct UpgradeReport: Sendable, Hashable, Codable {
    /// Whether the call found work to do.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Nothing at the store's path (an app's first launch): nothing to upgrade, and nothing
        /// was created. The app creates its store at the target version.
        case noStore
        /// The store was already at the target.
        case upToDate
        /// The steps in ``UpgradeReport/steps`` ran and the new store was swapped in.
        case upgraded
    }

    /// The store's version before the call (the target when there was no store).
    public var from: String
    /// The store's version after the call (the target when there was no store).
    public var to: String
    public var outcome: Outcome
    /// True when nothing was done: the store was at the target, or there was none.
    public var upToDate: Bool { outcome != .upgraded }
    /// The steps, in order, each with ``/StepwiseMapping/StepReport/resumed`` set when its output came from
    /// an earlier, interrupted run.
    public var steps: [StepReport]
    /// How the steps wrote the new store; nil when nothing was done.
    public var path: UpgradePath?
    /// Why the upgrade copied the store rather than change it in one transaction (``UpgradePath``):
    /// "the upgrade keeps a backup", "step 'Notes 2' → 'Notes 3' rewrites rows", …; nil for the
    /// one-transaction path and when nothing was done.
    public var copyReason: String?
    /// Where the pre-upgrade store was kept, when ``UpgradeOptions/keepBackup`` was set.
    public var backupURL: URL?
    /// Wall-clock duration of the whole call.
    public var seconds: Double

    public init(
        from: String, to: String, outcome: Outcome, steps: [StepReport], backupURL: URL? = nil, seconds: Double = 0
    ) {
        self.from = from
        self.to = to
        self.outcome = outcome
        self.steps = steps
        self.backupURL = backupURL
        self.seconds = seconds
    }

    /// The report for a store that needed nothing.
    public static func upToDate(at version: String) -> UpgradeReport {
        UpgradeReport(from: version, to: version, outcome: .upToDate, steps: [])
    }

    /// The report for a path with no store at it, when the target is `version`.
    public static func noStore(at version: String) -> UpgradeReport {
        UpgradeReport(from: version, to: version, outcome: .noStore, steps: [])
    }

    private enum CodingKeys: String, CodingKey {
        case from, to, outcome, upToDate, steps, backupPath, seconds, path, copyReason
    }

    /// Encodes `upToDate` beside `outcome`: the one question most scripts ask.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .from: from, .to: to, .outcome: outcome, .upToDate: upToDate, .steps: steps, .seconds: seconds,
        ])
        // The folder as a path, what scripts read; left out, not null, when there is no backup.
        try container.encodeIfPresent(backupURL?.path, forKey: .backupPath)
        try container.encodeIfPresent(path, forKey: .path)
        try container.encodeIfPresent(copyReason, forKey: .copyReason)
    }

    /// Decodes a report; `upToDate` is read from `outcome`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        from = try container.decode(String.self, forKey: .from)
        to = try container.decode(String.self, forKey: .to)
        outcome = try container.decode(Outcome.self, forKey: .outcome)
        steps = try container.decode([StepReport].self, forKey: .steps)
        backupURL = try container.decodeIfPresent(String.self, forKey: .backupPath).map { URL(fileURLWithPath: $0) }
        seconds = try container.decode(Double.self, forKey: .seconds)
        path = try container.decodeIfPresent(UpgradePath.self, forKey: .path)
        copyReason = try container.decodeIfPresent(String.self, forKey: .copyReason)
    }
}

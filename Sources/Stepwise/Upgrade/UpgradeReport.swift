import StepwiseMapping

/// What ``Upgrader/upgradeIfNeeded(storeAt:)`` did.
///
/// An up-to-date store gives ``upToDate(at:)``: `upToDate` is true and `steps` is empty.
public struct UpgradeReport: Sendable, Hashable, Codable {
    /// One step of a plan, before it runs.
    public struct PlannedStep: Sendable, Hashable, Codable {
        public var from: String
        public var to: String
        /// `"inferred"` or `"explicit"`.
        public var kind: String
    }

    /// One step that ran.
    public struct Step: Sendable, Hashable, Codable {
        public var from: String
        public var to: String
        /// `"inferred"` or `"explicit"`.
        public var kind: String
        /// Destination objects the step's entity mappings created (or kept, for a step altered
        /// in place); see ``StepReport/rows``.
        public var rows: Int
        /// Objects in the store after the step, every entity together.
        public var objects: Int
        public var seconds: Double
        /// Whether the step altered a copy in place (`ALTER TABLE`) rather than rebuilding.
        public var inPlace: Bool
        /// Whether this step's output came from an earlier, interrupted run's checkpoint.
        public var resumed: Bool
        /// What the step dropped, counted before it ran (``StepReport/drops``); empty when
        /// it dropped nothing.
        public var drops: [DroppedData] = []
    }

    /// The store's version before the call.
    public var from: String
    /// The store's version after the call.
    public var to: String
    /// True when the store was already at the target and nothing was done.
    public var upToDate: Bool
    public var steps: [Step]
    /// Where the pre-upgrade store was kept, when ``UpgradeOptions/keepBackup`` was set.
    public var backupPath: String?
    /// Wall-clock duration of the whole call.
    public var seconds: Double

    public init(
        from: String, to: String, upToDate: Bool, steps: [Step], backupPath: String? = nil, seconds: Double = 0
    ) {
        self.from = from
        self.to = to
        self.upToDate = upToDate
        self.steps = steps
        self.backupPath = backupPath
        self.seconds = seconds
    }

    /// The report for a store that needed nothing.
    public static func upToDate(at version: String) -> UpgradeReport {
        UpgradeReport(from: version, to: version, upToDate: true, steps: [])
    }
}

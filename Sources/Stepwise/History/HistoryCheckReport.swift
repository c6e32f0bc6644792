import StepwiseModel

/// What ``HistoryCheck/run()`` found: every finding, errors first, accepted ones last.
///
/// As JSON (`stepwise check --json`): `{"errors": n, "warnings": n, "accepted": n,
/// "order": {...} or null, "findings": [...]}`, the order as ``/StepwiseModel/VersionOrder``
/// encodes it and each finding as ``HistoryFinding`` does. `errors` and `warnings` count the
/// findings not accepted.
public struct HistoryCheckReport: Sendable, Hashable, Codable {
    /// Every finding: errors, then warnings, then info, then the accepted findings, each group
    /// in the order the check made them.
    public var findings: [HistoryFinding]
    /// The order the versions were checked in, and how it was found; nil when it can't be told
    /// (an ``HistoryFinding/Kind/ambiguousOrder`` finding says why).
    public var order: VersionOrder?

    /// Sorts `findings` by severity, accepted ones last, keeping their order within a group.
    ///
    /// - parameters:
    ///   - findings: The findings, in the order the check made them.
    ///   - order: The versions' order and how it was found; nil when it can't be told.
    public init(findings: [HistoryFinding], order: VersionOrder? = nil) {
        self.order = order
        self.findings = findings.enumerated()
            .sorted {
                ($0.element.isAccepted ? 1 : 0, $0.element.severity, $0.offset)
                    < ($1.element.isAccepted ? 1 : 0, $1.element.severity, $1.offset)
            }
            .map(\.element)
    }

    /// How many findings are errors, not accepted.
    public var errors: Int { count(.error) }
    /// How many findings are warnings, not accepted.
    public var warnings: Int { count(.warning) }
    /// How many findings are accepted (``HistoryFinding/acceptedBecause``), whatever their severity.
    public var accepted: Int { findings.filter(\.isAccepted).count }
    /// Whether the history passes: no finding is an error, unless it is accepted.
    public var passes: Bool { errors == 0 }

    /// The findings of one kind.
    public func findings(_ kind: HistoryFinding.Kind) -> [HistoryFinding] {
        findings.filter { $0.kind == kind }
    }

    private func count(_ severity: HistoryFinding.Severity) -> Int {
        findings.filter { $0.severity == severity && !$0.isAccepted }.count
    }

    private enum CodingKeys: String, CodingKey {
        case errors, warnings, accepted, order, findings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .errors: errors, .warnings: warnings, .accepted: accepted, .order: order, .findings: findings,
        ])
    }

    /// Reads `findings` and `order` (null, or absent as a report from before it was written);
    /// `errors`, `warnings` and `accepted` are counted from the findings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            findings: try container.decode([HistoryFinding].self, forKey: .findings),
            order: try container.decodeIfPresent(VersionOrder.self, forKey: .order))
    }
}

/// What ``HistoryCheck/run()`` found: every finding, errors first.
///
/// As JSON (`stepwise check --json`): `{"errors": n, "warnings": n, "findings": [...]}`, each
/// finding as ``HistoryFinding`` encodes it.
public struct HistoryCheckReport: Sendable, Hashable, Codable {
    /// Every finding: errors, then warnings, then info, each group in the order the check made them.
    public var findings: [HistoryFinding]

    /// Sorts `findings` by severity, keeping their order within a severity.
    public init(findings: [HistoryFinding]) {
        self.findings = findings.enumerated()
            .sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }
            .map(\.element)
    }

    /// How many findings are errors.
    public var errors: Int { count(.error) }
    /// How many findings are warnings.
    public var warnings: Int { count(.warning) }
    /// Whether the history passes: no finding is an error.
    public var passes: Bool { errors == 0 }

    /// The findings of one kind.
    public func findings(_ kind: HistoryFinding.Kind) -> [HistoryFinding] {
        findings.filter { $0.kind == kind }
    }

    private func count(_ severity: HistoryFinding.Severity) -> Int {
        findings.filter { $0.severity == severity }.count
    }

    private enum CodingKeys: String, CodingKey {
        case errors, warnings, findings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(errors, forKey: .errors)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(findings, forKey: .findings)
    }

    /// Reads `findings`; `errors` and `warnings` are counted from them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(findings: try container.decode([HistoryFinding].self, forKey: .findings))
    }
}

import Stepwise

/// Checks an upgrade's report, so a run that did nothing can't pass for a fast one.
enum UpgradeCheck {
    /// The steps that ran, as "Recipes → Recipes 2 (explicit, rebuilt)".
    static func expect(_ report: UpgradeReport, to version: String) throws -> [String] {
        guard !report.upToDate, report.to == version else {
            throw BenchError(
                "expected an upgrade to \(version), got \(report.from) → \(report.to), upToDate \(report.upToDate)")
        }
        return report.steps.map { "\($0.from) → \($0.to) (\($0.kind), \($0.strategySummary))" }
    }
}

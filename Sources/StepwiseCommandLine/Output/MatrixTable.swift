import Foundation
import StepwiseMatrix

/// The outcome of one pair of `stepwise matrix`, and its `--json` form.
struct MatrixOutcome: Encodable {
    var from: String
    var to: String
    var ok: Bool
    var seconds: Double
    /// The failure's message; left out when the pair passed.
    var error: String?
    /// What no check covered (``UpgradeMatrix/PairResult/unchecked``); empty when the pair failed.
    var unchecked: [String] = []

    init(_ checked: UpgradeMatrix.Session.Checked) {
        from = checked.pair.from
        to = checked.pair.to
        seconds = checked.seconds
        switch checked.result {
        case .success(let result):
            ok = true
            unchecked = result.unchecked
        case .failure(let failure):
            ok = false
            error = "\(failure)"
        }
    }
}

/// The line `stepwise matrix` prints on standard error as each pair finishes:
/// `[3/66] Model 2 → Model 5 ✓ 0.42 s`, numbered in the order pairs finish.
struct MatrixProgress: Sendable {
    let total: Int

    func report(_ checked: UpgradeMatrix.Session.Checked) {
        let mark = (try? checked.result.get()) == nil ? "✗" : "✓"
        StandardError.print(
            "[\(checked.finished)/\(total)] \(checked.pair) \(mark) \(String(format: "%.2f", checked.seconds)) s")
    }
}

/// `stepwise matrix --json`: `{"pairs": [...], "failures": n, "unreachable": [...], "seeding": {...}}`.
struct MatrixReport: Encodable {
    var pairs: [MatrixOutcome]
    var failures: Int
    /// Pairs of a version and a later one that no plan reaches: not checked.
    var unreachable: [UpgradeMatrix.Pair]
    /// What the seeded stores were asked to hold (``SeedingConstraints``'s JSON form).
    var seeding: SeedingConstraints
}

/// What `stepwise matrix` prints without `--json`: a table with a row per source version and a
/// column per target version, ✓ or ✗ and the time in each checked cell, then the first
/// failure's message of each ✗.
///
/// ```
/// from \ to   Recipes 2  Recipes 3  Recipes 4
/// Recipes     ✓ 0.52s    ✓ 1.10s    ✗ 1.31s
/// Recipes 2   ·          ✓ 0.47s    ✓ 0.61s
/// Recipes 3   ·          ·          ✓ 0.20s
///
/// ✗ Recipes → Recipes 4: value check failed for Recipe, source row Z_PK 3, property 'name': …
/// 5 of 6 pairs passed (20 rows per entity, seed 1).
/// ```
///
/// `·` marks a target that isn't later than the source, `no path` a pair no plan reaches.
enum MatrixTable {
    static func lines(
        versions: [String], outcomes: [MatrixOutcome], unreachable: [UpgradeMatrix.Pair], rows: Int, seed: UInt64
    ) -> [String] {
        let sources = Array(versions.dropLast())
        let targets = Array(versions.dropFirst())
        let byPair = Dictionary(
            outcomes.map { ("\($0.from)\u{0}\($0.to)", $0) }, uniquingKeysWith: { first, _ in first })
        let missing = Set(unreachable.map { "\($0.from)\u{0}\($0.to)" })
        func cell(_ from: String, _ to: String) -> String {
            guard let fromIndex = versions.firstIndex(of: from), let toIndex = versions.firstIndex(of: to),
                toIndex > fromIndex
            else { return "·" }
            if let outcome = byPair["\(from)\u{0}\(to)"] {
                return "\(outcome.ok ? "✓" : "✗") \(String(format: "%.2fs", outcome.seconds))"
            }
            return missing.contains("\(from)\u{0}\(to)") ? "no path" : "·"
        }
        let header = "from \\ to"
        let firstWidth = ([header] + sources).map(\.count).max() ?? 0
        let widths = targets.map { target in ([target] + sources.map { cell($0, target) }).map(\.count).max() ?? 0 }
        func row(_ label: String, _ cells: [String]) -> String {
            ([pad(label, firstWidth)] + zip(cells, widths).map { pad($0, $1) }).joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        var lines = [row(header, targets)]
        for source in sources {
            lines.append(row(source, targets.map { cell(source, $0) }))
        }
        let failures = outcomes.filter { !$0.ok }
        if !failures.isEmpty {
            lines.append("")
            for failure in failures {
                lines.append("✗ \(failure.error ?? "\(failure.from) → \(failure.to) failed")")
            }
        }
        let partial = outcomes.filter { $0.ok && !$0.unchecked.isEmpty }
        if !partial.isEmpty {
            lines.append("")
            lines.append("Not covered by a row or value check (made by policies, new, or converted):")
            for outcome in partial {
                let shown = outcome.unchecked.prefix(8).joined(separator: ", ")
                let more =
                    outcome.unchecked.count > 8 ? " and \(outcome.unchecked.count - 8) more (--json lists all)" : ""
                lines.append("  \(outcome.from) → \(outcome.to): \(shown)\(more)")
            }
        }
        if !unreachable.isEmpty {
            lines.append("")
            lines.append(
                "No path (not checked): \(unreachable.map(\.description).joined(separator: ", ")). `\(ToolName.current) plan` says which mapping file is missing."
            )
        }
        lines.append(
            "\(outcomes.count - failures.count) of \(outcomes.count) pairs passed (\(rows) rows per entity, seed \(seed))."
        )
        return lines
    }

    /// `text` padded with spaces to `width` characters.
    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

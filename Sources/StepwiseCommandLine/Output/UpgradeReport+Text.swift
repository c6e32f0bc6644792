import Foundation
import Stepwise

extension UpgradeReport {
    /// What `stepwise upgrade` prints on standard output without `--json`: one line for the
    /// whole upgrade, one per step, and where the backup is.
    ///
    /// ```
    /// Upgraded App.sqlite from 'Recipes' to 'Recipes 4' in 3 steps, 1.42 s.
    ///   1. Recipes → Recipes 2    explicit   4,016 objects  resumed from a checkpoint of an interrupted run  rebuilt
    ///   2. Recipes 2 → Recipes 3  explicit   4,016 objects  0.31 s  partial rebuild: kept 2 tables
    ///   3. Recipes 3 → Recipes 4  inferred   4,016 objects  0.02 s  in place
    ///        dropped 1004 non-null values of Recipe.notes (removed from the model)
    /// Path: on a copy, then swapped in (step 'Recipes' → 'Recipes 2' rewrites rows)
    /// Backup: App.sqlite.stepwise-backup (undo with `stepwise rollback App.sqlite`)
    /// ```
    ///
    /// The path line says how the new store was written (``/Stepwise/UpgradePath``) and, for a
    /// copy, why (``/Stepwise/UpgradeReport/copyReason``).
    ///
    /// Each step names its strategy (``/StepwiseMapping/StepReport/strategy``). A resumed step
    /// shows that it came from a checkpoint instead of a time: it didn't run now.
    /// `tool` is the command name the backup line tells to run.
    func textLines(store: String, tool: String = ToolName.current) -> [String] {
        switch outcome {
        case .noStore: return ["No store at \(store): nothing to upgrade (create it at '\(to)')."]
        case .upToDate: return ["\(store) is up to date at '\(to)': nothing to do."]
        case .upgraded: break
        }
        let plural = steps.count == 1 ? "step" : "steps"
        var lines = [
            "Upgraded \(store) from '\(from)' to '\(to)' in \(steps.count) \(plural), \(String(format: "%.2f", seconds)) s."
        ]
        let versionsWidth = steps.map { "\($0.from) → \($0.to)".count }.max() ?? 0
        for (offset, step) in steps.enumerated() {
            let versions = "\(step.from) → \(step.to)".padding(toLength: versionsWidth, withPad: " ", startingAt: 0)
            let kind = step.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            let time =
                step.resumed
                ? "resumed from a checkpoint of an interrupted run" : String(format: "%.2f s", step.seconds)
            lines.append(
                "  \(offset + 1). \(versions)  \(kind)  \(TextFormat.objects(step.objects, rows: step.rows))  \(time)  \(step.strategySummary)"
            )
            lines += step.drops.filter { $0.count != 0 }.map { "       dropped \($0)" }
        }
        if let path {
            lines.append("Path: \(path)" + (copyReason.map { " (\($0))" } ?? ""))
        }
        if let backupURL {
            lines.append("Backup: \(backupURL.path) (undo with `\(tool) rollback \(store)`)")
        }
        return lines
    }
}

import Foundation

/// The one line a progress bar redraws: what runs, how far it is, and how long is left.
///
/// ```
/// [2/3] Recipes 2 → Recipes 3 · creating RecipeToRecipe  2,004/4,016 [████░░░░░]  49%  1,850/s  ETA 0:01
/// [2/3] creating RecipeToRecipe  2,004/4,016 [█████████░░░░░░░░░]  49%  1,850/s  ETA 0:01      (narrower)
/// ```
///
/// Pure formatting, so it can be reasoned about apart from the terminal: ``ProgressRenderer``
/// feeds it the state and writes what it returns.
struct ProgressBar {
    /// `[index/count]`.
    var step: String
    /// `from → to`, left out when the line is too narrow for it.
    var versions: String
    /// What the step is doing: "creating ChefToChef", "linking ChefToChef".
    var activity: String
    var done: Int
    /// The rows expected, when known or estimated; without it the line shows no bar or ETA.
    /// A low estimate is raised to `done`.
    var total: Int?
    /// Rows per second so far, when enough time has passed to tell.
    var rate: Double?
    /// The width to fit in, in characters.
    var width: Int

    /// The line, at most `width - 1` characters (the last column would wrap on some terminals).
    /// When space is short the versions go first, then the rate, then the bar shrinks to 10
    /// cells, then the label is cut; the counts and the ETA always show.
    var line: String {
        let full = "\(step) \(versions) · \(activity)"
        let label = full.count + 60 <= width ? full : "\(step) \(activity)"
        let rateText = rate.map { $0 > 0 ? "  \(TextFormat.grouped(Int($0)))/s" : "" } ?? ""
        guard let total = total.map({ max($0, done) }), total > 0 else {
            return Self.fit(label, "  \(TextFormat.grouped(done)) rows" + rateText, width: width)
        }
        let fraction = Double(done) / Double(total)
        var eta = ""
        if let rate, rate > 0 {
            eta = done < total ? "  ETA \(TextFormat.duration(Double(total - done) / rate))" : "  finishing"
        }
        let counts = "  \(TextFormat.grouped(done))/\(TextFormat.grouped(total)) "
        let percent = String(format: " %3d%%", Int(fraction * 100))
        // The bar's width depends on the label alone, so it doesn't jump when a rate appears:
        // room is kept for the rate and the ETA (`  12,345/s  ETA 1:02:03`).
        let cells = max(10, min(30, width - 1 - label.count - counts.count - percent.count - 2 - 24))
        let used = label.count + counts.count + cells + 2 + percent.count
        let tail = used + rateText.count + eta.count <= width - 1 ? rateText + eta : eta
        let filled = Int((fraction * Double(cells)).rounded(.down))
        let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled) + "]"
        return Self.fit(label, counts + bar + percent + tail, width: width)
    }

    /// `label` then `rest`, shortening the label (never the numbers) to fit `width - 1`.
    static func fit(_ label: String, _ rest: String, width: Int) -> String {
        let room = width - 1 - rest.count
        guard label.count > room else { return label + rest }
        guard room > 1 else { return String((label + rest).prefix(max(0, width - 1))) }
        return String(label.prefix(room - 1)) + "…" + rest
    }
}

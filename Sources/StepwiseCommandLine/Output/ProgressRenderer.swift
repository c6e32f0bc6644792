import Foundation
import Stepwise
import StepwiseMapping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shows an upgrade's ``UpgradeEvent``s on standard error, as a progress bar redrawn in
/// place or as plain lines.
///
/// - **bar** (a terminal): a line when each step starts and ends, and between them one live
///   line, redrawn with `\r` at most ten times a second: step i/n (with the versions when the
///   terminal is wide enough), the entity mapping, rows done of those expected, a bar and an
///   ETA from the rows per second.
/// - **lines** (a pipe or a file, such as CI logs): one line per phase: copy, plan, each
///   step's start and end, verification, swap. Nothing is redrawn.
///
/// A step runs in passes, as Core Data's do: pass 1 creates the destination objects, pass 2
/// links them. The library's events carry each entity mapping's total (its source rows in
/// pass 1, its instances in pass 2), and the bar then counts that mapping alone. Without a
/// total (an older event source, or a step that reports none) it estimates:
/// - pass 1 expects as many objects as the previous step created, and for the first step
///   as many as the store holds (`estimateRows`, called once, only if a step runs);
/// - pass 2 goes entity mapping by entity mapping, and expects one link per object the
///   mapping created in pass 1 (a row-by-row mapping visits each; a set-based one is a few
///   statements and reports no rows).
/// Rates and ETAs are per pass in pass 1 and per entity mapping in pass 2. A total carried by
/// an event wins.
///
/// Events arrive on the upgrading thread while ``finish()`` comes from the command's, so the
/// state lives behind a lock.
final class ProgressRenderer: @unchecked Sendable {
    // @unchecked: every mutable property is read and written under `lock`.

    /// How progress is shown.
    enum Style: Sendable {
        case bar, lines, none
    }

    private let style: Style
    private let estimateRows: @Sendable () -> Int?
    private let write: @Sendable (String) -> Void
    private let width: Int
    private let lock = NSLock()

    private var step = ""
    private var versions = ""
    private var mapping = ""
    private var activity = ""
    private var pass = 1
    private var passStarted = Date()
    /// Pass-1 objects of the step's finished entity mappings, and of the running one.
    private var finishedMappingsCreated = 0
    private var mappingCreated = 0
    /// Pass-1 objects by entity mapping: pass 2's totals.
    private var createdByMapping: [String: Int] = [:]
    /// Pass-2 links of the running entity mapping.
    private var mappingLinked = 0
    /// The running entity mapping's row total, when an event carries one.
    private var mappingTotal: Int?
    private var expectedRows: Int?
    private var previousStepRows: Int?
    /// The store's object count, once estimated (`.some(nil)`: it couldn't be).
    private var storeRows: Int??
    private var lastDraw = Date.distantPast
    /// The last "waiting for processes" line, printed again only when it changes.
    private var lastWaiting: String?
    private var lineIsOpen = false

    /// - parameters:
    ///   - estimateRows: Counts the objects in the store, for the first step's bar.
    ///   - write: Where text goes; standard error by default.
    init(
        style: Style, width: Int = ProgressRenderer.terminalWidth,
        estimateRows: @escaping @Sendable () -> Int? = { nil },
        write: @escaping @Sendable (String) -> Void = { ProgressRenderer.writeToStandardError($0) }
    ) {
        self.style = style
        self.width = width
        self.estimateRows = estimateRows
        self.write = write
    }

    /// The handler to put in ``UpgradeOptions/progress``.
    var handler: @Sendable (UpgradeEvent) -> Void {
        { [self] event in handle(event) }
    }

    func handle(_ event: UpgradeEvent) {
        guard style != .none else { return }
        lock.withLock { render(event) }
    }

    /// Clears the live line, if any: call it before printing anything else, error or summary.
    func finish() {
        lock.withLock { clearLine() }
    }

    private func render(_ event: UpgradeEvent) {
        switch event {
        case .waitingForStore(let pids, let bare):
            let count =
                pids.isEmpty
                ? "other processes"
                : "\(pids.count) \(pids.count == 1 ? "process" : "processes") (\(pids.map(String.init).joined(separator: ", ")))"
            let how = bare ? " (an open SQLite connection outside StoreAccess)" : ""
            let line = "Waiting for \(count) to close the store\(how)…"
            if line != lastWaiting { status(line) }
            lastWaiting = line
        case .resuming(let completed):
            permanent("Resuming an interrupted upgrade: \(completed) step(s) already done are kept.")
        case .copying(let bytes):
            permanent("Copying the store (\(TextFormat.megabytes(bytes))) into a work folder beside it…")
        case .planned(let from, let to, let steps):
            let list = steps.map { "\($0.from) → \($0.to) (\($0.kind))" }.joined(separator: ", ")
            permanent("Plan: '\(from)' → '\(to)' in \(steps.count) step(s): \(list)")
        case .stepStarted(let index, let count, let step):
            startStep(index: index, count: count, from: step.from, to: step.to, kind: step.kind.rawValue)
        case .entityMapping(_, let name, let pass, let total):
            startEntityMapping(name, pass: pass, total: total)
        case .rows(_, _, let done, let total):
            if pass == 1 {
                mappingCreated = done
                createdByMapping[mapping] = done
            } else {
                mappingLinked = done
            }
            if let total { mappingTotal = total }
            draw(force: false)
        case .stepFinished(let index, let count, let report):
            previousStepRows = report.objects
            permanent(
                "Step \(index)/\(count) done: \(report.from) → \(report.to), \(TextFormat.objects(report.objects, rows: report.rows)) in \(String(format: "%.2f", report.seconds)) s, \(report.howItRan)"
            )
        case .verifying(let level):
            status(
                "Verifying the upgraded store (\(level == .quick ? "quick: what the steps could have broken" : "full: PRAGMA integrity_check, every key"))…"
            )
        case .swapping:
            status("Swapping the upgraded store in…")
        case .swapped:
            status("Cleaning up…")
        case .finished:
            clearLine()
        }
    }

    private func startStep(index: Int, count: Int, from: String, to: String, kind: String) {
        step = "[\(index)/\(count)]"
        versions = "\(from) → \(to)"
        activity = "\(kind) mapping"
        passStarted = Date()
        pass = 1
        (finishedMappingsCreated, mappingCreated, mappingLinked) = (0, 0, 0)
        createdByMapping = [:]
        mappingTotal = nil
        permanent("Step \(index)/\(count): \(from) → \(to) (\(kind) mapping)…")
        guard style == .bar else { return }
        if previousStepRows == nil, storeRows == nil { storeRows = .some(estimateRows()) }
        expectedRows = previousStepRows ?? storeRows.flatMap { $0 }
        draw(force: true)
    }

    /// Folds the finished entity mapping's objects into the step's; pass 2 times each mapping.
    private func startEntityMapping(_ name: String, pass: Int, total: Int?) {
        finishedMappingsCreated += mappingCreated
        (mappingCreated, mappingLinked) = (0, 0)
        if pass != self.pass || pass == 2 { passStarted = Date() }
        self.pass = pass
        mapping = name
        mappingTotal = total
        activity = pass == 1 ? "creating \(name)" : "linking \(name)"
        draw(force: true)
    }

    /// Redraws the live line (bar style only), at most every 100 ms unless forced.
    private func draw(force: Bool) {
        guard style == .bar else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let (passDone, passTotal) =
            pass == 1
            ? (finishedMappingsCreated + mappingCreated, expectedRows) : (mappingLinked, createdByMapping[mapping])
        let elapsed = now.timeIntervalSince(passStarted)
        let rate = elapsed >= 0.5 && passDone > 0 ? Double(passDone) / elapsed : nil
        let bar: ProgressBar
        if let mappingTotal {
            // A total from the library counts the running entity mapping alone.
            let done = pass == 1 ? mappingCreated : mappingLinked
            bar = ProgressBar(
                step: step, versions: versions, activity: activity, done: done, total: mappingTotal, rate: rate,
                width: width)
        } else {
            bar = ProgressBar(
                step: step, versions: versions, activity: activity, done: passDone, total: passTotal, rate: rate,
                width: width)
        }
        write("\r\u{1B}[K" + bar.line)
        lineIsOpen = true
    }

    /// A line that stays: the live line is cleared first.
    private func permanent(_ text: String) {
        clearLine()
        write(text + "\n")
    }

    /// A phase too short for a bar: a live line in bar style, a plain line otherwise.
    private func status(_ text: String) {
        guard style == .bar else { return permanent(text) }
        write("\r\u{1B}[K" + String(text.prefix(max(0, width - 1))))
        lineIsOpen = true
    }

    private func clearLine() {
        guard lineIsOpen else { return }
        write("\r\u{1B}[K")
        lineIsOpen = false
    }

    /// `$COLUMNS` when the shell exports it, else the terminal's width, else 80.
    static var terminalWidth: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) {
            return max(40, columns)
        }
        var size = winsize()
        #if os(Linux)
            let asked = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size)
        #else
            let asked = ioctl(STDERR_FILENO, TIOCGWINSZ, &size)
        #endif
        return asked == 0 && size.ws_col > 0 ? max(40, Int(size.ws_col)) : 80
    }

    /// Writes to standard error, after flushing standard output so the two interleave in order.
    static func writeToStandardError(_ text: String) {
        fflush(nil)
        FileHandle.standardError.write(Data(text.utf8))
    }
}

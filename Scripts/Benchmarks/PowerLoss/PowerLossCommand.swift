import ArgumentParser
import Foundation
import StepwiseMatrix
import StepwiseStore
import StepwiseTestSupport

/// `stepwise-bench power-loss`: records every file operation of a real upgrade, builds the
/// states a power loss could leave at each sync, and checks that each recovers.
struct PowerLossCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power-loss",
        abstract: "Check that an upgrade survives power loss at every sync.",
        discussion: """
            The upgrade goes Bench → Bench 2 (a written mapping: the store is rebuilt) → Bench 3 \
            (inferred: altered in place), in this process, on a store with Core Data's private \
            tables and 24 new items (each with a tag), one note and one history change only in \
            its -wal (checked absent from its main file alone); every state must recover all of them. Every file operation is \
            recorded: Stepwise's through its file-system seam, SQLite's through a recording VFS \
            registered as the default. At each sync in the trace (a sync point), the states a \
            power loss could leave are built (CrashStateModel): every unsynced write and \
            directory change lost; then --variants seeded states where a random share of the \
            unsynced writes' 512-byte sectors land, in a random order, and the unsynced creates, \
            renames, links and unlinks all land or a random subset does. The -shm is never \
            kept (SQLite rebuilds it from the -wal). Each state is written at the store's own \
            path and must hold the old store byte for byte (its -wal included) or the complete \
            new one; then a fresh upgradeIfNeeded must end at Bench 3 with every row equal to \
            the uninterrupted upgrade's. (The identities the journal recorded, inode and \
            modification time, are carried over to the written files, as a power loss keeps \
            them: JournalIdentities.) The last line is `power-loss: N states, F failures`; \
            the exit status is 1 when F > 0. With --one-transaction the store starts at Bench 2, \
            with nothing in a -wal, and its one step to Bench 3 runs in one SQLite transaction on \
            the store itself (issue 46): every state must be Bench 2 byte for byte or Bench 3 whole.
            """)

    @Option(name: .long, help: "Items in the store.")
    var rows = 200

    @Option(name: .long, help: "Seed of the random states (default: the time), to replay a run.")
    var seed: UInt64?

    @Option(name: .long, help: "Random states per sync point, beside the one with every unsynced change lost.")
    var variants = 4

    @Option(name: .long, help: "Try only this many sync points, drawn at random (default: every one).")
    var sample: Int?

    @Option(name: .long, help: "Where the work folder goes (default: $TMPDIR).", completion: .directory)
    var dir: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Upgrade a store at Bench 2 instead, whose one step changes only the schema: one SQLite transaction on the store itself, no copy."
        ))
    var oneTransaction = false

    @Flag(name: .long, help: "Print the recorded trace (index, site, event) on standard error.")
    var printTrace = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write one state of this sync point, keep it (the uninterrupted upgrade's result beside it as upgraded.sqlite), print where, and stop.",
            valueName: "sync point"))
    var keepState: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --keep-state: this random variant instead of every unsynced change lost; -1 keeps every change, as a kill would.",
            valueName: "n"))
    var keepVariant: Int?

    func validate() throws {
        guard rows >= 1 else { throw ValidationError("--rows must be at least 1.") }
        guard variants >= 0 else { throw ValidationError("--variants can't be negative.") }
        if let sample, sample < 1 { throw ValidationError("--sample must be at least 1.") }
    }

    func run() throws {
        let started = Date()
        let seed = seed ?? UInt64(Date().timeIntervalSince1970 * 1000)
        let base = dir.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let unresolved = base.appendingPathComponent("power-loss-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: unresolved, withIntermediateDirectories: true)
        // The real path: the upgrade resolves symbolic links (/tmp on macOS), and the trace names real paths.
        let work = unresolved.resolvingSymlinksInPath()
        var keptState = false
        defer { if !keptState { try? FileManager.default.removeItem(at: work) } }
        let original =
            oneTransaction
            ? try PowerLossStore.makeAtBench2(rows: rows, in: work.appendingPathComponent("original"))
            : try PowerLossStore.make(rows: rows, in: work.appendingPathComponent("original"))
        let root = work.appendingPathComponent("store", isDirectory: true)
        let store = try PowerLossStore.copy(original, into: root)
        var initial = try CrashState.reading(root)
        // The -shm is not durable state: SQLite rebuilds the wal-index from the -wal.
        initial.files = initial.files.filter { !$0.key.hasSuffix("-shm") }

        var fileSystem = FileSystem()
        fileSystem.record = TraceRecorder.shared.fileSystemRecorder
        try TraceRecorder.shared.start(under: root)
        let upgrader = try CrashHistory.upgrader(fileSystem: fileSystem)
        let report = Result { try upgrader.upgradeIfNeededSynchronously(storeAt: store) }
        let trace = TraceRecorder.shared.stop()
        guard try report.get().to == "Bench 3" else {
            throw BenchError("the uninterrupted upgrade didn't reach Bench 3")
        }
        if oneTransaction, try report.get().path != .oneTransaction {
            throw BenchError("the upgrade took the copy path: \(try report.get().copyReason ?? "?")")
        }
        let check = PowerLossCheck(
            crashCheck: oneTransaction
                ? CrashCheck(rows: rows, original: original, oldVersion: "Bench 2")
                : CrashCheck(
                    rows: rows, original: original, walMarker: PowerLossStore.walMarker,
                    walItems: PowerLossStore.walItems(rows: rows)),
            reference: try StoreDigest(of: store))

        if printTrace {
            for (index, entry) in trace.enumerated() { progress("\(index) \(entry.site): \(entry.event.summary)") }
        }
        let syncPoints = trace.indices.filter { trace[$0].event.isSyncPoint }
        var picker = StepwiseMatrix.SplitMix64(seed: seed, "sync points")
        if let keepState, !syncPoints.contains(keepState) {
            throw BenchError("--keep-state \(keepState) is not a sync point (see --print-trace)")
        }
        if let keepVariant, keepVariant < -1 || keepVariant >= variants {
            throw BenchError("--keep-variant must be -1 or below --variants (\(variants))")
        }
        let chosen =
            keepState.map { [$0] } ?? sample.map { Self.draw($0, from: syncPoints, random: &picker) } ?? syncPoints
        say(
            "power-loss: seed \(seed); \(trace.count) events, \(syncPoints.count) sync points, trying \(chosen.count) with up to \(variants + 1) states each"
        )

        var model = CrashStateModel(root: root.path, initial: initial, events: [])
        var next = 0
        var states = 0
        var failures = 0
        var outcomes: [PowerLossCheck.Outcome: Int] = [:]
        for (done, point) in chosen.enumerated() {
            while next <= point {
                model.append(trace[next].event)
                next += 1
            }
            if keepState == point {
                try keep(model, at: point, store: store, root: root, seed: seed)
                keptState = true
                return
            }
            var tried: Set<CrashState> = []
            for (variant, state) in Self.states(of: model, at: point, variants: variants, seed: seed)
            where tried.insert(state).inserted {
                states += 1
                do {
                    outcomes[try check.check(state, root: root, store: store), default: 0] += 1
                } catch {
                    failures += 1
                    say(
                        "  FAILED at sync point \(point) (\(trace[point].site): \(trace[point].event.summary)), \(variant): \(error)"
                    )
                }
            }
            if (done + 1) % 10 == 0 {
                progress("  \(done + 1)/\(chosen.count) sync points, \(states) states, \(failures) failures")
            }
        }
        for (outcome, count) in outcomes.sorted(by: { $0.value > $1.value }) {
            progress(
                "  \(count) states: the \(outcome.before.rawValue) store before recovery, which \(outcome.recovery.rawValue)"
            )
        }
        progress("\(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        say("power-loss: \(states) states, \(failures) failures")
        if failures > 0 { throw ExitCode(1) }
    }

    /// `--keep-state`: writes the chosen state of `point`, with the uninterrupted upgrade's
    /// result beside it, and leaves both.
    private func keep(_ model: CrashStateModel, at point: Int, store: URL, root: URL, seed: UInt64) throws {
        try FileManager.default.copyItem(
            at: store, to: root.deletingLastPathComponent().appendingPathComponent("upgraded.sqlite"))
        let state: CrashState
        switch keepVariant {
        case .some(-1): state = model.stateKeepingEverything()
        case .some(let variant):
            // A variant without pending changes is the one state there is.
            let states = Self.states(of: model, at: point, variants: variants, seed: seed)
            state = states[min(variant + 1, states.count - 1)].1
        case .none: state = model.state()
        }
        try state.write(at: root)
        say("power-loss: the state of sync point \(point) is at \(root.path)")
    }

    /// The states tried at a sync point: every unsynced change lost, then `variants` drawn
    /// from seeds derived from the run's seed and the point (each printed with a failure).
    static func states(
        of model: CrashStateModel, at point: Int, variants: Int, seed: UInt64
    ) -> [(String, CrashState)] {
        var states = [("every unsynced change lost", model.state())]
        guard model.hasPendingChanges else { return states }
        for variant in 0..<variants {
            var random = StepwiseMatrix.SplitMix64(seed: seed, "state", point * 1_000 + variant)
            let stateSeed = random.state
            states.append(("variant \(variant) (state seed \(stateSeed))", model.state(random: &random)))
        }
        return states
    }

    /// `count` of `points`, drawn without replacement, in trace order.
    static func draw(_ count: Int, from points: [Int], random: inout StepwiseMatrix.SplitMix64) -> [Int] {
        var pool = points
        for index in pool.indices.reversed() where index > 0 { pool.swapAt(index, random.next(below: index + 1)) }
        return pool.prefix(count).sorted()
    }

    /// The result and the failures, on standard output, unbuffered.
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Progress, on standard error.
    private func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

import ArgumentParser
import Foundation
import Stepwise
import StepwiseTesting

/// `stepwise-bench crash-test`: kills a multi-step upgrade with SIGKILL at random moments,
/// spread over every phase, and checks after each kill that the store is the old one or the
/// new one, whole, and that the next `upgradeIfNeeded` completes.
struct CrashTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-test",
        abstract: "Kill an upgrade at random moments and check that nothing is ever lost.",
        discussion: """
            The upgrade goes Bench → Bench 2 (a written mapping: the store is rebuilt in two passes) \
            → Bench 3 (inferred: altered in place), in a child process (`crash-upgrade`) that \
            announces each phase. One uninterrupted run times the phases; then trial i waits for \
            phase i mod 8 (copy, plan, step 1 pass 1, step 1 pass 2, step 2, verify, swap, cleanup), sleeps \
            a random part of that phase's duration, and sends SIGKILL. Every other round of 8 trials \
            starts from the store with one note changed only in its -wal, as a killed app leaves \
            it: the upgrade then copies it before step 1, where otherwise step 1 reads the store \
            itself; the note must arrive. The store keeps Core Data's persistent history and \
            CloudKit records (CrashPrivateTables), with one more history change in the -wal \
            variant's -wal: every change and record must still name its object. Then a quarter as \
            many trials (at least 8) kill the upgrade of a store whose values Core Data keeps in \
            .Photos_SUPPORT/_EXTERNAL_DATA (CrashExternalData), in plan, verify, swap and cleanup: \
            every reference must name a file after the kill, and after the recovery only the files \
            the upgraded store references are left, the backup keeping them all. Then as many again \
            (at least 9) kill the upgrade of a store at Bench 2, whose one step to Bench 3 changes \
            only the schema and so runs in one SQLite transaction on the store itself (no copy), \
            in plan (the steps), verify (verification and the commit) and cleanup (the checkpoint \
            into the main file): the store must be Bench 2 byte for byte or Bench 3 whole. The last line is \
            `crash-test: T trials, F failures`; the exit status is 1 when F > 0.
            """)

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "How many kills.")
    var trials = 200

    @Option(name: .long, help: "Seed of the random delays (default: the time), to replay a run.")
    var seed: UInt64?

    func run() throws {
        let directory = try options.directory()
        let seeded = BenchStore.sourceURL(rows: options.rows, in: directory)
        if !FileManager.default.fileExists(atPath: seeded.path) {
            try BenchStore.seed(rows: options.rows, at: seeded)
        }
        let seed = seed ?? UInt64(Date().timeIntervalSince1970 * 1000)
        var random = SplitMix64(seed: seed)
        let work = directory.appendingPathComponent("crash-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // The store keeps Core Data's persistent history and CloudKit records, as a SwiftData
        // or CloudKit app's store does; the cached seed stays as it is for the benchmarks.
        let original = try copy(seeded, into: work, as: "original")
        try CrashPrivateTables.add(to: original, rows: options.rows)
        let check = CrashCheck(rows: options.rows, original: original)
        let walOriginal = try copy(original, into: work, as: "original-with-wal")
        let marker = "written in the -wal"
        try WALWriter.write(to: walOriginal) { db in
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZNOTE" = ? WHERE "Z_PK" = 1"#, arguments: [marker])
            try CrashPrivateTables.addInWAL(db)
        }
        let walCheck = CrashCheck(rows: options.rows, original: walOriginal, walMarker: marker)

        // The timing runs, one per variant: every phase's start, uninterrupted, and a sound result.
        let targets: [CrashPhase] = [.copy, .plan, .step1Pass1, .step1Pass2, .step2, .verify, .swap, .cleanup]
        var durations: [Bool: [CrashPhase: Double]] = [:]
        for withWAL in [false, true] {
            let timingStore = try copy(withWAL ? walOriginal : original, into: work, as: "timing-\(withWAL)")
            let timing = try CrashChild(store: timingStore)
            guard timing.waitForExit() == 0 else { throw BenchError("the uninterrupted upgrade failed") }
            try (withWAL ? walCheck : check).recover(timingStore)
            let phases = timing.phases
            for (index, entry) in phases.enumerated() where index + 1 < phases.count {
                durations[withWAL, default: [:]][entry.phase] = phases[index + 1].seconds - entry.seconds
            }
            say(
                "crash-test: \(options.rows) rows\(withWAL ? ", rows in the -wal" : ""), seed \(seed); uninterrupted upgrade \(format(phases.last?.seconds ?? 0)) s"
            )
            for phase in targets { say("  \(phase.rawValue): \(format(durations[withWAL]?[phase] ?? 0)) s") }
        }

        var killsByPhase: [String: Int] = [:]
        var outcomes: [CrashCheck.State: Int] = [:]
        var failures = 0
        for trial in 0..<trials {
            let target = targets[trial % targets.count]
            let withWAL = (trial / targets.count) % 2 == 1
            let store = try copy(withWAL ? walOriginal : original, into: work, as: "trial-\(trial)")
            let child = try CrashChild(store: store)
            _ = child.wait(for: target, timeout: 600)
            let delay = random.nextDouble() * (durations[withWAL]?[target] ?? 0)
            usleep(UInt32(delay * 1_000_000))
            child.kill()
            let killedIn = child.currentPhase?.rawValue ?? "start"
            killsByPhase[killedIn, default: 0] += 1
            do {
                let trialCheck = withWAL ? walCheck : check
                let state = try trialCheck.stateAfterKill(store)
                outcomes[state, default: 0] += 1
                try trialCheck.recover(store)
            } catch {
                failures += 1
                say(
                    "  trial \(trial) (\(withWAL ? "rows in the -wal, " : "")killed in \(killedIn) after \(format(delay)) s): FAILED: \(error)"
                )
            }
            try? FileManager.default.removeItem(at: store.deletingLastPathComponent())
            if (trial + 1) % 20 == 0 { say("  \(trial + 1)/\(trials) trials, \(failures) failures") }
        }
        failures += try externalDataTrials(count: max(8, trials / 4), in: work, random: &random)
        failures += try oneTransactionTrials(count: max(9, trials / 4), from: original, in: work, random: &random)
        say("kills per phase (the phase the child had announced last):")
        for phase in CrashPhase.allCases where killsByPhase[phase.rawValue] != nil {
            say("  \(phase.rawValue): \(killsByPhase[phase.rawValue] ?? 0)")
        }
        say("after the kill: \(outcomes[.old] ?? 0) old stores, \(outcomes[.new] ?? 0) new stores")
        say("crash-test: \(trials + max(8, trials / 4) + max(9, trials / 4)) trials, \(failures) failures")
        if failures > 0 { throw ExitCode(1) }
    }

    /// The trials of a store with external files (``CrashExternalData``): `count` kills spread
    /// over plan, verify, swap and cleanup (where the files are kept and removed); after each,
    /// every reference of the store must resolve, and the recovery must leave the right files.
    /// Returns the number of failed trials.
    private func externalDataTrials(count: Int, in work: URL, random: inout SplitMix64) throws -> Int {
        let photos = max(20, min(2_000, options.rows / 100))
        let seeded = try CrashExternalData.copy(
            try seededExternalStore(photos: photos, in: work), into: work.appendingPathComponent("external-original"))
        let timingStore = try CrashExternalData.copy(seeded, into: work.appendingPathComponent("external-timing"))
        let timing = try CrashChild(store: timingStore, external: true)
        guard timing.waitForExit() == 0 else { throw BenchError("the uninterrupted external-data upgrade failed") }
        try CrashExternalData.checkRecovered(timingStore, photos: photos)
        let phases = timing.phases
        say(
            "crash-test: \(photos) photos with external files; uninterrupted upgrade \(format(phases.last?.seconds ?? 0)) s"
        )
        let trials = PhaseKillTrials(
            name: "external", targets: [.plan, .verify, .swap, .cleanup], durations: timing.phaseDurations,
            makeStore: { trial in
                try CrashExternalData.copy(seeded, into: work.appendingPathComponent("external-trial-\(trial)"))
            },
            startChild: { store in try CrashChild(store: store, external: true) },
            checkAfterKill: { store in try CrashExternalData.checkAfterKill(store, photos: photos) },
            checkRecovered: { store in try CrashExternalData.checkRecovered(store, photos: photos) })
        let (failures, states) = try trials.run(count: count, random: &random, say: say)
        say(
            "external files: \(count) trials, \(states["Photos"] ?? 0) old stores and \(states["Photos 2"] ?? 0) new after the kill, \(failures) failures"
        )
        return failures
    }

    /// A freshly seeded store with external files, in its own folder.
    private func seededExternalStore(photos: Int, in work: URL) throws -> URL {
        let folder = work.appendingPathComponent("external-seed", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("Photos.sqlite")
        try CrashExternalData.seed(photos: photos, at: store)
        return store
    }

    /// A line on standard output, unbuffered: a long run shows its progress in CI logs.
    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A fresh folder with a copy of a store: its main file and whichever of `-wal` and `-shm`
    /// it has.
    func copy(_ original: URL, into work: URL, as name: String) throws -> URL {
        let folder = work.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("Bench.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: original.path + suffix) {
            try FileManager.default.copyItem(atPath: original.path + suffix, toPath: store.path + suffix)
        }
        return store
    }

    func format(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }
}

/// A small seeded generator, so a run's delays can be replayed with `--seed`.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func nextDouble() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}

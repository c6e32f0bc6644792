import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// The syncs a power loss needs, found missing by `Scripts/power-loss` (issue 26): each
/// rename's two directories synced before the journal moves on, `outgoing/` durable before
/// the -wal moves into it, and through the whole swap a crash state that still holds the old
/// store (its -wal included) or the new one.
@Suite("upgradeIfNeeded: the syncs a power loss needs")
struct PowerLossOrderingTests {
    /// The upgrades traced: Events from a store with a row in its -wal, keeping a backup over
    /// an older one (the swap, the backup's rename); University 1 → 4 from a -wal (an in-place
    /// step, which moves the file it alters).
    enum Scenario: String, CaseIterable, Sendable, CustomStringConvertible {
        case eventsFromWALWithBackup, universityFromWAL
        var description: String { rawValue }
    }

    /// A traced upgrade: the events Stepwise's seam made, the folder before the swap (every
    /// file in it durable by then: the step's output is synced before the journal vouches for
    /// it), and the events from there on.
    struct Trace {
        var fixture: UpgradeFixture
        var events: [(event: FileEvent, site: String)]
        var beforeSwap: CrashState?
        var swapEvents: [FileEvent]
        var oldMain: [UInt8]
        var oldWAL: [UInt8]

        var workDirectory: String { fixture.files.workDirectory.path }
        var store: String { fixture.files.store.path }
    }

    private final class Recorder: @unchecked Sendable {
        // @unchecked: every property is guarded by `lock`.
        private let lock = NSLock()
        private var events: [(event: FileEvent, site: String)] = []
        private var snapshot: CrashState?
        private var swapEvents: [FileEvent] = []
        let folder: URL

        init(folder: URL) { self.folder = folder }

        func add(_ event: FileEvent, site: String) {
            lock.withLock {
                if site == "swap.incoming.mkdir", snapshot == nil {
                    // The mkdir has happened: take the folder as it was just before it.
                    if var state = try? CrashState.reading(folder) {
                        state.directories.remove(folder.appendingPathComponent(".Store.sqlite.stepwise/incoming").path)
                        state.files = state.files.filter { !$0.key.hasSuffix("-shm") }
                        snapshot = state
                    }
                }
                if snapshot != nil { swapEvents.append(event) }
                events.append((event, site))
            }
        }

        var recorded: (events: [(event: FileEvent, site: String)], snapshot: CrashState?, swap: [FileEvent]) {
            lock.withLock { (events, snapshot, swapEvents) }
        }
    }

    private func trace(_ scenario: Scenario) throws -> Trace {
        let fixture: UpgradeFixture
        switch scenario {
        case .eventsFromWALWithBackup: fixture = try .eventsWithRowInWALAndOlderBackup()
        case .universityFromWAL: fixture = try .universityWithRowInWAL()
        }
        let oldMain = [UInt8](try Data(contentsOf: fixture.store))
        let oldWAL = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.store.path + "-wal")))
        let recorder = Recorder(folder: fixture.store.deletingLastPathComponent().resolvingSymlinksInPath())
        var fileSystem = FileSystem()
        fileSystem.record = { event, site in recorder.add(event, site: site) }
        _ = try fixture.upgrader(keepBackup: scenario == .eventsFromWALWithBackup, fileSystem: fileSystem)
            .upgradeIfNeededSynchronously(storeAt: fixture.store)
        let recorded = recorder.recorded
        return Trace(
            fixture: fixture, events: recorded.events, beforeSwap: recorded.snapshot, swapEvents: recorded.swap,
            oldMain: oldMain, oldWAL: oldWAL)
    }

    private static func parent(_ path: String) -> String { (path as NSString).deletingLastPathComponent }

    @Test(
        "each rename's two directories are synced before the journal's next save and before their removal",
        arguments: Scenario.allCases)
    func renamesAreSyncedInBothDirectories(scenario: Scenario) throws {
        let events = try trace(scenario).events
        var renames = 0
        for (index, entry) in events.enumerated() {
            guard case .rename(let from, let to) = entry.event else { continue }
            renames += 1
            let rest = events[(index + 1)...]
            // By the journal's next save (which may vouch for the renamed file), and before
            // either directory is itself removed (a sync can't come later).
            let parents = [Self.parent(from), Self.parent(to)]
            let deadline =
                rest.firstIndex { next in
                    if next.site == "journal.write" { return true }
                    if case .unlink(let path) = next.event, parents.contains(path) { return true }
                    return false
                } ?? events.endIndex
            let synced = Set(
                events[(index + 1)..<deadline].compactMap { next -> String? in
                    if case .syncDirectory(let path) = next.event { return path }
                    return nil
                })
            #expect(
                synced.isSuperset(of: parents),
                "\(entry.site): \(from) → \(to) is followed by syncs of \(synced.sorted()) only")
        }
        #expect(renames >= 4)
    }

    @Test("outgoing/ is durable in the work directory before the store's -wal moves into it")
    func outgoingIsDurableBeforeTheWALMovesIn() throws {
        let trace = try trace(.eventsFromWALWithBackup)
        let events = trace.events
        let mkdir = try #require(events.firstIndex { $0.site == "swap.out.mkdir" })
        let walMove = try #require(events.firstIndex { $0.site == "swap.out.rename-wal" })
        #expect(
            events[mkdir..<walMove].contains { $0.event == .syncDirectory(trace.workDirectory) },
            "no sync of the work directory between the mkdir of outgoing/ and the -wal's rename")
    }

    @Test(
        "at every sync of the swap a power loss leaves the old store with its -wal, or the new store",
        arguments: Scenario.allCases)
    func everySwapCrashStateHoldsOneWholeStore(scenario: Scenario) throws {
        let trace = try trace(scenario)
        let initial = try #require(trace.beforeSwap)
        let newMain = [UInt8](try Data(contentsOf: trace.fixture.store))
        let outgoingWAL = trace.workDirectory + "/outgoing/Store.sqlite-wal"
        var model = CrashStateModel(root: Self.parent(trace.store), initial: initial, events: [])
        var syncPoints = 0
        for (index, event) in trace.swapEvents.enumerated() {
            model.append(event)
            guard case .syncDirectory = event else { continue }
            syncPoints += 1
            var states = [model.state()]
            for seed in 0..<8 {
                var random = SplitMix64(seed: UInt64(seed), "swap", index)
                states.append(model.state(random: &random))
            }
            for state in states {
                let main = state.files[trace.store]
                if main == newMain { continue }
                #expect(main == trace.oldMain, "sync \(index) (\(event)): the store's main file is neither old nor new")
                let wal = state.files[trace.store + "-wal"] ?? state.files[outgoingWAL]
                #expect(wal == trace.oldWAL, "sync \(index) (\(event)): the old store's -wal is gone or changed")
            }
        }
        #expect(syncPoints >= 5)
    }
}

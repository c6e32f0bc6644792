import Foundation
import GRDB
import Stepwise
import StepwiseStore
import StepwiseTestSupport

/// What every power-loss state must satisfy, written at the store's own path: before
/// recovery, the old store byte for byte (its `-wal` included) or the complete new one
/// (``CrashCheck``); after a fresh `upgradeIfNeeded`, the new store at Bench 3, whole
/// (`PRAGMA integrity_check`), every row of every table equal to the uninterrupted upgrade's
/// (``StoreDigest``).
struct PowerLossCheck {
    var crashCheck: CrashCheck
    /// The rows of the uninterrupted upgrade's result.
    var reference: StoreDigest

    /// How a state recovered: what the store held before, and what the recovery did.
    struct Outcome: Hashable {
        var before: CrashCheck.State
        var recovery: Recovery
    }

    enum Recovery: String, Hashable {
        /// The upgrade ran from the start (nothing in the work directory could be trusted, or none).
        case fresh = "upgraded from the start"
        /// It went on from the journal's checkpoints.
        case resumed = "resumed from checkpoints"
        /// Only the swap (or its cleanup) was left to finish.
        case finishedSwap = "finished the swap"
    }

    /// Writes `state` at its paths and checks it; throws what was wrong.
    func check(_ state: CrashState, root: URL, store: URL) throws -> Outcome {
        try state.write(at: root)
        try JournalIdentities.carryOver(workDirectory: StoreFiles(store: store).workDirectory, store: store)
        let found: CrashCheck.State
        do {
            found = try crashCheck.stateAfterKill(store)
        } catch {
            throw BenchError("before recovery: \(error)")
        }
        let events = EventLog()
        do {
            try crashCheck.recover(store) { events.add($0) }
        } catch {
            throw BenchError("recovery: \(error)")
        }
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        let integrity = try snapshot.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        guard integrity == ["ok"] else {
            throw BenchError("after recovery integrity_check says: \(integrity.prefix(5).joined(separator: "; "))")
        }
        let differences = try StoreDigest(of: store).differences(from: reference)
        guard differences.isEmpty else {
            throw BenchError(
                "after recovery the rows differ from the uninterrupted upgrade's: \(differences.joined(separator: "; "))"
            )
        }
        return Outcome(before: found, recovery: events.recovery)
    }
}

/// The events of one recovery, for ``PowerLossCheck/Recovery``.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var resumed = false
    private var planned = false

    func add(_ event: UpgradeEvent) {
        lock.withLock {
            switch event {
            case .resuming: resumed = true
            case .planned: planned = true
            default: break
            }
        }
    }

    var recovery: PowerLossCheck.Recovery {
        lock.withLock { resumed ? .resumed : planned ? .fresh : .finishedSwap }
    }
}

import Foundation
import Stepwise
import StepwiseTestSupport

/// What every power-loss state must satisfy, written at the store's own path: before
/// recovery, the old store byte for byte (its `-wal` included) or the complete new one
/// (``CrashCheck``); after a fresh `upgradeIfNeeded`, the new store at Bench 3, every row of
/// every table equal to the uninterrupted upgrade's (``StoreDigest``).
struct PowerLossCheck {
    var crashCheck: CrashCheck
    /// The rows of the uninterrupted upgrade's result.
    var reference: StoreDigest

    /// Writes `state` at its paths and checks it; throws what was wrong.
    func check(_ state: CrashState, root: URL, store: URL) throws -> CrashCheck.State {
        try state.write(at: root)
        try JournalIdentities.carryOver(workDirectory: StoreFiles(store: store).workDirectory, store: store)
        let found: CrashCheck.State
        do {
            found = try crashCheck.stateAfterKill(store)
        } catch {
            throw BenchError("before recovery: \(error)")
        }
        do {
            try crashCheck.recover(store)
        } catch {
            throw BenchError("recovery: \(error)")
        }
        let differences = try StoreDigest(of: store).differences(from: reference)
        guard differences.isEmpty else {
            throw BenchError("after recovery the rows differ from the uninterrupted upgrade's: \(differences.joined(separator: "; "))")
        }
        return found
    }
}

import Dispatch
import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// The damaged-store refusal: SQLite's `quick_check` (or `integrity_check` for
/// ``UpgradeOptions/Verification/full``) of what step 1 reads, before anything is swapped.
///
/// SQLite has no checksums. Without this a step reading a damaged store fails halfway, saying
/// "malformed" (or a mapping error on a garbled row) as if the mapping were at fault; where no
/// step reads the damage (an index, the free list) the upgrade goes on, and an in-place step
/// carries it into the new store, which then fails verification with a message asking for a
/// bug report. The check says what is wrong instead.
///
/// **When it runs.** On a copy (the store had rows in its `-wal`) it runs before the copy is
/// journaled, since a resume trusts a journaled copy without checking it again. On the
/// original itself (``ImmutableStore``) it runs on a thread of its own, alongside
/// identification, planning and step 1, which read the same pages: it then costs a spare core
/// rather than a whole read of the store at launch. That is as safe as checking first because
/// nothing is committed until it has answered: the run waits for it before journaling step 1
/// and on every way out of an error, and then reports the damage in preference to whatever
/// else failed (a step reading damaged pages fails for that reason). The original is only ever
/// read; a run that started from it never resumes (there is no copy to trust), so each run
/// checks it again.
final class IntegrityCheck: @unchecked Sendable {
    // @unchecked: `outcome` is written once by the check's thread before `group.leave()`, and
    // read only after `group.wait()`.
    private let group = DispatchGroup()
    private var outcome: Result<Void, any Error> = .success(())

    private init() {}

    /// Checks `input` now.
    static func run(on input: URL, isOriginal: Bool, full: Bool, storePath: String) throws {
        let problems: [String]
        do {
            let queue = try ReadOnlyStore.openQueue(at: input, immutable: isOriginal)
            defer { try? queue.close() }
            problems = try queue.read { db in try PageCheck.problems(in: db, full: full) }
        } catch {
            throw StoreError(path: storePath, wrapping: error)
        }
        guard problems.isEmpty else { throw damaged(problems, full: full, storePath: storePath) }
    }

    /// The damaged-store refusal for what `quick_check` or `integrity_check` found.
    static func damaged(_ problems: [String], full: Bool, storePath: String) -> StoreError {
        // SQLITE_CORRUPT: the error's description says the store is damaged and to restore it.
        StoreError(
            path: storePath,
            kind: .sqlite(
                code: 11, message: "\(PageCheck.pragma(full: full)) found: \(problems.joined(separator: "; "))"))
    }

    /// Starts checking the original on a thread of its own; ``wait()`` for the answer.
    static func start(onOriginal store: URL, full: Bool, storePath: String) -> IntegrityCheck {
        let check = IntegrityCheck()
        check.group.enter()
        // A thread of its own (``WorkerThread``): GCD's threads have 512 KB of stack on Apple platforms.
        WorkerThread.start("Stepwise integrity check") {
            do {
                try run(on: store, isOriginal: true, full: full, storePath: storePath)
            } catch {
                check.outcome = .failure(error)
            }
            check.group.leave()
        }
        return check
    }

    /// Waits for the check; throws its ``StoreError`` when the store is damaged or unreadable.
    func wait() throws {
        group.wait()
        try outcome.get()
    }
}

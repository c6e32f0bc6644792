import Dispatch
import Foundation
import StepwiseModel

extension UpgradeMatrix.Session {
    /// One pair's outcome from ``check(_:concurrency:onResult:)``.
    package struct Checked: Sendable {
        package var pair: UpgradeMatrix.Pair
        /// What was checked, or the ``UpgradeMatrixFailure``.
        package var result: Result<UpgradeMatrix.PairResult, any Error>
        /// Wall-clock time of the check, seeding its first version's store included when it did.
        package var seconds: Double
        /// The pair's place in the order pairs finished, from 1: what progress shows.
        package var finished = 0
    }

    /// Checks `pairs`, the pairs of one first version in order on one thread, and up to
    /// `concurrency` first versions at once; what `stepwise matrix` runs.
    ///
    /// The outcome of every pair is the one ``check(_:)`` gives it alone: pairs of different
    /// first versions share nothing but caches of plans and layouts (see ``UpgradeMatrix/Session``).
    /// With `concurrency` above 1 the checks run on threads of their own, which don't see the
    /// caller's task-local values; with 1 they run on the caller's thread.
    /// The first versions with the most pairs start first, so that the longest lane doesn't
    /// start last. Lanes allocate through SQLite at once, which counts every allocation under
    /// one global mutex unless the process turned its memory statistics off before opening
    /// any database, as `stepwise` does (`stepwise_sqlite_disable_memory_statistics`).
    ///
    /// - parameters:
    ///   - pairs: Pairs of the matrix, in the order each first version's pairs are checked
    ///     (``UpgradeMatrix/cases`` order shares the most).
    ///   - concurrency: Threads checking at once (each its own lane); the machine's active
    ///     cores by default. Each holds about one store's pages in memory.
    ///   - onResult: Called once per pair as it finishes, one call at a time (for progress).
    /// - returns: Each pair's outcome, in the order of `pairs`.
    package func check(
        _ pairs: [UpgradeMatrix.Pair], concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        onResult: @escaping @Sendable (Checked) -> Void = { _ in }
    ) -> [Checked] {
        var lanes: [[Int]] = []
        var laneOfVersion: [String: Int] = [:]
        for (index, pair) in pairs.enumerated() {
            if let lane = laneOfVersion[pair.from] {
                lanes[lane].append(index)
            } else {
                laneOfVersion[pair.from] = lanes.count
                lanes.append([index])
            }
        }
        // Longest first: a lane's pairs run in sequence, so the last one to start bounds the end.
        let queue = LaneQueue(lanes: lanes.sorted { $0.count > $1.count })
        let results = PairResults(count: pairs.count)
        let workers = max(1, min(concurrency, lanes.count))
        @Sendable func checkLanes() {
            while let lane = queue.next() {
                for index in lane {
                    let started = Date()
                    let result = Result { try self.check(pairs[index]) }
                    let checked = Checked(
                        pair: pairs[index], result: result, seconds: Date().timeIntervalSince(started))
                    results.record(index, checked, report: onResult)
                }
            }
        }
        // One at a time on the caller's thread, which keeps its task-local values.
        guard workers > 1 else {
            checkLanes()
            return results.values
        }
        // Threads of their own rather than `concurrentPerform`, which runs no more at once
        // than there are cores: an upgrade also waits on `fsync`, and `--jobs` means what it says.
        let finished = DispatchGroup()
        for _ in 0..<workers {
            finished.enter()
            // ``WorkerThread``'s explicit stack: Apple platforms' default 512 KB is tight for
            // SQLite's parser and deep Swift frames.
            WorkerThread.start("Stepwise matrix lane") {
                defer { finished.leave() }
                checkLanes()
            }
        }
        finished.wait()
        return results.values
    }
}

/// The lanes still to check, handed out one at a time to whichever thread asks.
///
/// `@unchecked Sendable`: `lanes` is only read and written with `lock` held.
private final class LaneQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var lanes: [[Int]]

    init(lanes: [[Int]]) {
        self.lanes = lanes.reversed()
    }

    func next() -> [Int]? {
        lock.withLock { lanes.popLast() }
    }
}

/// The results the threads fill, numbered as they finish, and the one-at-a-time calls to
/// `onResult`.
///
/// `@unchecked Sendable`: `slots` and `finished` are only read and written with `lock` held.
private final class PairResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [UpgradeMatrix.Session.Checked?]
    private var finished = 0

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// Numbers and stores a result, and reports it with the lock held, so that reports never
    /// interleave and come in the order of their numbers.
    func record(
        _ index: Int, _ checked: UpgradeMatrix.Session.Checked, report: (UpgradeMatrix.Session.Checked) -> Void
    ) {
        lock.withLock {
            finished += 1
            var numbered = checked
            numbered.finished = finished
            slots[index] = numbered
            report(numbered)
        }
    }

    /// Every slot, once every thread has returned.
    var values: [UpgradeMatrix.Session.Checked] {
        lock.withLock { slots.compactMap { $0 } }
    }
}

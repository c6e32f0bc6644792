import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `transform` of each element, run on as many cores as there are, with the results (or
    /// the errors) in the elements' order: a caller that reports the first error reports the
    /// same one as a loop would.
    ///
    /// For independent, CPU-bound work on a handful to a few hundred elements, such as reading
    /// the versions of a model bundle.
    package func concurrentMap<Value: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Value
    ) -> [Result<Value, any Error>] {
        let results = ResultSlots<Value>(count: count)
        let elements = self
        @Sendable func work() {
            while let index = results.claimNext() {
                results.set(index, Result { try transform(elements[index]) })
            }
        }
        // Threads of our own (``WorkerThread``), not `concurrentPerform`: GCD's worker threads
        // have 512 KB of stack on Apple platforms and can't be given more. The caller's thread
        // works too, so one element runs on it alone.
        let helpers = Swift.min(count, ProcessInfo.processInfo.activeProcessorCount) - 1
        let finished = DispatchGroup()
        for _ in 0..<Swift.max(0, helpers) {
            finished.enter()
            WorkerThread.start("Stepwise concurrentMap") {
                work()
                finished.leave()
            }
        }
        work()
        finished.wait()
        return results.values
    }
}

/// The slots `concurrentMap` fills from several threads.
///
/// `@unchecked Sendable`: `slots` and `next` are only read and written with `lock` held.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Value, any Error>?]
    private var next = 0

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// The next element no thread has taken yet; nil when every one is taken.
    func claimNext() -> Int? {
        lock.withLock {
            guard next < slots.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func set(_ index: Int, _ result: Result<Value, any Error>) {
        lock.withLock { slots[index] = result }
    }

    /// Every slot, once every thread has finished (together they fill each one).
    var values: [Result<Value, any Error>] {
        lock.withLock { slots.compactMap { $0 } }
    }
}

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
        DispatchQueue.concurrentPerform(iterations: count) { index in
            results.set(index, Result { try transform(elements[index]) })
        }
        return results.values
    }
}

/// The slots `concurrentMap` fills from several threads.
///
/// `@unchecked Sendable`: `slots` is only read and written with `lock` held.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Value, any Error>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<Value, any Error>) {
        lock.withLock { slots[index] = result }
    }

    /// Every slot, once `concurrentPerform` has returned (it fills each one).
    var values: [Result<Value, any Error>] {
        lock.withLock { slots.compactMap { $0 } }
    }
}

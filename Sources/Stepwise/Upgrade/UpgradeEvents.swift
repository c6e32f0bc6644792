import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// An upgrade's progress, as an asynchronous sequence: what
/// ``Upgrader/events(upgradingStoreAt:)`` returns.
///
/// Each iteration runs its own upgrade, which starts with the first `next()`: making the
/// sequence does nothing. The last element is always ``UpgradeEvent/finished(_:)``, unless the
/// upgrade throws. Stopping the iteration early, or cancelling the iterating task, cancels the
/// upgrade (`StepCancellation`), which leaves the store as it was.
public struct UpgradeEvents: AsyncSequence, Sendable {
    public typealias Element = UpgradeEvent

    let upgrader: Upgrader
    let store: URL

    public func makeAsyncIterator() -> AsyncThrowingStream<UpgradeEvent, any Error>.Iterator {
        let cancellation = StepCancellation()
        // The stream's closure runs now, when the iteration begins, and starts the upgrade.
        let stream = AsyncThrowingStream<UpgradeEvent, any Error> { continuation in
            var relaying = upgrader
            let callersProgress = upgrader.options.progress
            relaying.options.progress = { event in
                callersProgress?(event)
                continuation.yield(event)
            }
            // `.cancelled`: the consumer left the loop or its task was cancelled.
            continuation.onTermination = { termination in
                if case .cancelled = termination { cancellation.cancel() }
            }
            let upgrader = relaying
            let files = StoreFiles(store: store)
            // A thread of its own (``WorkerThread``), not the cooperative pool: the upgrade blocks on SQLite.
            WorkerThread.start("Stepwise upgrade") {
                do {
                    _ = try upgrader.perform(files, cancellation: cancellation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
        return stream.makeAsyncIterator()
    }
}

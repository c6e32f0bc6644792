import Foundation
import GRDB
import StepwiseModel

/// A flag that asks a running step to stop, checked at safe points: between mapping models
/// and entity mappings, and every ``rowInterval`` rows.
///
/// The async `Upgrader.upgradeIfNeeded(storeAt:)` sets it when its task is cancelled. A step
/// that sees it throws Swift's `CancellationError`, and its output is deleted like the output
/// of any failed step; the store it reads is never written, so a cancelled upgrade leaves the
/// store byte-identical.
///
/// While a long SQL statement runs (a set-based `INSERT … SELECT` over a whole table), the
/// step registers its connection with `interrupting(_:_:)`, so that ``cancel()`` also
/// interrupts the statement (`sqlite3_interrupt`) rather than waiting for it to finish.
package final class StepCancellation: @unchecked Sendable {
    // @unchecked: every stored property is guarded by `lock`. (`Mutex` needs iOS 18.)
    private let lock = NSLock()
    private var cancelled = false
    private var interrupts: [Int: @Sendable () -> Void] = [:]
    private var nextInterrupt = 0

    /// How many rows a row-by-row pass processes between two checks.
    package static let rowInterval = 256

    package init() {}

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { lock.withLock { cancelled } }

    /// Asks the step to stop at its next check, and interrupts the SQL statement running now.
    package func cancel() {
        let running = lock.withLock {
            cancelled = true
            return Array(interrupts.values)
        }
        for interrupt in running { interrupt() }
        // `sqlite3_interrupt` is a no-op when no statement runs at that instant, so a long
        // statement the step starts just after would run to its end. Keep interrupting every
        // 10 ms while a connection is registered: ``interrupting(_:_:)`` unregisters it as soon
        // as its body returns (cancelled, it throws), which ends the loop.
        if !running.isEmpty {
            WorkerThread.start("Stepwise cancellation") { [self] in keepInterrupting() }
        }
    }

    private func keepInterrupting() {
        while true {
            Thread.sleep(forTimeInterval: 0.01)
            let running = lock.withLock { Array(interrupts.values) }
            if running.isEmpty { return }
            for interrupt in running { interrupt() }
        }
    }

    /// Throws `CancellationError` if ``cancel()`` was called.
    package func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `body` with `writer` interruptible by ``cancel()``. Once cancelled, whatever `body`
    /// throws comes out as `CancellationError`: an interrupted statement fails with
    /// `SQLITE_INTERRUPT`, which a pass may already have wrapped in a ``MappingError``.
    package func interrupting<T>(_ writer: some DatabaseWriter, _ body: () throws -> T) throws -> T {
        let key = lock.withLock {
            nextInterrupt += 1
            interrupts[nextInterrupt] = { writer.interrupt() }
            return nextInterrupt
        }
        defer { _ = lock.withLock { interrupts.removeValue(forKey: key) } }
        try check()
        do {
            return try body()
        } catch  where isCancelled {
            throw CancellationError()
        }
    }
}

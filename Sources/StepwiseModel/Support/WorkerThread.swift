import Foundation

/// The threads Stepwise starts, each with an explicit stack size.
///
/// Stacks differ by platform: Linux gives a new thread 8 MB, Apple platforms give a secondary
/// thread (and every GCD worker thread, which can't be asked for more) 512 KB. So every thread
/// Stepwise starts is a `Thread` of its own with ``stackSize`` set, never GCD work: an upgrade
/// then runs with the stack it was tested with, on every platform.
///
/// The readers of outside input (property lists, keyed archives, compiled models,
/// expressions) don't rely on it: they may run on any thread of the app, so their depth
/// limits are sized to fit in 512 KB (`SmallStackReaderTests` runs them on such a thread).
package enum WorkerThread {
    /// 8 MB: the stack Linux gives every thread, which the test suites, the crash and
    /// power-loss runs and the benchmarks have always run the upgrade with. SQLite's parser
    /// and a step's deep frames need far less; the memory is reserved, not committed.
    package static let stackSize = 8 << 20

    /// Starts `body` on a new thread with ``stackSize``.
    ///
    /// - parameters:
    ///   - name: The thread's name, shown by debuggers and crash reports.
    ///   - qualityOfService: The thread's priority class (`.userInitiated` for work the app
    ///     waits for).
    package static func start(
        _ name: String, qualityOfService: QualityOfService = .userInitiated, _ body: @escaping @Sendable () -> Void
    ) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = stackSize
        thread.qualityOfService = qualityOfService
        thread.start()
    }
}

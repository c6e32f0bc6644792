import Foundation

/// Runs work on a thread with 512 KB of stack: what Apple platforms give a secondary thread
/// and every GCD worker thread, where Linux gives 8 MB. A reader that would exhaust an app's
/// thread crashes the test process here too.
package enum SmallStack {
    /// 512 KB, or `STEPWISE_SMALL_STACK_BYTES` when set: how the readers' depth limits were
    /// sized, by finding the smallest stack each deepest input still fits in.
    package static let bytes =
        ProcessInfo.processInfo.environment["STEPWISE_SMALL_STACK_BYTES"].flatMap { Int($0) } ?? 512 * 1024

    /// `body`'s result, computed on a new thread with ``bytes`` of stack.
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = bytes
            thread.start()
        }
    }
}

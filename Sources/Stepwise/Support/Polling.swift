import Foundation

/// The wait every lock and gate of an upgrade uses: try, and while the answer is "not yet",
/// sleep 20 ms and try again until the timeout, telling the caller about once a second (the
/// first time at once) so it can report who it waits for.
enum Polling {
    /// Returns `attempt`'s first non-nil answer.
    ///
    /// - parameters:
    ///   - timeout: How long to keep trying, in seconds.
    ///   - attempt: One try: a value when done, nil to try again; throwing stops the wait.
    ///   - waiting: Called when the wait starts and then about once a second.
    ///   - timedOut: The error thrown when `timeout` passes.
    static func poll<Value>(
        timeout: Double, attempt: () throws -> Value?, waiting: () -> Void, timedOut: () -> any Error
    ) throws -> Value {
        let deadline = Date().addingTimeInterval(timeout)
        var nextReport = Date()
        while true {
            if let value = try attempt() { return value }
            guard Date() < deadline else { throw timedOut() }
            if Date() >= nextReport {
                waiting()
                nextReport = Date().addingTimeInterval(1)
            }
            usleep(20_000)
        }
    }
}

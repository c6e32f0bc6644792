import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `crash-upgrade` child process and the phases it has announced, with their times.
final class CrashChild: @unchecked Sendable {
    // @unchecked: `seen` is guarded by `lock`; the reader thread appends, the driver reads.
    private let process = Process()
    private let lock = NSLock()
    private var seen: [(phase: CrashPhase, at: Date)] = []
    private let started = Date()

    /// - parameter external: Upgrade a ``CrashExternalData`` store instead of a Bench one.
    init(store: URL, external: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = ["crash-upgrade", "--store", store.path] + (external ? ["--external"] : [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = ""
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                buffer += String(decoding: data, as: UTF8.self)
                while let newline = buffer.firstIndex(of: "\n") {
                    let line = String(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    if line.hasPrefix("phase "), let phase = CrashPhase(rawValue: String(line.dropFirst(6))) {
                        lock.withLock { seen.append((phase, Date())) }
                    }
                }
            }
        }
    }

    /// The phases announced so far, with seconds since the child started.
    var phases: [(phase: CrashPhase, seconds: Double)] {
        lock.withLock { seen.map { ($0.phase, $0.at.timeIntervalSince(started)) } }
    }

    /// The phase the child is in now (the last announced).
    var currentPhase: CrashPhase? { lock.withLock { seen.last?.phase } }

    /// Waits until `phase` (or a later one) is announced or the child exits; false on timeout.
    func wait(for phase: CrashPhase, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let order = CrashPhase.allCases
        let wanted = order.firstIndex(of: phase) ?? 0
        while Date() < deadline {
            if let current = currentPhase, let index = order.firstIndex(of: current), index >= wanted { return true }
            if !process.isRunning { return false }
            usleep(500)
        }
        return false
    }

    /// SIGKILL: no cleanup, no flush, exactly what a crash or the OS killing an app does.
    func kill() {
        if process.isRunning { sendSIGKILL(process.processIdentifier) }
        process.waitUntilExit()
    }

    /// Waits for a normal exit and returns its status.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// `kill(pid, SIGKILL)`, outside the class whose method is also named `kill`.
private func sendSIGKILL(_ pid: Int32) {
    _ = kill(pid, SIGKILL)
}

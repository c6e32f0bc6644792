import Foundation
import StepwiseMatrix

// `Process` exists on macOS and Linux only: built for iOS, the tests that link
// StepwiseTestSupport build without the CLI runners.
#if os(macOS) || os(Linux)

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A `stepwise` process started by ``CommandRunner/start(_:environment:)``.
    ///
    /// Its output goes to files rather than pipes, so it can never block on a full pipe while
    /// the test waits for something else, and the test can read standard error while it runs.
    package final class RunningCommand {
        private let process = Process()
        private let directory: TemporaryDirectory
        private let outputFile: URL
        private let errorFile: URL
        private let handles: [FileHandle]

        init(executable: URL, arguments: [String], environment: [String: String]?) throws {
            directory = try TemporaryDirectory(prefix: "stepwise-run")
            outputFile = directory.path("stdout")
            errorFile = directory.path("stderr")
            var handles: [FileHandle] = []
            for file in [outputFile, errorFile] {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
                handles.append(try FileHandle(forWritingTo: file))
            }
            self.handles = handles
            process.executableURL = executable
            process.arguments = arguments
            if let environment { process.environment = environment }
            process.standardOutput = handles[0]
            process.standardError = handles[1]
            try process.run()
        }

        /// What the process has written to standard error so far.
        package var standardErrorSoFar: String {
            String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
        }

        /// Waits until standard error contains `text`, polling every 20 ms; false if the process
        /// exits or `timeout` seconds pass first.
        package func waitForStandardError(containing text: String, timeout: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if standardErrorSoFar.contains(text) { return true }
                if !process.isRunning { return standardErrorSoFar.contains(text) }
                usleep(20_000)
            }
            return false
        }

        /// Kills the process with `SIGKILL`, as a crash or a power cut would stop it: no handler
        /// runs, nothing is cleaned up.
        package func kill() {
            guard process.isRunning else { return }
            _ = Foundation.kill(process.processIdentifier, SIGKILL)
        }

        /// Waits for the process to exit and returns what it printed. Call it once.
        package func wait() throws -> CommandRunner.Result {
            process.waitUntilExit()
            for handle in handles { try handle.close() }
            return CommandRunner.Result(
                status: process.terminationStatus,
                standardOutput: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
                standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
        }
    }
#endif

import Foundation

// `Process` exists on macOS and Linux only: built for iOS, the tests that link
// StepwiseTestSupport build without the CLI runners.
#if os(macOS) || os(Linux)

    /// Runs a built executable (`stepwise` unless told otherwise) and captures what it prints,
    /// for CLI tests.
    ///
    /// The executable is found beside the test bundle (`.build/<configuration>/stepwise`),
    /// which `swift test` builds because the CLI test target depends on it.
    package struct CommandRunner: Sendable {
        /// What a run printed and returned.
        package struct Result: Sendable {
            package var status: Int32
            package var standardOutput: String
            package var standardError: String

            /// Standard output parsed as a JSON object.
            package func json() throws -> [String: Any] {
                guard
                    let object = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any]
                else {
                    throw CommandRunnerError.notJSONObject(standardOutput)
                }
                return object
            }
        }

        /// The executable's location.
        package var executable: URL

        /// Finds `executable` (a product or executable target's name, `stepwise` by default)
        /// beside the running test bundle.
        package init(executable name: String = "stepwise") throws {
            var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            // On macOS the test binary sits inside a .xctest bundle: climb out of it.
            while directory.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
                directory = directory.deletingLastPathComponent()
            }
            let candidate = directory.appendingPathComponent(name)
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
                throw CommandRunnerError.executableNotFound(candidate.path)
            }
            executable = candidate
        }

        /// Runs the executable with `arguments` and waits for it.
        package func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            if let environment { process.environment = environment }
            let output = Pipe()
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            // Read both pipes before waiting so a large output can't fill a pipe and block the child.
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Result(
                status: process.terminationStatus,
                standardOutput: String(decoding: outputData, as: UTF8.self),
                standardError: String(decoding: errorData, as: UTF8.self))
        }
    }

    extension CommandRunner {
        /// Starts the executable with `arguments` and returns at once: for tests that interrupt a
        /// run, or race several. Call ``RunningCommand/wait()`` for its result.
        package func start(_ arguments: [String], environment: [String: String]? = nil) throws -> RunningCommand {
            try RunningCommand(executable: executable, arguments: arguments, environment: environment)
        }

        /// Starts one process per argument list, all of them before waiting for any,
        /// and returns their results in the same order: for tests of processes racing on one store.
        package func runConcurrently(_ argumentLists: [[String]], environment: [String: String]? = nil) throws
            -> [Result]
        {
            let running = try argumentLists.map { try start($0, environment: environment) }
            return try running.map { try $0.wait() }
        }
    }

    package enum CommandRunnerError: Error, CustomStringConvertible {
        case executableNotFound(String)
        case notJSONObject(String)

        package var description: String {
            switch self {
            case .executableNotFound(let path): "no executable at \(path); run `swift build` first"
            case .notJSONObject(let text): "standard output is not a JSON object: \(text.prefix(200))"
            }
        }
    }
#endif

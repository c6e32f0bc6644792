import Foundation

/// The `sqlite3` command-line shell, which the SQL baselines run: the tool a developer
/// would reach for to do the same job by hand.
enum SQLiteShell {
    /// The shell's path, or nil when it isn't installed.
    static var path: String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/sqlite3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `script` on the database at `database` with `-bail`, so the first error stops it
    /// and fails the run.
    static func run(_ script: String, on database: URL) throws {
        guard let path else { throw BenchError("the sqlite3 shell is missing: install Debian package sqlite3") }
        // `-init /dev/null`: no ~/.sqliterc may change what the script does.
        try Subprocess.run(path, ["-init", "/dev/null", "-bail", database.path], input: Data(script.utf8))
    }
}

/// Runs a program to completion; stdout is returned, stderr passes through.
enum Subprocess {
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe }
        try process.run()
        if let input, let inputPipe {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let name = URL(fileURLWithPath: executable).lastPathComponent
            throw BenchError("\(name) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return data
    }
}

import Foundation
import StepwiseMatrix
import StepwiseTestSupport
import StepwiseTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The matrix leaves no temporary folder behind (issue 45): not when it passes, and not when
/// it is killed mid-run, whose folders the next matrix removes (`AbandonedWorkFolders`).
@Suite("stepwise matrix leaves no temporary folders")
struct MatrixLeftoversTests {
    let runner: CommandRunner
    let directory: TemporaryDirectory
    /// The children's temporary directory (`TMPDIR`), to count what they leave.
    let temporary: URL

    init() throws {
        runner = try CommandRunner.testTool()
        directory = try TemporaryDirectory()
        _ = try SampleHistories.write(to: directory.url)
        temporary = directory.path("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("stepwise-matrix") }
    }

    @Test func aNameCarriesItsProcess() {
        let name = AbandonedWorkFolders.name(prefix: "stepwise-matrix")
        #expect(AbandonedWorkFolders.owner(of: name, prefix: "stepwise-matrix") == getpid())
        #expect(AbandonedWorkFolders.owner(of: "stepwise-matrix-pair-p12-X", prefix: "stepwise-matrix") == nil)
        #expect(AbandonedWorkFolders.owner(of: "stepwise-matrix-pair-p12-X", prefix: "stepwise-matrix-pair") == 12)
        #expect(AbandonedWorkFolders.owner(of: "stepwise-matrix-E4F1", prefix: "stepwise-matrix") == nil)
    }

    @Test func aKilledMatrixsFoldersGoWithTheNextMatrix() throws {
        // A matrix killed once its session folder exists.
        let process = Process()
        process.executableURL = runner.executable
        process.arguments = ["matrix", "--models", directory.path("Recipes.xcdatamodeld").path, "--rows", "40"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while try leftovers().isEmpty, process.isRunning, Date() < deadline { usleep(5_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try !leftovers().isEmpty, "the matrix ended before it made its folder")

        // The next matrix, which passes, removes them and leaves none of its own.
        let next = try runner.run(
            ["matrix", "--models", directory.path("Recipes.xcdatamodeld").path, "--rows", "4"], environment: environment
        )
        #expect(next.status == 0, "\(next.standardError)")
        #expect(try leftovers() == [])
    }
}

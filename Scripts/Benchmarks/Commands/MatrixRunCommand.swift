import ArgumentParser
import Foundation
import StepwiseTesting

/// `stepwise-bench bench-matrix`: one side of the `matrix` scenario, once, in its own process
/// (its own `VmHWM`); prints a ``MatrixRunResult`` as JSON. `stepwise-bench bench` runs it.
struct MatrixRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-matrix",
        abstract: "Run one side of Scripts/bench's matrix scenario once and print its time, memory and facts as JSON.")

    @Option(help: "stepwise or baseline.")
    var side: BenchRunCommand.Side

    @Option(help: "The model bundle whose matrix runs.")
    var bundle: String

    @Option(help: "Rows per entity of each seeded store.")
    var rows: Int

    @Option(help: "An empty folder the baseline writes its stores in.")
    var folder: String

    func run() throws {
        let bundleURL = URL(fileURLWithPath: bundle)
        let clock = ContinuousClock()
        let started = clock.now
        let facts: [String: Int]
        switch side {
        case .stepwise: facts = try Self.runMatrix(bundle: bundleURL, rows: rows)
        case .baseline:
            facts = ["pairs": try MatrixBaseline.run(bundle: bundleURL, rows: rows, in: URL(fileURLWithPath: folder))]
        }
        let elapsed = started.duration(to: clock.now)
        let result = MatrixRunResult(
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
            peakRSSKilobytes: ResidentMemory.now().peakKilobytes, facts: facts)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        print(String(decoding: try encoder.encode(result), as: UTF8.self))
    }

    /// What `stepwise matrix --models BUNDLE --rows N` does, without the table: every pair
    /// checked, in order. Returns the pairs checked and the values compared; a failing pair
    /// stops the bench (a fast wrong result can't pass).
    static func runMatrix(bundle: URL, rows: Int) throws -> [String: Int] {
        let matrix = try UpgradeMatrix(bundleAt: bundle)
        let session = try matrix.session(rows: RowCounts(default: rows))
        let total = matrix.cases.count
        let results = session.check(matrix.cases) { checked in
            if checked.finished % 11 == 0 { BenchLog.note("matrix: \(checked.finished)/\(total) pairs") }
        }
        var values = 0
        for checked in results {
            do {
                values += try checked.result.get().valuesCompared
            } catch {
                throw BenchError("matrix: \(checked.pair) failed: \(error)")
            }
        }
        return ["pairs": matrix.cases.count, "unreachable": matrix.unreachable.count, "values compared": values]
    }
}

/// What one `bench-matrix` run measured.
struct MatrixRunResult: Codable {
    var seconds: Double
    var peakRSSKilobytes: Int?
    var facts: [String: Int]

    var peakRSSMegabytes: Double? { peakRSSKilobytes.map { Double($0) / 1024 } }
}

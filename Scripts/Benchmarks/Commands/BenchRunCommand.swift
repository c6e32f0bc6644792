import ArgumentParser
import Foundation

/// `stepwise-bench bench-run`: one side of one scenario, once, in its own process; prints a
/// ``ChildRunResult`` as JSON. `stepwise-bench bench` (behind `Scripts/bench`) runs it.
///
/// Only the side's work is timed: the store was put in place by the parent, and the facts are
/// read after the clock stops. The peak resident memory is this process's `VmHWM`, read when
/// the work is done; the disk peak is sampled in the store's folder, which holds nothing else.
struct BenchRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-run",
        abstract: "Run one side of a Scripts/bench scenario once and print its time, memory, disk and facts as JSON.")

    enum Side: String, ExpressibleByArgument, CaseIterable {
        case stepwise, baseline
    }

    @Argument(help: "lightweight, chain, large, custom, relink or explicit.")
    var scenario: ScenarioName

    @Option(help: "stepwise or baseline.")
    var side: Side

    @Option(help: "The store to upgrade, alone in its folder (for the baseline, it may not exist yet).")
    var store: String

    @Option(help: "The cached seed store.")
    var seed: String

    func run() throws {
        guard let child = scenario.child else { throw ValidationError("\(scenario) has no bench-run side.") }
        let storeURL = URL(fileURLWithPath: store)
        let sampler = DiskSampler(folder: storeURL.deletingLastPathComponent())
        let initialBytes = sampler.start()
        let writtenBefore = StepWrites.now()
        let clock = ContinuousClock()
        let started = clock.now
        let steps: [String]
        switch side {
        case .stepwise: steps = try child.runStepwise(store: storeURL)
        case .baseline: steps = try child.runBaseline(store: storeURL, seed: URL(fileURLWithPath: seed))
        }
        let elapsed = started.duration(to: clock.now)
        let peakBytes = sampler.stop()
        let writtenAfter = StepWrites.now()
        let writtenBytes = writtenBefore.flatMap { before in writtenAfter.map { $0 - before } }
        let peakKilobytes = ResidentMemory.now().peakKilobytes
        let upgradedBytes = (try? FileManager.default.attributesOfItem(atPath: storeURL.path)[.size] as? Int64) ?? nil
        let result = ChildRunResult(
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
            peakRSSKilobytes: peakKilobytes, storeBytes: initialBytes, peakExtraBytes: peakBytes - initialBytes,
            facts: try child.facts.read(storeURL), steps: steps, writtenBytes: writtenBytes,
            upgradedBytes: upgradedBytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        print(String(decoding: try encoder.encode(result), as: UTF8.self))
    }
}

/// What one `bench-run` measured.
struct ChildRunResult: Codable {
    var seconds: Double
    var peakRSSKilobytes: Int?
    /// The store folder's size before the run (0 when the side copies the seed itself).
    var storeBytes: Int64
    /// The folder's peak size during the run, minus ``storeBytes``.
    var peakExtraBytes: Int64
    var facts: [String: Int]
    /// The Stepwise steps that ran ("A → B (inferred, in place)"), empty for a baseline.
    var steps: [String]
    /// Bytes the run wrote to storage (`write_bytes` of `/proc/self/io`), nil where unknown.
    var writtenBytes: Int64?
    /// The store's main file when the run is done (the upgraded store), nil where unknown.
    var upgradedBytes: Int64?

    var peakRSSMegabytes: Double? { peakRSSKilobytes.map { Double($0) / 1024 } }

    /// Peak extra disk ÷ store size, nil when the folder started empty.
    var extraDiskRatio: Double? { storeBytes > 0 ? Double(peakExtraBytes) / Double(storeBytes) : nil }
}

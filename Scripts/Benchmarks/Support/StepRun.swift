import Foundation
import StepwiseMapping
import StepwiseModel

/// One measured run of the step Bench → Bench 2.
struct StepRun {
    enum Path: String {
        /// `ItemToItem` has a policy: every row goes through Swift.
        case rowByRow = "row-by-row"
        /// The inferred mapping: `INSERT … SELECT` statements.
        case setBased = "set-based"
    }

    var rows: Int
    var source: URL
    var path: Path
    var keep: Bool

    func run() throws {
        let destination = source.deletingLastPathComponent()
            .appendingPathComponent("bench-v2-\(rows)-\(path.rawValue).sqlite")
        BenchStore.removeStoreFiles(at: destination)
        let step: MigrationStep
        switch path {
        case .rowByRow:
            step = MigrationStep(
                from: BenchModel.version1, to: BenchModel.version2, mappingModels: [try BenchModel.policyMapping()],
                policies: BenchModel.policies)
        case .setBased:
            // The inferred mapping, marked explicit: an inferred step this simple would alter
            // the source in place (ALTER TABLE), which measures something else entirely.
            var mapping = try MappingInference.inferMapping(from: BenchModel.version1, to: BenchModel.version2)
            mapping.isInferred = false
            step = MigrationStep(from: BenchModel.version1, to: BenchModel.version2, mappingModels: [mapping])
        }
        let before = ResidentMemory.now()
        let started = Date()
        let report = try step.run(source: source, destination: destination)
        let seconds = Date().timeIntervalSince(started)
        let after = ResidentMemory.now()
        if !keep { BenchStore.removeStoreFiles(at: destination) }

        let rate = Int((Double(rows) / max(seconds, 1e-9)).rounded())
        print("\(path.rawValue) step \(report.from) → \(report.to) (\(report.kind) mapping)")
        print("  rows:      \(rows) items (+\(BenchModel.tagCount) tags)")
        print("  seconds:   \(String(format: "%.2f", seconds))")
        print("  rows/s:    \(rate)")
        print(
            "  peak RSS:  \(ResidentMemory.megabytes(before.peakKilobytes)) before the step, "
                + "\(ResidentMemory.megabytes(after.peakKilobytes)) after (VmHWM); "
                + "now \(ResidentMemory.megabytes(after.currentKilobytes))")
        for mapping in report.entityMappings {
            let how = mapping.setBased ? "set-based SQL" : "row by row"
            print("  \(mapping.name): \(mapping.instances) instances, \(mapping.links) links (\(how))")
        }
        if keep { print("  kept:      \(destination.path)") }
        let fields = [
            "path=\(path.rawValue)", "rows=\(rows)", "seconds=\(String(format: "%.3f", seconds))",
            "rows_per_second=\(rate)", "peak_kb_before=\(before.peakKilobytes ?? 0)",
            "peak_kb=\(after.peakKilobytes ?? 0)",
        ]
        print("result " + fields.joined(separator: " "))
    }
}

import Foundation
import StepwiseMapping
import StepwiseModel

/// The inferred mapping of each pair of versions, worked out the first time a planner asks and
/// kept: a history of 90 versions has 89 consecutive pairs, and every plan, history check and
/// matrix pair would otherwise infer them all again.
///
/// Kept by the two versions' names, and used only for the very models it was inferred from: a
/// planner given another model under a known name (a store's own cached model) infers afresh.
///
/// `@unchecked Sendable`: `results` is only read and written with `lock` held. `NSLock` rather
/// than `Mutex` (macOS 15) because the package supports macOS 13.
final class InferredMappings: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [MappingDirectory.StepKey: Inference] = [:]
    private var compositions: [[String]: Composition] = [:]
    private var plannedDrops: [String: PlannedDrops] = [:]

    /// A step's drops, with what they were worked out from (checked on reuse, as a pair's).
    private struct PlannedDrops {
        var step: PlannedStep
        var drops: [DroppedData]
    }

    /// What `step`'s mappings drop (``/StepwiseMapping/DroppedData/planned(by:from:to:)``), once
    /// per step: the planner weighs every edge's drops for every plan (``UpgradePlanner/PathCost``),
    /// and a matrix plans every pair of versions.
    func drops(of step: PlannedStep) -> [DroppedData] {
        let key = "\(step.from)\u{1F}\(step.to)\u{1F}\(step.kind)"
        if let known = lock.withLock({ plannedDrops[key] }), known.step.source == step.source,
            known.step.destination == step.destination, known.step.mappingModels == step.mappingModels
        {
            return known.drops
        }
        let drops = DroppedData.planned(by: step.mappingModels, from: step.source, to: step.destination)
        lock.withLock { plannedDrops[key] = PlannedDrops(step: step, drops: drops) }
        return drops
    }

    /// A run's composed mapping, with the models at its ends (checked on reuse, as a pair's).
    private struct Composition {
        var source: ObjectModel
        var destination: ObjectModel
        var mapping: MappingModel?
    }

    private struct Inference {
        var source: ObjectModel
        var destination: ObjectModel
        var result: Result<MappingModel, MappingError>
    }

    /// ``/StepwiseMapping/MappingInference/inferMapping(from:to:)``, once per pair.
    func inferMapping(from source: ObjectModel, to destination: ObjectModel) throws(MappingError) -> MappingModel {
        let key = MappingDirectory.StepKey(source.name, destination.name)
        // Copies of one model share their storage, so this comparison is quick when it holds.
        if let known = lock.withLock({ results[key] }), known.source == source, known.destination == destination {
            return try known.result.get()
        }
        // Inferred outside the lock: two threads may both infer a pair, and get the same mapping.
        let result = Result { () throws(MappingError) -> MappingModel in
            try MappingInference.inferMapping(from: source, to: destination)
        }
        lock.withLock { results[key] = Inference(source: source, destination: destination, result: result) }
        return try result.get()
    }

    /// The one inferred mapping doing a run of consecutive inferred steps (`versions`, first to
    /// last, by name), composed once per run: ``UpgradePlanner/merging(_:_:)`` composes the
    /// same runs for every plan that passes them, and composing re-checks both mappings against
    /// three models. `compose` makes it; nil when composition refuses, kept as such.
    func composedMapping(
        through versions: [String], from source: ObjectModel, to destination: ObjectModel,
        _ compose: () -> MappingModel?
    ) -> MappingModel? {
        if let known = lock.withLock({ compositions[versions] }), known.source == source,
            known.destination == destination
        {
            return known.mapping
        }
        // Composed outside the lock, like an inference.
        let mapping = compose()
        lock.withLock {
            compositions[versions] = Composition(source: source, destination: destination, mapping: mapping)
        }
        return mapping
    }

    /// How many pairs have been inferred and kept.
    var count: Int { lock.withLock { results.count } }
}

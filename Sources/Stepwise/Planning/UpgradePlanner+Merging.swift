import StepwiseMapping

extension UpgradePlanner {
    /// The steps with each maximal run of consecutive inferred steps merged into as few
    /// passes as exact composition allows.
    ///
    /// Merging folds left: the run so far is composed with the next inferred step; when
    /// ``MappingComposition`` refuses, or the one pass would drop something the two steps
    /// don't (``dropsNothingMore(_:than:_:)``), the run so far is kept as one step and the next
    /// one starts a new run. Explicit steps, and the steps of ``stepsKeptApart``, are never
    /// merged and break runs.
    func mergingInferredSteps(_ steps: [PlannedStep]) -> [PlannedStep] {
        var merged: [PlannedStep] = []
        for step in steps {
            if let last = merged.last, let combined = merging(last, step) {
                merged[merged.count - 1] = combined
            } else {
                merged.append(step)
            }
        }
        return merged
    }

    /// One inferred step doing `first` then `second`, or nil when they don't compose exactly.
    func merging(_ first: PlannedStep, _ second: PlannedStep) -> PlannedStep? {
        guard first.kind == .inferred, second.kind == .inferred, first.to == second.from,
            !stepsKeptApart.contains(MappingDirectory.StepKey(first.from, first.to)),
            !stepsKeptApart.contains(MappingDirectory.StepKey(second.from, second.to)),
            first.mappingModels.count == 1, second.mappingModels.count == 1,
            let composed = inferences.composedMapping(
                through: [first.from] + first.via + [first.to] + second.via + [second.to], from: first.source,
                to: second.destination,
                {
                    try? MappingComposition.compose(
                        first.mappingModels[0], second.mappingModels[0], source: first.source,
                        intermediate: first.destination, destination: second.destination)
                })
        else { return nil }
        let merged = PlannedStep(
            from: first.source, to: second.destination, kind: .inferred, mappingModels: [composed],
            via: first.via + [first.to] + second.via)
        // Checked on every merge, the kept composition included: it is what runs.
        return Self.dropsNothingMore(merged, than: first, second) ? merged : nil
    }

    /// Whether `merged` drops nothing that `first` then `second` keep: each of its drops is one
    /// of `first`'s, or one of `second`'s traced back through `first`
    /// (``UpgradePlan/trace(_:back:)``).
    ///
    /// Composition is built to be exact, so this holds for every mapping it makes; it is checked
    /// all the same because the path was chosen for what its steps drop (``PathCost``), and
    /// merging must not turn a path that keeps everything into one pass that doesn't.
    static func dropsNothingMore(_ merged: PlannedStep, than first: PlannedStep, _ second: PlannedStep) -> Bool {
        let mergedDrops = drops(of: merged)
        guard !mergedDrops.isEmpty else { return true }
        let stepDrops = drops(of: first) + drops(of: second).compactMap { UpgradePlan.trace($0, back: [first][...]) }
        return mergedDrops.allSatisfy { drops(stepDrops, cover: $0) }
    }
}

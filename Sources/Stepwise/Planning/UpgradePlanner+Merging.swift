import StepwiseMapping

extension UpgradePlanner {
    /// The steps with each maximal run of consecutive inferred steps merged into as few
    /// passes as exact composition allows.
    ///
    /// Merging folds left: the run so far is composed with the next inferred step; when
    /// ``MappingComposition`` refuses, the run so far is kept as one step and the next one
    /// starts a new run. Explicit steps, and the steps of ``stepsKeptApart``, are never
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
        return PlannedStep(
            from: first.source, to: second.destination, kind: .inferred, mappingModels: [composed],
            via: first.via + [first.to] + second.via)
    }
}

import StepwiseMapping

extension UpgradePlanner {
    /// The steps with each maximal run of consecutive inferred steps merged into as few
    /// passes as exact composition allows.
    ///
    /// Merging folds left: the run so far is composed with the next inferred step; when
    /// ``MappingComposition`` refuses, the run so far is kept as one step and the next one
    /// starts a new run. Explicit steps, and the steps of ``stepsKeptApart``, are never
    /// merged and break runs.
    func mergingInferredSteps(_ steps: [UpgradePlan.Step]) -> [UpgradePlan.Step] {
        var merged: [UpgradePlan.Step] = []
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
    func merging(_ first: UpgradePlan.Step, _ second: UpgradePlan.Step) -> UpgradePlan.Step? {
        guard first.kind == .inferred, second.kind == .inferred, first.to == second.from,
            !stepsKeptApart.contains(MappingDirectory.StepKey(first.from, first.to)),
            !stepsKeptApart.contains(MappingDirectory.StepKey(second.from, second.to)),
            first.mappingModels.count == 1, second.mappingModels.count == 1,
            let source = version(named: first.from),
            let intermediate = version(named: first.to),
            let destination = version(named: second.to),
            let composed = try? MappingComposition.compose(
                first.mappingModels[0], second.mappingModels[0], source: source, intermediate: intermediate,
                destination: destination)
        else { return nil }
        return UpgradePlan.Step(
            from: first.from, to: second.to, kind: .inferred, mappingModels: [composed],
            via: first.via + [first.to] + second.via)
    }
}

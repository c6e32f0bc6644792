import StepwiseMapping
import StepwiseModel

/// Plans the path from a store's version to a target version through a graph of steps.
///
/// The graph has an edge for every explicit mapping (mapping files or code, in any direction,
/// including a downgrade a team chose to support) and an inferred edge between each pair of
/// consecutive versions whose mapping can be inferred. The plan is the path that drops the
/// least, then has the fewest explicit (heavyweight) steps, then the fewest steps
/// (``PathCost``): a path that drops nothing always wins over one that drops something, however
/// much shorter or lighter that one is. What a step drops is what its mapping names before it
/// runs (``/StepwiseMapping/DroppedData/planned(by:from:to:)``): an entity no mapping carries, a
/// property an inferred mapping doesn't read.
///
/// Once the path is chosen, each run of consecutive inferred steps is merged into as few
/// passes as exact composition allows (``/StepwiseMapping/MappingComposition``), as Core Data's lightweight
/// migration does: a chain of renames `a → b → c` becomes one step `a → c` that records
/// `b` in ``PlannedStep/via``. Merging folds left: a step whose mapping can't be composed
/// with the run so far, or whose one pass would drop what the steps keep, starts a new run.
///
/// A store matched by its own model cache (``modelCache``) adds edges from the cached model:
/// straight to the target, inferred, as Core Data's fallback does, and to the version of the
/// history it differs least from, where it joins the history's own steps (``ModelCacheJoin``
/// says why the second exists, and which the plan took).
///
/// A version edited after it shipped adds one more edge: from its shipped model
/// (``shipped``, `"Recipes 2 (as shipped)"`) to the edited version, explicit when a mapping
/// names that pair, else inferred.
///
/// ```swift
/// let mappings = try MappingDirectory(contentsOf: mappingsURL, history: bundle.history)
/// let plan = try UpgradePlanner(history: bundle.history, mappings: mappings.steps)
///     .plan(from: "Recipes", to: "Recipes 4")
/// plan.steps.map { "\($0.from) → \($0.to) (\($0.kind))" }
/// ```
package struct UpgradePlanner: Sendable {
    package var history: VersionHistory
    /// Explicit mapping models by step.
    package var mappings: [MappingDirectory.StepKey: [MappingModel]]
    /// Whether consecutive inferred steps are merged into one pass where their mappings
    /// compose exactly. Turn it off to see, test or debug every step on its own.
    package var mergesInferredSteps: Bool
    /// Steps that are never merged with their neighbours, such as steps with a
    /// `MigrationStage`, whose `willMigrate` and `didMigrate` expect that step's two versions.
    package var stepsKeptApart: Set<MappingDirectory.StepKey>
    /// The shipped models of versions edited since they shipped, each named
    /// `"<Version> (as shipped)"` (``/StepwiseModel/ShippedVersion/asShippedVersions(_:in:)``).
    package var shipped: [ObjectModel]
    /// The model in the store's own cache, when the store was matched by it
    /// (``StoreIdentification/MatchKind/modelCache``): a plan from it starts with an inferred
    /// step, to the target (as Core Data infers a mapping from a store's cached model) or to the
    /// version it differs least from (``modelCacheEdges(from:to:)``).
    package var modelCache: ObjectModel?
    /// The inferred mappings worked out so far; shared with the ``ModelHistory`` the planner
    /// came from, so each pair is inferred once.
    var inferences = InferredMappings()

    /// A planner over a history and its explicit mappings.
    ///
    /// - parameters:
    ///   - history: The model versions, oldest first.
    ///   - mappings: Explicit mapping models by step (``/StepwiseMapping/MappingDirectory/steps``); the steps
    ///     between consecutive versions they leave out are inferred when they can be.
    ///   - mergesInferredSteps: Whether runs of consecutive inferred steps are merged into
    ///     one pass where their mappings compose exactly (the default).
    ///   - stepsKeptApart: Steps that always run on their own, even when inferred (none by
    ///     default). Give the steps that have a `MigrationStage`.
    ///   - shipped: The shipped models of versions edited since (none by default): plans may
    ///     start from them.
    package init(
        history: VersionHistory, mappings: [MappingDirectory.StepKey: [MappingModel]] = [:],
        mergesInferredSteps: Bool = true, stepsKeptApart: Set<MappingDirectory.StepKey> = [],
        shipped: [ObjectModel] = []
    ) {
        self.history = history
        self.shipped = shipped
        self.mappings = mappings
        self.mergesInferredSteps = mergesInferredSteps
        self.stepsKeptApart = stepsKeptApart
    }

    /// This planner, planning from the store's own cached model when one is given (``modelCache``).
    func startingFrom(modelCache: ObjectModel?) -> UpgradePlanner {
        var planner = self
        planner.modelCache = modelCache
        return planner
    }

    /// The plan from `from` to `to`, or an ``UpgradeError``.
    package func plan(from: String, to: String) throws -> UpgradePlan {
        for name in [from, to] where version(named: name) == nil {
            throw UpgradeError(.unknownVersion(name, available: history.names))
        }
        guard from != to else { return UpgradePlan(from: from, to: to, steps: []) }
        let edges = edges() + modelCacheEdges(from: from, to: to)
        if let path = cheapestPath(from: from, to: to, over: edges) {
            var plan = UpgradePlan(from: from, to: to, steps: mergesInferredSteps ? mergingInferredSteps(path) : path)
            plan.modelCacheJoin = modelCacheJoin(of: path, over: edges)
            return plan
        }
        let gap = firstGap(from: from, to: to)
        throw UpgradeError(
            .noPath(
                from: from, to: to, gap: gap?.step.map { ($0.source, $0.destination) }, problems: gap?.problems ?? []))
    }

    /// A step a plan needs and can't have: it has neither a mapping nor an inferable mapping.
    struct MissingStep: Sendable {
        /// The first such step on the way, when one is known: a pair of consecutive versions,
        /// or the step from a version as shipped (or a cached model) to the next.
        var step: MappingDirectory.StepKey?
        /// Why inference refused it.
        var problems: [InferenceProblem]
    }

    /// Why no plan leads from `from` to `to`, or nil when one does: what
    /// ``UpgradeError/Kind/noPath(from:to:gap:problems:)`` would say, as data.
    func missingStep(from: String, to: String) -> MissingStep? {
        guard from != to,
            cheapestPath(from: from, to: to, over: edges() + modelCacheEdges(from: from, to: to)) == nil
        else { return nil }
        return firstGap(from: from, to: to) ?? MissingStep(step: nil, problems: [])
    }

    /// Every step the graph offers: explicit mappings, and inferable consecutive pairs
    /// that have no explicit mapping.
    package func edges() -> [PlannedStep] {
        // A mapping names versions of the history (``/StepwiseMapping/MappingDirectory`` checks it).
        var edges = mappings.compactMap { key, models -> PlannedStep? in
            guard let source = version(named: key.source), let destination = version(named: key.destination) else {
                return nil
            }
            return PlannedStep(from: source, to: destination, kind: .explicit, mappingModels: models)
        }
        for (source, destination) in zip(history.versions, history.versions.dropFirst())
        where mappings[MappingDirectory.StepKey(source.name, destination.name)] == nil {
            if let mapping = try? inferences.inferMapping(from: source, to: destination) {
                edges.append(PlannedStep(from: source, to: destination, kind: .inferred, mappingModels: [mapping]))
            }
        }
        for source in shipped {
            guard let edited = ShippedVersion.versionName(asShipped: source.name),
                let destination = history.version(named: edited),
                mappings[MappingDirectory.StepKey(source.name, edited)] == nil,
                let mapping = try? inferences.inferMapping(from: source, to: destination)
            else { continue }
            edges.append(PlannedStep(from: source, to: destination, kind: .inferred, mappingModels: [mapping]))
        }
        // A stable order keeps ties deterministic.
        return edges.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    /// The first consecutive pair between two versions with neither a mapping nor an
    /// inferable mapping, and why inference refused it.
    private func firstGap(from: String, to: String) -> MissingStep? {
        if let cache = modelCache, cache.name == from, let destination = version(named: to) {
            do {
                _ = try inferences.inferMapping(from: cache, to: destination)
            } catch {
                if case .notInferable(let problems) = error.kind { return gap(from, to, problems) }
            }
            return gap(from, to, [])
        }
        if let source = shipped.first(where: { $0.name == from }),
            let edited = ShippedVersion.versionName(asShipped: from),
            let destination = history.version(named: edited),
            mappings[MappingDirectory.StepKey(from, edited)] == nil
        {
            do {
                _ = try inferences.inferMapping(from: source, to: destination)
            } catch {
                if case .notInferable(let problems) = error.kind { return gap(from, edited, problems) }
                return gap(from, edited, [])
            }
            return firstGap(from: edited, to: to)
        }
        guard let start = history.index(of: from), let end = history.index(of: to), start < end else { return nil }
        let versions = Array(history.versions[start...end])
        for (source, destination) in zip(versions, versions.dropFirst())
        where mappings[MappingDirectory.StepKey(source.name, destination.name)] == nil {
            do {
                _ = try inferences.inferMapping(from: source, to: destination)
            } catch {
                if case .notInferable(let problems) = error.kind {
                    return gap(source.name, destination.name, problems)
                }
                return gap(source.name, destination.name, [])
            }
        }
        return nil
    }

    private func gap(_ from: String, _ to: String, _ problems: [InferenceProblem]) -> MissingStep {
        MissingStep(step: MappingDirectory.StepKey(from, to), problems: problems)
    }

    /// The version `name` of the history, or the shipped model of that name.
    func version(named name: String) -> ObjectModel? {
        if let modelCache, modelCache.name == name { return modelCache }
        return history.version(named: name) ?? shipped.first { $0.name == name }
    }
}

import StepwiseMapping
import StepwiseModel

/// Plans the path from a store's version to a target version through a graph of steps.
///
/// The graph has an edge for every explicit mapping (mapping files or code, in any direction,
/// including a downgrade a team chose to support) and an inferred edge between each pair of
/// consecutive versions whose mapping can be inferred. The plan is the path with the fewest
/// explicit (heavyweight) steps, then the fewest steps, then the one that prefers explicit
/// mappings written for a pair over inference.
///
/// Once the path is chosen, each run of consecutive inferred steps is merged into as few
/// passes as exact composition allows (``/StepwiseMapping/MappingComposition``), as Core Data's lightweight
/// migration does: a chain of renames `a → b → c` becomes one step `a → c` that records
/// `b` in ``UpgradePlan/Step/via``. Merging folds left: a step whose mapping can't be composed
/// with the run so far starts a new run.
///
/// A store matched by its own model cache (``modelCache``) adds one edge: from the cached model
/// straight to the target, inferred, as Core Data's fallback does.
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
public struct UpgradePlanner: Sendable {
    public var history: VersionHistory
    /// Explicit mapping models by step.
    public var mappings: [MappingDirectory.StepKey: [MappingModel]]
    /// Whether consecutive inferred steps are merged into one pass where their mappings
    /// compose exactly. Turn it off to see, test or debug every step on its own.
    public var mergesInferredSteps: Bool
    /// Steps that are never merged with their neighbours, such as steps with a
    /// `MigrationStage`, whose `willMigrate` and `didMigrate` expect that step's two versions.
    public var stepsKeptApart: Set<MappingDirectory.StepKey>
    /// The shipped models of versions edited since they shipped, each named
    /// `"<Version> (as shipped)"` (``/StepwiseModel/ShippedVersion/asShippedVersions(_:in:)``).
    public var shipped: [ObjectModel]
    /// The model in the store's own cache, when the store was matched by it
    /// (``StoreIdentification/MatchKind/modelCache``): a plan from it has one step, its mapping
    /// to the target inferred, as Core Data infers a mapping from a store's cached model.
    public var modelCache: ObjectModel?

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
    public init(
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

    /// The plan from `from` to `to`, or a ``PlanningError``.
    public func plan(from: String, to: String) throws -> UpgradePlan {
        for name in [from, to] where version(named: name) == nil {
            throw PlanningError(.unknownVersion(name, available: history.names))
        }
        guard from != to else { return UpgradePlan(from: from, to: to, steps: []) }
        var edges = try self.edges()
        if let cache = modelCache, cache.name == from, let destination = version(named: to),
            let mapping = try? MappingInference.inferMapping(from: cache, to: destination)
        {
            edges.append(UpgradePlan.Step(from: from, to: to, kind: .inferred, mappingModels: [mapping]))
        }
        // Dijkstra over (explicit steps, steps): the graph is tiny (versions × mappings).
        var best: [String: (cost: Cost, path: [UpgradePlan.Step])] = [from: (Cost(explicit: 0, steps: 0), [])]
        var settled: Set<String> = []
        while let (node, entry) = best.filter({ !settled.contains($0.key) }).min(by: { $0.value.cost < $1.value.cost })
        {
            if node == to {
                let steps = mergesInferredSteps ? mergingInferredSteps(entry.path) : entry.path
                return UpgradePlan(from: from, to: to, steps: steps)
            }
            settled.insert(node)
            for edge in edges where edge.from == node && !settled.contains(edge.to) {
                let cost = Cost(
                    explicit: entry.cost.explicit + (edge.kind == .explicit ? 1 : 0), steps: entry.cost.steps + 1)
                if best[edge.to].map({ cost < $0.cost }) ?? true {
                    best[edge.to] = (cost, entry.path + [edge])
                }
            }
        }
        let gap = firstGap(from: from, to: to)
        throw PlanningError(
            .noPath(from: from, to: to, gap: gap.map { ($0.from, $0.to) }, problems: gap?.problems ?? []))
    }

    /// Every step the graph offers: explicit mappings, and inferable consecutive pairs
    /// that have no explicit mapping.
    public func edges() throws -> [UpgradePlan.Step] {
        var edges = mappings.map { key, models in
            UpgradePlan.Step(from: key.source, to: key.destination, kind: .explicit, mappingModels: models)
        }
        for (source, destination) in zip(history.versions, history.versions.dropFirst())
        where mappings[MappingDirectory.StepKey(source.name, destination.name)] == nil {
            if let mapping = try? MappingInference.inferMapping(from: source, to: destination) {
                edges.append(
                    UpgradePlan.Step(from: source.name, to: destination.name, kind: .inferred, mappingModels: [mapping])
                )
            }
        }
        for source in shipped {
            guard let edited = ShippedVersion.versionName(asShipped: source.name),
                let destination = history.version(named: edited),
                mappings[MappingDirectory.StepKey(source.name, edited)] == nil,
                let mapping = try? MappingInference.inferMapping(from: source, to: destination)
            else { continue }
            edges.append(UpgradePlan.Step(from: source.name, to: edited, kind: .inferred, mappingModels: [mapping]))
        }
        // A stable order keeps ties deterministic.
        return edges.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    /// The first consecutive pair between two versions with neither a mapping nor an
    /// inferable mapping, and why inference refused it.
    private func firstGap(from: String, to: String) -> (from: String, to: String, problems: [InferenceProblem])? {
        if let cache = modelCache, cache.name == from, let destination = version(named: to) {
            do {
                _ = try MappingInference.inferMapping(from: cache, to: destination)
            } catch {
                if case .notInferable(let problems) = error.kind { return (from, to, problems) }
            }
            return (from, to, [])
        }
        if let source = shipped.first(where: { $0.name == from }),
            let edited = ShippedVersion.versionName(asShipped: from),
            let destination = history.version(named: edited),
            mappings[MappingDirectory.StepKey(from, edited)] == nil
        {
            do {
                _ = try MappingInference.inferMapping(from: source, to: destination)
            } catch {
                if case .notInferable(let problems) = error.kind { return (from, edited, problems) }
                return (from, edited, [])
            }
            return firstGap(from: edited, to: to)
        }
        guard let start = history.index(of: from), let end = history.index(of: to), start < end else { return nil }
        let versions = Array(history.versions[start...end])
        for (source, destination) in zip(versions, versions.dropFirst())
        where mappings[MappingDirectory.StepKey(source.name, destination.name)] == nil {
            do {
                _ = try MappingInference.inferMapping(from: source, to: destination)
            } catch {
                if case .notInferable(let problems) = error.kind {
                    return (source.name, destination.name, problems)
                }
                return (source.name, destination.name, [])
            }
        }
        return nil
    }

    /// The version `name` of the history, or the shipped model of that name.
    func version(named name: String) -> ObjectModel? {
        if let modelCache, modelCache.name == name { return modelCache }
        return history.version(named: name) ?? shipped.first { $0.name == name }
    }

    private struct Cost: Comparable {
        var explicit: Int
        var steps: Int
        static func < (lhs: Cost, rhs: Cost) -> Bool {
            (lhs.explicit, lhs.steps) < (rhs.explicit, rhs.steps)
        }
    }
}

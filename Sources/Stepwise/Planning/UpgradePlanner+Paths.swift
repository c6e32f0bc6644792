import StepwiseMapping

extension UpgradePlanner {
    /// What a path costs, compared in this order: what its steps drop, then its explicit
    /// (heavyweight) steps, then its steps.
    ///
    /// Drops come first so that a path that drops nothing beats every path that drops something:
    /// a step straight from a store's cached model to the target that loses a value the history
    /// renames one version at a time, or an explicit shortcut that leaves an entity out, is taken
    /// only when no path keeps everything. They are counted as entries of
    /// ``/StepwiseMapping/DroppedData/planned(by:from:to:)`` (an entity, an attribute, a
    /// relationship), not rows: the plan is made before the store is read, and must be the same
    /// for every store of a version. Among paths that all drop something, the one naming fewer
    /// drops wins; a cached model edited both ways (a property added, another removed) then
    /// still joins the history where it keeps the most.
    ///
    /// Every component is a sum over the path's edges, so Dijkstra's search finds the cheapest:
    /// a cost that only said whether anything is dropped would not add up edge by edge, and a
    /// search on it could settle a version by a path that later costs more.
    struct PathCost: Comparable {
        /// The drops the path's steps name.
        var drops = 0
        /// The path's explicit steps.
        var explicit = 0
        /// The path's steps.
        var steps = 0

        /// This cost with one more step.
        func adding(_ edge: PlannedStep, drops edgeDrops: Int) -> PathCost {
            PathCost(drops: drops + edgeDrops, explicit: explicit + (edge.kind == .explicit ? 1 : 0), steps: steps + 1)
        }

        static func < (lhs: PathCost, rhs: PathCost) -> Bool {
            (lhs.drops, lhs.explicit, lhs.steps) < (rhs.drops, rhs.explicit, rhs.steps)
        }
    }

    /// The cheapest path (``PathCost``) from `from` to `to` over `edges`, before merging; nil
    /// when there is none.
    ///
    /// Ties keep the first path found, versions at the same cost are settled in name order, and
    /// `edges` come in a stable order (``edges()``), so the same history gives the same plan: a
    /// resumed upgrade checks its plan against the journal.
    func cheapestPath(from: String, to: String, over edges: [PlannedStep]) -> [PlannedStep]? {
        // Dijkstra: the graph is tiny (versions × mappings). Each edge is relaxed at most once,
        // from its settled source, so each step's drops are worked out once per search.
        var best: [String: (cost: PathCost, path: [PlannedStep])] = [from: (PathCost(), [])]
        var settled: Set<String> = []
        // Of two versions at the same cost, the one named first is settled first: a dictionary's
        // order changes from one process to the next, and the plan must not.
        while let (node, entry) = best.filter({ !settled.contains($0.key) }).min(by: {
            ($0.value.cost, $0.key) < ($1.value.cost, $1.key)
        }) {
            if node == to { return entry.path }
            settled.insert(node)
            for edge in edges where edge.from == node && !settled.contains(edge.to) {
                let cost = entry.cost.adding(edge, drops: inferences.drops(of: edge).count)
                if best[edge.to].map({ cost < $0.cost }) ?? true {
                    best[edge.to] = (cost, entry.path + [edge])
                }
            }
        }
        return nil
    }

    /// What a step's mappings name as dropped before it runs, uncounted.
    static func drops(of step: PlannedStep) -> [DroppedData] {
        DroppedData.planned(by: step.mappingModels, from: step.source, to: step.destination)
    }

    /// Whether `drops` lose `drop`'s data too, all named in one version: they drop the same
    /// property, or its whole entity.
    static func drops(_ drops: [DroppedData], cover drop: DroppedData) -> Bool {
        drops.contains { $0.entity == drop.entity && ($0.property == nil || $0.property == drop.property) }
    }
}

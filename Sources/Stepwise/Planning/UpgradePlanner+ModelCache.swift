import StepwiseMapping
import StepwiseModel

extension UpgradePlanner {
    /// The steps from the store's cached model (``modelCache``) when a plan from `from` to `to`
    /// starts from it, else none: an inferred step to each version it differs least from
    /// (``nearestVersions(to:)``), where it joins the history's own steps, and the inferred step
    /// straight to `to`, as Core Data's fallback takes. The path cost chooses among them
    /// (``PathCost``); ``ModelCacheJoin`` says why the join is offered.
    package func modelCacheEdges(from: String, to: String) -> [PlannedStep] {
        guard let cache = modelCache, cache.name == from, let target = version(named: to) else { return [] }
        let destinations = nearestVersions(to: cache).map(\.version).filter { $0.name != to } + [target]
        return destinations.compactMap { destination in
            guard let mapping = try? inferences.inferMapping(from: cache, to: destination) else { return nil }
            return PlannedStep(from: cache, to: destination, kind: .inferred, mappingModels: [mapping])
        }
    }

    /// The versions of the history `cache` differs least from, each with how it differs
    /// (``/StepwiseModel/ModelDifference``, by name), oldest first: all those tied for the
    /// fewest differences among the versions a mapping can be inferred to from `cache`. Empty
    /// when it can be inferred to none.
    ///
    /// By name, not through an inferred mapping: the cached model is a version as it was, and
    /// a version edited in place keeps its names (a renaming identifier means nothing within
    /// one version). A version the cache can't be inferred to is skipped: it is no place to
    /// join the history from the cache.
    func nearestVersions(to cache: ObjectModel) -> [(version: ObjectModel, differences: [ModelDifference])] {
        let ranked = history.versions.map { ($0, ModelDifference.between(cache, $0)) }.enumerated().sorted {
            ($0.element.1.count, $0.offset) < ($1.element.1.count, $1.offset)
        }
        var nearest: [(offset: Int, version: ObjectModel, differences: [ModelDifference])] = []
        for (offset, (version, differences)) in ranked {
            if let fewest = nearest.first?.differences.count, differences.count > fewest { break }
            guard (try? inferences.inferMapping(from: cache, to: version)) != nil else { continue }
            nearest.append((offset, version, differences))
        }
        return nearest.sorted { $0.offset < $1.offset }.map { ($0.version, $0.differences) }
    }

    /// Where `path` (before merging) joins the history, when it starts from the store's cached
    /// model; nil for any other path, or when the cache can be inferred to no version.
    ///
    /// - parameter edges: The edges `path` was chosen over, the cache's included.
    func modelCacheJoin(of path: [PlannedStep], over edges: [PlannedStep]) -> ModelCacheJoin? {
        guard let cache = modelCache, let first = path.first, first.from == cache.name, let target = path.last?.to
        else { return nil }
        if first.to != target {
            // The cache's edges go to the target or to a nearest version: this is one.
            let straight = edges.first { $0.from == cache.name && $0.to == target }
            return ModelCacheJoin(
                version: first.to, differences: ModelDifference.between(cache, first.destination), target: target,
                route: .throughVersion,
                droppedGoingStraight: straight.map { Self.drops(of: $0, notDroppedBy: path) } ?? [])
        }
        let nearest = nearestVersions(to: cache)
        if let reached = nearest.first(where: { $0.version.name == target }) {
            return ModelCacheJoin(
                version: target, differences: reached.differences, target: target, route: .versionIsTarget)
        }
        guard let closest = nearest.first else { return nil }
        let onward = cheapestPath(from: closest.version.name, to: target, over: edges)
        return ModelCacheJoin(
            version: closest.version.name, differences: closest.differences, target: target,
            route: onward == nil ? .noPathFromVersion : .straightToTarget)
    }

    /// What `step` drops that `path`, from the same version, doesn't: each of `path`'s drops is
    /// traced back to the version it starts from (``UpgradePlan/trace(_:back:)``) to be compared.
    /// A later step's drop that can't be traced back is left out of the comparison: the list
    /// may then name something the path drops too, but never leaves out what only the step drops.
    private static func drops(of step: PlannedStep, notDroppedBy path: [PlannedStep]) -> [DroppedData] {
        var pathDrops: [DroppedData] = []
        for (index, pathStep) in path.enumerated() {
            pathDrops += drops(of: pathStep).compactMap { UpgradePlan.trace($0, back: path[..<index]) }
        }
        return drops(of: step).filter { !drops(pathDrops, cover: $0) }
    }
}

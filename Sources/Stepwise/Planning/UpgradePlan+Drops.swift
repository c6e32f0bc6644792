import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore

extension UpgradePlan {
    /// What each step would drop from a store at ``from``, counted in that store before any
    /// step runs: one array per step, in order.
    ///
    /// Step 1's drops are counted exactly. A later step's drop is traced back through the
    /// steps before it to the store's own entity and property (renames followed) and counted
    /// there, when every step on the way makes its entity one for one (no policy, no filter)
    /// and reads the property as a plain `$source.name`. Otherwise its count stays nil: it is
    /// counted when the step runs (``/StepwiseMapping/StepReport/drops``). What step 1's removed
    /// entities cost Core Data's private tables (the history cut, their CloudKit records) is
    /// counted too; a later step counts its own when it runs.
    ///
    /// - parameter db: A connection to the store (or a copy of it) at ``from``.
    public func drops(countedIn db: Database) throws -> [[DroppedData]] {
        guard let first = steps.first else { return [] }
        let counter = DropCounter(layout: try StoreLayout(model: first.source))
        var result: [[DroppedData]] = []
        for (index, step) in steps.enumerated() {
            var drops = DroppedData.planned(by: step.mappingModels, from: step.source, to: step.destination)
            // Where each drop's data lives in the store, when the earlier steps let it be traced.
            let traced = drops.map { Self.trace($0, back: steps[..<index]) }
            let counted = try counter.counting(traced.compactMap { $0 }, in: db)
            var next = counted.makeIterator()
            for position in drops.indices where traced[position] != nil {
                drops[position].count = next.next()?.count
            }
            if index == 0 {
                // Core Data's private tables hold the store's own history and CloudKit records:
                // what step 1 drops of them is counted here; later steps count theirs as they run.
                drops += try counter.privateTableDrops(for: drops, in: db)
            }
            result.append(drops)
        }
        return result
    }

    /// The drop as it reads in the version `earlier` starts from, or nil when some step on
    /// the way doesn't carry its entity one for one or its property as a plain key path.
    static func trace(_ drop: DroppedData, back earlier: ArraySlice<PlannedStep>) -> DroppedData? {
        var traced = drop
        for step in earlier.reversed() {
            // The objects whose links are dropped are traced as their entity is.
            if let linksTo = traced.linksTo {
                let sources = linksTo.map { onlyMaker(of: $0, in: step)?.sourceEntity }
                guard sources.allSatisfy({ $0 != nil }) else { return nil }
                traced.linksTo = sources.compactMap { $0 }
            }
            guard let maker = onlyMaker(of: traced.entity, in: step), let sourceEntity = maker.sourceEntity
            else { return nil }
            if let property = traced.property {
                guard let propertyMapping = maker.propertyMapping(named: property),
                    propertyMapping.userInfo[MappingInference.defaultForNullKey] == nil,
                    let sourceProperty = propertyMapping.valueExpression.flatMap(
                        MappingInference.sourceProperty(readBy:))
                else { return nil }
                traced.property = sourceProperty
            }
            traced.entity = sourceEntity
        }
        return traced
    }

    /// The one entity mapping of `step` that makes `entity` from one source entity, object for
    /// object (no policy, no filter), or nil.
    private static func onlyMaker(of entity: String, in step: PlannedStep) -> EntityMapping? {
        let makers = step.mappingModels.flatMap(\.entityMappings).filter {
            $0.destinationEntity == entity && $0.kind != .remove && $0.kind != .add
        }
        guard makers.count == 1, let maker = makers.first, maker.kind == .copy || maker.kind == .transform,
            maker.policyName == nil, maker.filter == nil, maker.sourceEntity != nil
        else { return nil }
        return maker
    }
}

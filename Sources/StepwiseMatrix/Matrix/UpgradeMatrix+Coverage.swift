import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore

extension UpgradeMatrix {
    /// Fails the pair when the upgrade emptied an entity that both of its versions have and
    /// the seeded store filled, unless the drop is declared: by an explicit entity mapping
    /// with no destination, or in ``allowedDrops``. Catches an entity left out of an explicit
    /// mapping, which the value checks can't see (they only follow entities that are copied).
    func checkNoEntityEmptied(
        seeded: URL, upgraded: URL, source: ObjectModel, target: ObjectModel,
        layouts: (source: StoreLayout, target: StoreLayout), report: UpgradeReport, pair: Pair
    ) throws {
        let (sourceLayout, targetLayout) = layouts
        let kept = source.entities.filter { !$0.isAbstract && target[entity: $0.name].map { !$0.isAbstract } == true }
        let seededStore = try Self.readOnly(seeded)
        defer { try? seededStore.close() }
        let upgradedStore = try Self.readOnly(upgraded)
        defer { try? upgradedStore.close() }
        for entity in kept.map(\.name).sorted() where !allowedDrops.contains(entity) {
            guard let from = sourceLayout.entity(named: entity), let to = targetLayout.entity(named: entity) else {
                continue
            }
            let before = try Self.rowCount(of: from, in: seededStore)
            guard before > 0, try Self.rowCount(of: to, in: upgradedStore) == 0 else { continue }
            let drops = report.steps.enumerated().flatMap { offset, step in
                step.drops.filter { $0.entity == entity && $0.kind == .entity }.map { (offset + 1, step, $0) }
            }
            if drops.contains(where: { $0.2.isDeclared }) { continue }
            let cause =
                drops.first.map { index, step, drop in
                    ": step \(index) (\(step.from) → \(step.to), \(step.kind)) drops its rows (\(drop.reason.explanation))"
                } ?? ""
            throw UpgradeMatrixFailure(
                pair: pair, check: .droppedRows, entity: entity,
                detail:
                    "the seeded store has \(before) rows and the upgraded store none, though both versions have the entity\(cause). Map it, or declare the drop: an entity mapping with no destination, or UpgradeMatrix's allowedDrops (--allow-drop)."
            )
        }
    }

    /// What no check of the pair covered, in the target version's names: entities that hold
    /// rows after the upgrade but aren't copied one for one (made by a policy, say), and the
    /// attributes of copied entities whose values weren't compared (new, converted, or
    /// computed by an expression). What a policy declares it writes says so:
    /// `"Customer.orderCount (written by OrderPolicy)"`.
    func uncovered(
        copied: [CopiedEntity], upgraded: URL, target: ObjectModel, layout: StoreLayout, writes: PolicyWrites
    ) throws -> [String] {
        func name(_ entity: String, _ attribute: String?) -> String {
            let name = attribute.map { "\(entity).\($0)" } ?? entity
            return writes.policy(writing: attribute, of: entity).map { "\(name) (written by \($0))" } ?? name
        }
        let store = try Self.readOnly(upgraded)
        defer { try? store.close() }
        var names: [String] = []
        // A composite's leaves are compared one by one (``CopiedEntity``), so named one by one.
        let target = target.flatteningComposites()
        for entity in target.entities.sorted(by: { $0.name < $1.name }) where !entity.isAbstract {
            guard let chain = copied.first(where: { $0.destination == entity.name }) else {
                if let entityLayout = layout.entity(named: entity.name),
                    try Self.rowCount(of: entityLayout, in: store) > 0
                {
                    names.append(name(entity.name, nil))
                }
                continue
            }
            for attribute in target.allAttributes(of: entity)
            where !attribute.isTransient && chain.attributes[attribute.name] == nil {
                names.append(name(entity.name, attribute.name))
            }
        }
        return names
    }

    /// A read-only connection to one of the check's stores.
    private static func readOnly(_ url: URL) throws -> DatabaseQueue {
        try ReadOnlyStore.openQueue(at: url)
    }

    /// The entity's own rows (its `Z_ENT`) in a store.
    private static func rowCount(of entity: EntityLayout, in queue: DatabaseQueue) throws -> Int {
        try queue.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM \(entity.tableName.quotedSQLIdentifier) WHERE \"Z_ENT\" = ?",
                arguments: [entity.number]) ?? 0
        }
    }
}

import GRDB
import StepwiseModel
import StepwiseStore

/// Fills every stored relationship of a seeded store, each pair of inverses once, through
/// ``ObjectContext`` so inverses, order columns and join tables are kept as Core Data keeps them.
///
/// Links are numbered as they are made, and link `k` goes to destination `π(k mod m)` for a
/// seeded permutation `π` of the `m` destinations. Destinations are therefore loaded evenly
/// (each holds ⌊L/m⌋ or ⌈L/m⌉ of the `L` links), which is what lets the counts hold:
/// - a to-one (the side that stores the key drives a one-to-many) links every row when it is
///   required or when its to-many inverse has a minimum count, and four rows in five
///   otherwise; at most `maximum × m` rows link when the inverse has a maximum, and at most
///   `m` (each destination once) for a one-to-one or a to-one in a uniqueness constraint
///   without attributes;
/// - a to-many without to-one inverse (a join table) gives each row its minimum count plus
///   0 to 2 more, raised so the inverse's minimum holds and capped by its own maximum, the
///   inverse's and the number of destinations; stored under a hidden foreign key (no inverse),
///   all rows together link each destination once at most.
///
/// Counts the rows can't satisfy (a required to-one to an entity without rows, a one-to-one
/// required on both sides between entities of different sizes…) throw ``UpgradeMatrixFailure``.
struct SeededRelationships {
    let store: SeededStore
    let model: ObjectModel
    let layout: StoreLayout
    /// Relationships set in every row (``SeedingConstraints/every``), by declaring entity:
    /// `Order.customer`.
    var alwaysLinked: Set<String> = []

    /// One side of a relationship: the entity that declares it and the relationship.
    struct Side {
        var entity: Entity
        var relationship: Relationship
        var key: String { "\(entity.name).\(relationship.name)" }
    }

    func link(in queue: DatabaseQueue) throws {
        var handled: Set<String> = []
        let injective = injectiveRelationships()
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isTransient {
                let side = Side(entity: entity, relationship: relationship)
                guard handled.insert(side.key).inserted else { continue }
                let inverse = self.inverse(of: side)
                if let inverse { handled.insert(inverse.key) }
                if relationship.isToOne {
                    try linkToOne(side, inverse: inverse, injective: injective.contains(side.key), in: queue)
                } else if let inverse, inverse.relationship.isToOne {
                    try linkToOne(inverse, inverse: side, injective: injective.contains(inverse.key), in: queue)
                } else {
                    try linkToMany(side, inverse: inverse, in: queue)
                }
            }
        }
    }

    // MARK: - To-one keys

    private func linkToOne(_ driver: Side, inverse: Side?, injective: Bool, in queue: DatabaseQueue) throws {
        guard let destination = model[entity: driver.relationship.destination] else { return }
        let sources = SeededPopulation(kindOf: driver.entity, model: model, store: store)
        let targets = SeededPopulation(kindOf: destination, model: model, store: store)
        let (rows, destinations) = (sources.count, targets.count)
        var inverseMinimum =
            inverse.map { $0.relationship.isToMany ? $0.relationship.minCount : ($0.relationship.isOptional ? 0 : 1) }
            ?? 0
        if let inverse, alwaysLinked.contains(inverse.key) { inverseMinimum = max(inverseMinimum, 1) }
        var perDestination: Int?
        if injective || inverse?.relationship.isToOne == true {
            perDestination = 1
        } else if let inverse, inverse.relationship.maxCount > 0 {
            perDestination = inverse.relationship.maxCount
        }
        let required = !driver.relationship.isOptional || alwaysLinked.contains(driver.key)
        if destinations == 0 {
            if required && rows > 0 {
                throw unsatisfiable(driver, "it is required but no \(destination.name) has rows")
            }
            return
        }
        let linksAll = required || inverseMinimum > 0
        let capacity = perDestination.map { $0 * destinations }
        var random = SplitMix64(seed: store.seed, "links of \(driver.key)")
        let permutation = SeededPermutation(count: destinations, random: &random)
        var linked = 0
        try inBatches(of: rows, in: queue) { objects, index in
            var draw = SplitMix64(seed: store.seed, "link of \(driver.key)", index)
            guard linksAll || !draw.chance(1, in: 5) else { return }
            if let capacity, linked >= capacity {
                guard !required else {
                    throw unsatisfiable(
                        driver, "it is required, but \(rows) rows can't share \(destinations) \(destination.name) rows")
                }
                return
            }
            try objects.setToOne(
                sources.object(index), driver.relationship.name, to: targets.object(permutation(linked)))
            linked += 1
        }
        if let inverse, linked < inverseMinimum * destinations {
            throw unsatisfiable(
                inverse,
                "each object needs \(inverseMinimum), and \(rows) rows can't give \(destinations) objects that many")
        }
    }

    // MARK: - Join tables

    private func linkToMany(_ driver: Side, inverse: Side?, in queue: DatabaseQueue) throws {
        guard let destination = model[entity: driver.relationship.destination] else { return }
        let sources = SeededPopulation(kindOf: driver.entity, model: model, store: store)
        let targets = SeededPopulation(kindOf: destination, model: model, store: store)
        let (rows, destinations) = (sources.count, targets.count)
        let minimum = max(driver.relationship.minCount, alwaysLinked.contains(driver.key) ? 1 : 0)
        var inverseMinimum = inverse?.relationship.minCount ?? 0
        if let inverse, alwaysLinked.contains(inverse.key) { inverseMinimum = max(inverseMinimum, 1) }
        if rows == 0 || destinations == 0 {
            if minimum > 0 && rows > 0 { throw unsatisfiable(driver, "it needs \(minimum) objects but none has rows") }
            if let inverse, inverseMinimum > 0 && destinations > 0 {
                throw unsatisfiable(inverse, "it needs \(inverseMinimum) objects but none has rows")
            }
            return
        }
        let perRowMinimum = max(minimum, (inverseMinimum * destinations + rows - 1) / rows)
        let perRowMaximum = min(
            driver.relationship.maxCount > 0 ? driver.relationship.maxCount : destinations, destinations)
        guard perRowMinimum <= perRowMaximum else {
            throw unsatisfiable(
                driver, "each row needs \(perRowMinimum) objects but can hold at most \(perRowMaximum)")
        }
        var capacity = inverse.flatMap { $0.relationship.maxCount > 0 ? $0.relationship.maxCount * destinations : nil }
        // A hidden foreign key (a to-many without inverse) holds one owner per
        // destination: linking one twice would move it and break the first row's count.
        if layout.entity(named: driver.entity.name)?.relationship(named: driver.relationship.name)?.hasHiddenForeignKey
            == true
        {
            capacity = min(capacity ?? destinations, destinations)
        }
        var random = SplitMix64(seed: store.seed, "links of \(driver.key)")
        let permutation = SeededPermutation(count: destinations, random: &random)
        var linked = 0
        try inBatches(of: rows, in: queue) { objects, index in
            var draw = SplitMix64(seed: store.seed, "link of \(driver.key)", index)
            var count = min(perRowMinimum + draw.next(below: 3), perRowMaximum)
            if let capacity { count = min(count, capacity - linked) }
            guard count >= minimum else {
                throw unsatisfiable(driver, "the inverse's maximum leaves row \(index) fewer than \(minimum) objects")
            }
            let source = sources.object(index)
            for offset in 0..<count {
                try objects.relate(source, driver.relationship.name, to: targets.object(permutation(linked + offset)))
            }
            linked += count
        }
    }

    // MARK: - Helpers

    /// Runs `body` for rows `0..<count`, one write transaction per batch.
    private func inBatches(
        of count: Int, in queue: DatabaseQueue, _ body: (ObjectContext, Int) throws -> Void
    ) throws {
        var start = 0
        while start < count {
            let end = min(count, start + SeededStore.batchSize)
            try queue.write { db in
                let objects = ObjectContext(db, layout: layout)
                for index in start..<end { try body(objects, index) }
            }
            start = end
        }
    }

    /// The inverse of a relationship, declared by its destination, an ancestor or a
    /// subentity of it.
    private func inverse(of side: Side) -> Side? {
        guard let name = side.relationship.inverse, let destination = model[entity: side.relationship.destination]
        else { return nil }
        let candidates = [destination] + model.ancestors(of: destination) + model.hierarchy(from: destination)
        for entity in candidates {
            if let relationship = entity.relationship(named: name), !relationship.isTransient {
                return Side(entity: entity, relationship: relationship)
            }
        }
        return nil
    }

    /// To-one relationships that must not share destinations: the first to-one of each
    /// uniqueness constraint that has no attribute to carry the uniqueness.
    private func injectiveRelationships() -> Set<String> {
        var keys: Set<String> = []
        for entity in model.entities {
            for constraint in entity.uniquenessConstraints
            where SeededRowWriter.uniqueAttribute(of: constraint, in: entity, model: model) == nil {
                for name in constraint {
                    guard let relationship = model.allRelationships(of: entity).first(where: { $0.name == name }),
                        relationship.isToOne,
                        let declaring = model.declaringEntity(ofProperty: name, from: entity)
                    else { continue }
                    keys.insert("\(declaring.name).\(name)")
                    break
                }
            }
        }
        return keys
    }

    private func unsatisfiable(_ side: Side, _ reason: String) -> UpgradeMatrixFailure {
        UpgradeMatrixFailure(.unsatisfiable(entity: side.entity.name, property: side.relationship.name, reason: reason))
    }
}

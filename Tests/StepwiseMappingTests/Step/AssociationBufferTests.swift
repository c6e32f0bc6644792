import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// Pass 1's row loop writes associations several at a time (issue 12); a policy reading them
/// back in the middle of the loop still finds every one made before, and pass 2 finds all.
@Suite("Association buffer")
struct AssociationBufferTests {
    static let v1 = ObjectModel("Shelf") {
        Entity("Item") {
            Attribute("name", .string)
            Relationship("box", to: "Box", inverse: "items")
        }
        Entity("Box") {
            Attribute("label", .string)
            Relationship("items", to: "Item", inverse: "box").toMany()
        }
    }

    static let v2 = ObjectModel("Shelf 2") {
        Entity("Item") {
            Attribute("name", .string)
            Relationship("box", to: "Box", inverse: "items")
        }
        Entity("Box") {
            Attribute("label", .string)
            Relationship("items", to: "Item", inverse: "box").toMany()
        }
    }

    /// Makes two destination items per source item (a split) and, when it looks back, on every
    /// row looks up the destinations and sources of every row before it.
    class SplittingPolicy: EntityMigrationPolicy {
        var looksBack: Bool { false }
        var seen: [ObjectID] = []
        var mismatches: [String] = []

        override func createDestinationInstances(
            forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
            let copy = try manager.destination.insert("Item", ["name": "copy of \(source.string("name") ?? "")"])
            try manager.associate(source: source.id, destination: copy, mapping: mapping)
            seen.append(source.id)
            guard looksBack else { return }
            // Every source row so far has its two destinations, in order.
            let destinations = try manager.destinationInstances(
                forEntityMappingNamed: mapping.name, sourceInstances: seen)
            if destinations.count != seen.count * 2 {
                mismatches.append("row \(seen.count): \(destinations.count) destinations")
            }
            let sources = try manager.sourceInstances(
                forEntityMappingNamed: mapping.name, destinationInstances: [copy])
            if sources != [source.id] {
                mismatches.append("row \(seen.count): \(sources) made \(copy)")
            }
        }

        override func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
            if !mismatches.isEmpty { throw MappingError(.failed(mismatches.prefix(3).joined(separator: "; "))) }
        }
    }

    final class LookingBackPolicy: SplittingPolicy {
        override var looksBack: Bool { true }
    }

    /// Without looking back, the buffer fills and is written 64 rows at a time, then the rest.
    @Test(arguments: [false, true])
    func everyAssociationIsVisibleToWhatReadsItAndPassTwoLinksThemAll(looksBack: Bool) throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("shelf.sqlite")
        // More rows than one multi-row insert holds, and not a multiple of it.
        let rows = 150
        try StepFixtures.store(at: source, model: Self.v1) { objects in
            let boxes = try (0..<3).map { try objects.insert("Box", ["label": "Box \($0)"]) }
            for index in 0..<rows {
                _ = try objects.insert("Item", ["name": "Item \(index)", "box": boxes[index % 3]])
            }
        }
        var mapping = try MappingInference.inferMapping(from: Self.v1, to: Self.v2)
        // An explicit mapping: the step rebuilds the store (an inferred one would alter it in place).
        mapping.isInferred = false
        for index in mapping.entityMappings.indices where mapping.entityMappings[index].sourceEntity == "Item" {
            mapping.entityMappings[index].policyName = "LookingBack"
        }
        var policies = PolicyRegistry()
        policies.register("LookingBack") { looksBack ? LookingBackPolicy() : SplittingPolicy() }
        let destination = directory.path("shelf-2.sqlite")
        let report = try MigrationStep(from: Self.v1, to: Self.v2, mappingModels: [mapping], policies: policies)
            .run(source: source, destination: destination)
        let items = report.entityMappings.first { $0.name.contains("Item") }
        #expect(items?.instances == rows * 2)
        // Pass 2 linked both destinations of every item to its box.
        let linked = try DatabaseQueue(path: destination.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM WHERE ZBOX IS NOT NULL")
        }
        #expect(linked == rows * 2)
    }
}

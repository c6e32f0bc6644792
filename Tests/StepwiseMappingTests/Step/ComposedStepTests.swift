import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A composed mapping must leave a store exactly as the two inferred steps in a row do:
/// each chain is seeded at `A`, migrated both ways, and the two `C` stores are compared
/// object by object (primary keys aside, which each rebuilding step renumbers).
@Suite("Composed steps")
struct ComposedStepTests {
    /// A chain whose two steps compose, with a name for the test report.
    struct Chain: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var versions: [ObjectModel]

        init(
            _ description: String, @ModelBuilder a: () -> [Entity], @ModelBuilder b: () -> [Entity],
            @ModelBuilder c: () -> [Entity]
        ) {
            testDescription = description
            versions = [
                ObjectModel("A", entities: a()), ObjectModel("B", entities: b()), ObjectModel("C", entities: c()),
            ]
        }

        init(_ description: String, _ versions: [ObjectModel]) {
            testDescription = description
            self.versions = versions
        }
    }

    static let chains: [Chain] = [
        Chain("renames only", RenameChainHistory.history.versions),
        Chain("a widening, a default for nil and an attribute added in the middle") {
            Entity("Reading") {
                Attribute("value", .integer16)
                Attribute("note", .string)
            }
        } b: {
            Entity("Reading") {
                Attribute("value", .integer32)
                Attribute("note", .string).required().defaultValue("-")
                Attribute("unit", .string).defaultValue("cm")
            }
        } c: {
            Entity("Reading") {
                Attribute("amount", .integer32).renamed(from: "value")
                Attribute("comment", .string).required().defaultValue("-").renamed(from: "note")
                Attribute("measure", .string).defaultValue("cm").renamed(from: "unit")
            }
        },
        Chain("entities added, removed and renamed") {
            Entity("Kept") { Attribute("x", .string) }
            Entity("Dropped") { Attribute("x", .string) }
            Entity("Late") { Attribute("x", .string) }
            Entity("Changed") { Attribute("x", .string) }
        } b: {
            Entity("Kept") { Attribute("x", .string) }
            Entity("Late") { Attribute("x", .string) }
            Entity("New") { Attribute("x", .string) }
            Entity("Changed") { Attribute("y", .string).renamed(from: "x") }
        } c: {
            Entity("Kept") { Attribute("x", .string) }
            Entity("New") { Attribute("x", .string) }
            Entity("Renamed") { Attribute("y", .string) }.renamed(from: "Changed")
        },
        Chain("a to-many of one entity becomes to-one after a rename") {
            Entity("Team") { Relationship("players", to: "Player", inverse: "team").toMany() }
            Entity("Player") {
                Attribute("name", .string)
                Relationship("team", to: "Team", inverse: "players")
            }
        } b: {
            Entity("Team") { Relationship("members", to: "Member", inverse: "team").toMany().renamed(from: "players") }
            Entity("Member") {
                Attribute("name", .string)
                Relationship("team", to: "Team", inverse: "members")
            }.renamed(from: "Player")
        } c: {
            Entity("Team") { Relationship("captain", to: "Member", inverse: "team").renamed(from: "members") }
            Entity("Member") {
                Attribute("name", .string)
                Relationship("team", to: "Team", inverse: "captain")
            }
        },
        Chain("a hierarchy renamed piece by piece") {
            Entity("Shelf") {
                Attribute("label", .string)
                Relationship("items", to: "Item", inverse: "shelf").toMany()
            }
            Entity("Item", isAbstract: true) {
                Attribute("title", .string)
                Relationship("shelf", to: "Shelf", inverse: "items")
            }
            Entity("Book", parent: "Item") { Attribute("pages", .integer32) }
            Entity("Disc", parent: "Item") { Attribute("minutes", .integer16) }
        } b: {
            Entity("Shelf") {
                Attribute("label", .string)
                Relationship("items", to: "Item", inverse: "shelf").toMany()
            }
            Entity("Item", isAbstract: true) {
                Attribute("name", .string).renamed(from: "title")
                Relationship("shelf", to: "Shelf", inverse: "items")
            }
            Entity("Novel", parent: "Item") { Attribute("pages", .integer32) }.renamed(from: "Book")
            Entity("Disc", parent: "Item") { Attribute("minutes", .integer32) }
        } c: {
            Entity("Case") {
                Attribute("label", .string)
                Relationship("items", to: "Item", inverse: "holder")
                    .toMany().renamed(from: "items")
            }.renamed(from: "Shelf")
            Entity("Item", isAbstract: true) {
                Attribute("name", .string)
                Relationship("holder", to: "Case", inverse: "items").renamed(from: "shelf")
            }
            Entity("Novel", parent: "Item") { Attribute("pageCount", .integer32).renamed(from: "pages") }
            Entity("Disc", parent: "Item") { Attribute("minutes", .integer32) }
        },
    ]

    @Test(arguments: chains)
    func aComposedStepLeavesWhatTheTwoStepsLeave(_ chain: Chain) throws {
        let directory = try TemporaryDirectory()
        let (a, b, c) = (chain.versions[0], chain.versions[1], chain.versions[2])
        let first = try MappingInference.inferMapping(from: a, to: b)
        let second = try MappingInference.inferMapping(from: b, to: c)
        let composed = try MappingComposition.compose(first, second, source: a, intermediate: b, destination: c)

        let source = directory.path("A.sqlite")
        try Self.seed(at: source, model: a)
        let middle = directory.path("B.sqlite")
        _ = try MigrationStep(from: a, to: b, mappingModels: [first]).run(source: source, destination: middle)
        let twoSteps = directory.path("C (two steps).sqlite")
        _ = try MigrationStep(from: b, to: c, mappingModels: [second]).run(source: middle, destination: twoSteps)
        let onePass = directory.path("C (one pass).sqlite")
        _ = try MigrationStep(from: a, to: c, mappingModels: [composed]).run(source: source, destination: onePass)

        let expected = try Self.objects(in: twoSteps, model: c)
        #expect(try Self.objects(in: onePass, model: c) == expected)
        #expect(expected.values.contains { !$0.isEmpty })
    }

    /// Real histories whose consecutive steps all infer: Moody 1 … 6 and ATDataModel 1 … 4,
    /// folded into one composed mapping and run on a copy of the corpus store.
    @Test(
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"),
        arguments: [("M1", CorpusBundle.moody, 6), ("v1", CorpusBundle.apptentive, 4)])
    func aCorpusChainOfInferredStepsRunsAsOnePass(store: String, bundle: CorpusBundle, last: Int) throws {
        let corpus = try Corpus.required()
        let models = try corpus.modelBundle(bundle)
        let versions = try (1...last).map { try models.version(named: bundle.versionName($0)) }
        let directory = try TemporaryDirectory()
        let source = try corpus.copyStore(try CorpusStore.named(store), to: directory.url)

        var current = source
        var composed: MappingModel?
        for (index, (from, to)) in zip(versions, versions.dropFirst()).enumerated() {
            let mapping = try MappingInference.inferMapping(from: from, to: to)
            let next = directory.path("step \(index + 1).sqlite")
            _ = try MigrationStep(from: from, to: to, mappingModels: [mapping]).run(source: current, destination: next)
            current = next
            composed =
                try composed.map {
                    try MappingComposition.compose(
                        $0, mapping, source: versions[0], intermediate: from, destination: to)
                } ?? mapping
        }
        let onePass = directory.path("one pass.sqlite")
        let report = try MigrationStep(
            from: versions[0], to: versions[last - 1], mappingModels: [try #require(composed)]
        ).run(source: source, destination: onePass)
        #expect(report.mappingModels == ["\(versions[0].name) → \(versions[last - 1].name)"])
        let expected = try Self.objects(in: current, model: versions[last - 1])
        #expect(try Self.objects(in: onePass, model: versions[last - 1]) == expected)
        #expect(expected.values.contains { !$0.isEmpty })
    }

    // MARK: - Generic seed and comparison

    /// Four objects per concrete entity: values derived from the entity and the index, the
    /// last leaving its optional attributes nil. The to-ones of the first three point into
    /// their destination hierarchy, the first two to the same object, so a to-many holds
    /// several objects; the last object's stay empty.
    static func seed(at url: URL, model: ObjectModel) throws {
        try StoreCreator.createStore(at: url, model: model)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: model)
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            var created: [String: [ObjectID]] = [:]
            for entity in model.entities where !entity.isAbstract {
                for index in 0..<4 {
                    var values: [String: (any DatabaseValueConvertible)?] = [:]
                    for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                        if index == 3 && attribute.isOptional { continue }
                        values[attribute.name] = value(of: attribute.type, entity: entity.name, index: index)
                    }
                    created[entity.name, default: []].append(try objects.insert(entity.name, values))
                }
            }
            for entity in model.entities where !entity.isAbstract {
                for relationship in model.allRelationships(of: entity) where relationship.isToOne {
                    guard let target = model[entity: relationship.destination] else { continue }
                    let candidates = model.hierarchy(from: target).flatMap { created[$0.name] ?? [] }
                    guard !candidates.isEmpty else { continue }
                    for (index, id) in (created[entity.name] ?? []).enumerated() where index < 3 {
                        try objects.setToOne(id, relationship.name, to: candidates[(1 + index / 2) % candidates.count])
                    }
                }
            }
        }
    }

    static func value(of type: AttributeType, entity: String, index: Int) -> (any DatabaseValueConvertible)? {
        switch type {
        case .string: return "\(entity) \(index)"
        case .integer16, .integer32, .integer64: return index * 7 + 1
        case .double, .float: return Double(index) + 0.5
        case .boolean: return index % 2
        default: return nil
        }
    }

    /// Every object of every concrete entity, rendered with its attributes and the objects
    /// its relationships hold (rendered by their attributes), sorted: equal for two stores that
    /// hold the same objects, whatever their primary keys.
    static func objects(in url: URL, model: ObjectModel) throws -> [String: [String]] {
        let layout = try StoreLayout(model: model)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            func attributes(_ object: StoredObject) -> String {
                guard let entity = model[entity: object.id.entity] else { return "?" }
                let rendered = model.allAttributes(of: entity).map { "\($0.name)=\(object[$0.name])" }
                return "\(object.id.entity)(\(rendered.joined(separator: ", ")))"
            }
            var result: [String: [String]] = [:]
            for entity in model.entities where !entity.isAbstract {
                result[entity.name] = try objects.fetch(entity.name, includingSubentities: false).map { object in
                    let relationships = try model.allRelationships(of: entity).map { relationship in
                        var held = try objects.related(object.id, relationship.name).map {
                            attributes(try objects.object($0))
                        }
                        if !relationship.isOrdered { held.sort() }
                        return "\(relationship.name)=[\(held.joined(separator: "; "))]"
                    }
                    return ([attributes(object)] + relationships).joined(separator: " ")
                }.sorted()
            }
            return result
        }
    }
}

import Foundation
import Stepwise
import StepwiseMapping
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The matrix of every sample history in `Versions/`, read from its files as an app's test
/// would read its bundle: every pair of a version and a later one, each on a seeded store.
@Suite("UpgradeMatrix: Versions/")
struct UpgradeMatrixTests {
    /// One matrix per sample bundle in `Versions/`.
    static let matrices = Result {
        try SampleHistories.all.map { sample in
            try UpgradeMatrix(
                bundleAt: Corpus.packageRoot.appendingPathComponent("Versions/\(sample.name).xcdatamodeld"),
                policies: SamplePolicies.registry)
        }
    }

    static func matrix(for pair: UpgradeMatrix.Pair) throws -> UpgradeMatrix {
        try #require(try matrices.get().first { $0.history.version(named: pair.from) != nil })
    }

    @Test("every later version is reachable from every version")
    func sizes() throws {
        let matrices = try Self.matrices.get()
        let sizes = matrices.map { $0.cases.count }
        let unreachable = matrices.flatMap { $0.unreachable }
        let recipes = matrices.first?.cases.map { $0.description }
        #expect(sizes == [6, 6, 1])
        #expect(unreachable.isEmpty)
        #expect(
            recipes == [
                "Recipes → Recipes 2", "Recipes → Recipes 3", "Recipes → Recipes 4", "Recipes 2 → Recipes 3",
                "Recipes 2 → Recipes 4", "Recipes 3 → Recipes 4",
            ])
    }

    @Test("every pair upgrades a seeded store soundly", arguments: try matrices.get().flatMap(\.cases))
    func pair(_ pair: UpgradeMatrix.Pair) throws {
        let matrix = try Self.matrix(for: pair)
        let result = try matrix.check(pair, rows: 20)
        let steps = try matrix.planner.plan(from: pair.from, to: pair.to).steps
        #expect(result.pair == pair)
        #expect(result.steps.count == steps.count)
        #expect(result.pathsCompared == (steps.count > 1 ? 2 : 1))
        let source = try #require(matrix.history.version(named: pair.from))
        #expect(result.seededRows == 20 * source.entities.filter { !$0.isAbstract }.count)
        if let expected = Self.copied[pair.description] {
            #expect(result.copiedEntities == expected)
            #expect((result.valuesCompared > 0) == !expected.isEmpty)
        }
    }

    /// The entities each step of these pairs copies one for one: what the row-count and
    /// value checks cover (a mapping with a policy or a filter is never among them).
    static let copied: [String: [String]] = [
        "Recipes → Recipes 2": ["Ingredient"],
        "Recipes 2 → Recipes 3": ["Chef", "Cuisine", "Recipe"],
        "Recipes 2 → Recipes 4": ["Chef", "Cuisine", "Recipe"],
        "Recipes 3 → Recipes 4": ["Chef", "Cuisine", "Ingredient", "Recipe", "RecipeIngredient", "UnitOfMeasure"],
        "University → University 2": ["University"],
        "University → University 4": [],
        "Events → Events 2": [],
    ]

    @Test("a rename chain is checked through its renames, merged and step by step")
    func renameChain() throws {
        let matrix = try UpgradeMatrix(history: RenameChainHistory.history)
        #expect(matrix.cases.map(\.description) == ["Pets → Pets 2", "Pets → Pets 3", "Pets 2 → Pets 3"])
        let result = try matrix.check(UpgradeMatrix.Pair(from: "Pets", to: "Pets 3"), rows: 20)
        #expect(result.steps == ["Pets → Pets 3 (inferred)"], "one merged pass")
        #expect(result.pathsCompared == 2, "and stopping at Pets 2")
        #expect(result.copiedEntities == ["Person", "Pet"])
        // Person(name, nickname) and Pet(age, name): 4 attributes × 20 rows.
        #expect(result.valuesCompared == 80)
    }

    @Test("the same seed gives the same result; the seed and row count are the caller's")
    func seedAndRows() throws {
        let matrix = try UpgradeMatrix(history: RenameChainHistory.history)
        let pair = UpgradeMatrix.Pair(from: "Pets", to: "Pets 2")
        let small = try matrix.check(pair, rows: 3, seed: 99)
        #expect(small.seededRows == 6)
        #expect(small.valuesCompared == 12)
        #expect(try matrix.check(pair, rows: ["Person": 5, "Pet": 7], seed: 3).seededRows == 12)
    }
}

import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting

/// A temporary folder holding the sample bundles (with `Recipes.mappings/`) and a Recipes
/// store, for the tests that upgrade it through the `stepwise` executable.
struct RecipesStoreFixture {
    let directory: TemporaryDirectory
    /// `Recipes.xcdatamodeld`.
    let bundle: URL
    /// The store, `Recipes.sqlite`.
    let store: URL

    /// A store at `version`: seeded (`generatedRecipes` more recipes than the hand-picked four)
    /// at the oldest version, empty at any other.
    init(version: String = "Recipes", generatedRecipes: Int = 0) throws {
        directory = try TemporaryDirectory()
        _ = try SampleHistories.write(to: directory.url)
        bundle = directory.path("Recipes.xcdatamodeld")
        store = directory.path("Recipes.sqlite")
        guard let model = RecipesHistory.history.version(named: version) else {
            throw FixtureError.unknownVersion(version)
        }
        try StoreCreator.createStore(at: store, model: model)
        if version == RecipesHistory.v1.name {
            try DemoSeed.seedRecipes(at: store, model: model, generatedRecipes: generatedRecipes)
        }
    }

    /// `stepwise upgrade STORE --models BUNDLE` followed by `arguments`.
    func upgradeArguments(_ arguments: String...) -> [String] {
        ["upgrade", store.path, "--models", bundle.path] + arguments
    }

    /// The store's main file, `-wal` and `-shm` (nil when absent), to compare byte for byte.
    func storeBytes() -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: store.path + $0)) }
    }

    /// Row counts of the store's tables, read through its `-wal`.
    func rowCounts() throws -> [String: Int] {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var counts: [String: Int] = [:]
            for table in try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'")
            {
                counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)")
            }
            return counts
        }
    }

    /// Whether a file or folder named `name` sits beside the store.
    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.path(name).path)
    }

    /// The row counts a Recipes 4 store upgraded from a seeded Recipes store must have.
    static func expectedRecipes4Rows(generatedRecipes: Int) -> [String: Int] {
        let generated = generatedRecipes
        let units = Set(["g", "kg", "cans"] + DemoSeed.generatedUnits.prefix(generated))
        return [
            "ZCHEF": 4 + generated, "ZRECIPE": 4 + generated,
            "ZCUISINE": 2 + min(generated, DemoSeed.generatedCuisines.count),
            "ZINGREDIENT": 5 + min(2 * generated, DemoSeed.generatedIngredients.count),
            "ZRECIPEINGREDIENT": 6 + 2 * generated, "ZUNITOFMEASURE": units.count,
        ]
    }
}

/// A fixture asked for something the sample history doesn't have.
enum FixtureError: Error {
    case unknownVersion(String)
}

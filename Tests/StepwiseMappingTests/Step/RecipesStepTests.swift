import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The Recipes history, step by step, with the mappings and policies of `Versions/`.
@Suite("Recipes steps")
struct RecipesStepTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A seeded v1 store.
    func seededV1() throws -> URL {
        let url = directory.path("Recipes.sqlite")
        try StoreCreator.createStore(at: url, model: RecipesHistory.v1)
        try DemoSeed.seedRecipes(at: url)
        return url
    }

    func step(_ from: ObjectModel, _ to: ObjectModel, _ files: [String]) throws -> MigrationStep {
        let models = try files.map { try MappingFile.decode(Data($0.utf8), source: from, destination: to) }
        return MigrationStep(from: from, to: to, mappingModels: models, policies: SamplePolicies.registry)
    }

    func read<T>(_ url: URL, _ model: ObjectModel, _ body: (ObjectContext) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: model)
        return try queue.read { db in try body(ObjectContext(db, layout: layout)) }
    }

    func bytes(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }

    @Test func oneToTwoSplitsNamesMakesOneCuisinePerNameAndKeepsEveryRow() throws {
        let source = try seededV1()
        let before = bytes(source)
        let destination = directory.path("Recipes 2.sqlite")
        let report = try step(RecipesHistory.v1, RecipesHistory.v2, [SampleMappings.recipes1to2])
            .run(source: source, destination: destination)
        #expect(bytes(source) == before, "the source must not change")
        #expect(report.kind == .explicit)

        let result = try read(destination, RecipesHistory.v2) { objects in
            let miguel = try #require(try objects.fetch("Chef", where: .equal("firstName", "Miguel")).first)
            let mexican = try #require(try objects.fetch("Cuisine", where: .equal("name", "Mexican")).first)
            let mexicanRecipes = try objects.related(mexican.id, "recipes").map {
                try objects.object($0).string("name") ?? ""
            }
            let mole = try #require(try objects.fetch("Recipe", where: .equal("name", "Mole Poblano")).first)
            return (
                lastName: miguel.string("lastName"),
                miguelRecipes: try objects.related(miguel.id, "recipes").count,
                chefs: try objects.count("Chef"),
                recipes: try objects.count("Recipe"),
                ingredients: try objects.count("Ingredient"),
                cuisines: try objects.count("Cuisine"),
                mexicanRecipes: Set(mexicanRecipes),
                ratings: try objects.fetch("Recipe").compactMap { $0.int("rating") },
                moleIngredients: try objects.related(mole.id, "ingredients").count,
                orphanIngredients: try objects.count("Ingredient", where: .isNil("recipe"))
            )
        }
        #expect(result.lastName == "Sanchez")
        #expect(result.miguelRecipes == 1)
        #expect(result.chefs == 4)
        #expect(result.recipes == 4)
        #expect(result.ingredients == 6)
        #expect(result.cuisines == 2)
        #expect(result.mexicanRecipes == ["Mole Poblano", "Tacos al Pastor", "Pozole"])
        #expect(result.ratings == [0, 0, 0, 0])
        #expect(result.moleIngredients == 2)
        #expect(result.orphanIngredients == 0)
    }

    /// SQLite keeps "Café" written with é and with e + U+0301 apart; Swift's `String` equality
    /// doesn't. The cuisine cache is keyed by bytes, so each spelling gets its own Cuisine.
    @Test func oneToTwoKeepsCanonicallyEquivalentCuisinesApart() throws {
        let source = directory.path("Cafés.sqlite")
        let precomposed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        try StepFixtures.store(at: source, model: RecipesHistory.v1) { objects in
            for (index, cuisine) in [precomposed, decomposed, precomposed].enumerated() {
                _ = try objects.insert("Recipe", ["name": "Recipe \(index)", "cuisine": cuisine])
            }
        }
        let destination = directory.path("Cafés 2.sqlite")
        _ = try step(RecipesHistory.v1, RecipesHistory.v2, [SampleMappings.recipes1to2])
            .run(source: source, destination: destination)
        let cuisines = try read(destination, RecipesHistory.v2) { objects in
            try objects.fetch("Cuisine").map { cuisine in
                (Array((cuisine.string("name") ?? "").unicodeScalars), try objects.related(cuisine.id, "recipes").count)
            }
        }
        #expect(cuisines.count == 2)
        #expect(
            cuisines.map(\.0).sorted { $0.count < $1.count } == [
                Array(precomposed.unicodeScalars), Array(decomposed.unicodeScalars),
            ])
        #expect(cuisines.map(\.1).sorted() == [1, 2])
    }

    @Test func theDestinationHasTheNewVersionsMetadataAndTheSourcesUUID() throws {
        let source = try seededV1()
        let destination = directory.path("Recipes 2.sqlite")
        _ = try step(RecipesHistory.v1, RecipesHistory.v2, [SampleMappings.recipes1to2])
            .run(source: source, destination: destination)
        let (sourceMetadata, destinationMetadata, maxima) = try {
            let sourceQueue = try DatabaseQueue(path: source.path)
            defer { try? sourceQueue.close() }
            let destinationQueue = try DatabaseQueue(path: destination.path)
            defer { try? destinationQueue.close() }
            return (
                try sourceQueue.read { try StoreMetadata.read(from: $0, path: source.path) },
                try destinationQueue.read { try StoreMetadata.read(from: $0, path: destination.path) },
                try destinationQueue.read { db in
                    try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_NAME")
                        .map { "\($0["Z_NAME"] as String)=\($0["Z_MAX"] as Int)" }
                }
            )
        }()
        #expect(destinationMetadata.versionHashes == RecipesHistory.v2.entityVersionHashes)
        #expect(destinationMetadata.modelVersionName == "Recipes 2")
        #expect(destinationMetadata.storeUUID == sourceMetadata.storeUUID)
        #expect(maxima == ["Chef=4", "Cuisine=2", "Ingredient=6", "Recipe=4"])
    }

    @Test func twoToThreeSharesIngredientsWithoutDuplicates() throws {
        let v1 = try seededV1()
        let v2 = directory.path("Recipes 2.sqlite")
        let v3 = directory.path("Recipes 3.sqlite")
        _ = try step(RecipesHistory.v1, RecipesHistory.v2, [SampleMappings.recipes1to2]).run(
            source: v1, destination: v2)
        _ = try step(RecipesHistory.v2, RecipesHistory.v3, [SampleMappings.recipes2to3]).run(
            source: v2, destination: v3)
        let result = try read(v3, RecipesHistory.v3) { objects in
            let chiles = try #require(try objects.fetch("Ingredient", where: .equal("name", "chiles")).first)
            let chileRecipes = try objects.related(chiles.id, "recipeIngredients").compactMap {
                try objects.related($0, "recipe").first.map { try objects.object($0).string("name") ?? "" }
            }
            let chocolateLink = try #require(
                try objects.fetch("RecipeIngredient", where: .equal("quantity", "50")).first)
            let unit = try objects.related(chocolateLink.id, "unit").first.map { try objects.object($0).string("name") }
            return (
                ingredients: try objects.count("Ingredient"),
                links: try objects.count("RecipeIngredient"),
                units: Set(try objects.fetch("UnitOfMeasure").compactMap { $0.string("name") }),
                chileRecipes: Set(chileRecipes),
                chocolateUnit: unit ?? nil,
                recipes: try objects.count("Recipe"),
                cuisines: try objects.count("Cuisine"),
                unlinked: try objects.count("RecipeIngredient", where: .isNil("recipe") || .isNil("ingredient"))
            )
        }
        #expect(result.ingredients == 5)
        #expect(result.links == 6)
        #expect(result.units == ["g", "kg", "cans"])
        #expect(result.chileRecipes == ["Mole Poblano", "Tacos al Pastor"])
        #expect(result.chocolateUnit == "g")
        #expect(result.recipes == 4)
        #expect(result.cuisines == 2)
        #expect(result.unlinked == 0)
    }

    @Test func threeToFourIsInferredAndRunsAsSetBasedSQL() throws {
        let v1 = try seededV1()
        let v2 = directory.path("2.sqlite")
        let v3 = directory.path("3.sqlite")
        let v4 = directory.path("4.sqlite")
        _ = try step(RecipesHistory.v1, RecipesHistory.v2, [SampleMappings.recipes1to2]).run(
            source: v1, destination: v2)
        _ = try step(RecipesHistory.v2, RecipesHistory.v3, [SampleMappings.recipes2to3]).run(
            source: v2, destination: v3)
        let report = try MigrationStep(from: RecipesHistory.v3, to: RecipesHistory.v4).run(source: v3, destination: v4)
        #expect(report.kind == .inferred)
        #expect(report.entityMappings.allSatisfy { $0.setBased })
        let counts = try read(v4, RecipesHistory.v4) { objects in
            try ["Chef", "Cuisine", "Ingredient", "Recipe", "RecipeIngredient", "UnitOfMeasure"].map {
                try objects.count($0)
            }
        }
        #expect(counts == [4, 2, 5, 4, 6, 3])
        let links = try read(v4, RecipesHistory.v4) { objects in
            try objects.count(
                "RecipeIngredient", where: .isNotNil("recipe") && .isNotNil("ingredient") && .isNotNil("unit"))
        }
        #expect(links == 4)  // "chiles" (amounts "6" and "2") has no unit
    }
}

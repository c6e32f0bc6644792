import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `Versions/` is generated from the Swift sample histories; these tests keep them equal,
/// so the demo's embedded models and the files on disk can't drift apart.
@Suite("Sample histories in Versions/")
struct SampleHistoriesTests {
    static let versionsFolder = Corpus.packageRoot.appendingPathComponent("Versions")

    @Test(arguments: SampleHistories.all.map(\.name))
    func theBundleInVersionsEqualsTheSwiftDefinition(name: String) throws {
        let sample = try #require(SampleHistories.all.first { $0.name == name })
        let bundle = try ModelBundle(contentsOf: Self.versionsFolder.appendingPathComponent("\(name).xcdatamodeld"))
        #expect(bundle.history.names == sample.history.names, "run Scripts/regenerate-versions.sh")
        #expect(bundle.history == sample.history, "run Scripts/regenerate-versions.sh")
        #expect(bundle.current.name == sample.history.latest?.name)
    }

    @Test(arguments: SampleHistories.all.map(\.name))
    func theMappingFilesInVersionsEqualTheSwiftText(name: String) throws {
        let sample = try #require(SampleHistories.all.first { $0.name == name })
        let folder = Self.versionsFolder.appendingPathComponent("\(name).mappings")
        let onDisk = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(Set(onDisk) == Set(sample.mappingFiles.keys), "run Scripts/regenerate-versions.sh")
        for (file, text) in sample.mappingFiles {
            let contents = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(contents == text, "\(file) differs; run Scripts/regenerate-versions.sh")
        }
    }

    @Test func recipesVersionsAllHaveDistinctHashes() {
        let hashes = RecipesHistory.history.versions.map(\.entityVersionHashes)
        #expect(Set(hashes).count == 4)
        #expect(RecipesHistory.history.names == ["Recipes", "Recipes 2", "Recipes 3", "Recipes 4"])
    }

    @Test func theDemoSeedWritesKnownRows() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Recipes.sqlite")
        try StoreCreator.createStore(at: url, model: RecipesHistory.v1)
        #expect(try DemoSeed.seedRecipes(at: url) == 14)
        let layout = try StoreLayout(model: RecipesHistory.v1)
        let queue = try DatabaseQueue(path: url.path)
        let (mexican, chefs, moleChef, ingredients) = try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            let mole = try #require(try objects.fetch("Recipe", where: .equal("name", "Mole Poblano")).first)
            let chef = try objects.related(mole.id, "chef").first.map { try objects.object($0).string("name") }
            return (
                try objects.count("Recipe", where: .equal("cuisine", "Mexican")),
                try objects.count("Chef"),
                chef,
                try objects.related(mole.id, "ingredients").count
            )
        }
        #expect(mexican == 3)
        #expect(chefs == 4)
        #expect(moleChef == "Miguel Sanchez")
        #expect(ingredients == 2)
        try queue.close()
    }
}

import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("stepwise plan")
struct PlanCommandTests {
    let runner: CommandRunner
    let directory: TemporaryDirectory

    init() throws {
        runner = try CommandRunner()
        directory = try TemporaryDirectory()
    }

    /// The Recipes bundle and mappings, and a store at `version`.
    func store(at version: String) throws -> (store: String, bundle: String) {
        _ = try SampleHistories.write(to: directory.url)
        let url = directory.path("\(version).sqlite")
        let model = try #require(RecipesHistory.history.version(named: version))
        try StoreCreator.createStore(at: url, model: model)
        return (url.path, directory.path("Recipes.xcdatamodeld").path)
    }

    @Test func jsonListsEachStepWithItsKindAndMappings() throws {
        let (store, bundle) = try store(at: "Recipes")
        let result = try runner.run(["plan", store, "--models", bundle, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["from"] as? String == "Recipes")
        #expect(json["to"] as? String == "Recipes 4")
        #expect(json["matchedBy"] as? String == "hash")
        #expect(json["upToDate"] as? Bool == false)
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { $0["kind"] as? String } == ["explicit", "explicit", "inferred"])
        #expect(steps.map { $0["to"] as? String } == ["Recipes 2", "Recipes 3", "Recipes 4"])
    }

    @Test func textNamesThePoliciesAndAStoreAtTheTargetIsUpToDate() throws {
        let (oldStore, bundle) = try store(at: "Recipes 2")
        let text = try runner.run(["plan", oldStore, "--models", bundle])
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("at 'Recipes 2' (matched by hash)"))
        #expect(text.standardOutput.contains("Recipes 2 → Recipes 3  explicit"))
        #expect(text.standardOutput.contains("SharedIngredientPolicy"))
        #expect(text.standardOutput.contains("2 step(s) to 'Recipes 4', 1 explicit."))
        let upToDate = try runner.run(["plan", oldStore, "--models", bundle, "--to", "Recipes 2", "--format", "json"])
        #expect(try upToDate.json()["upToDate"] as? Bool == true)
    }

    @Test(arguments: [("dot", "digraph plan {"), ("mermaid", "graph LR")])
    func graphFormatsDrawTheVersionGraph(format: String, header: String) throws {
        let (store, bundle) = try store(at: "Recipes")
        let result = try runner.run(["plan", store, "--models", bundle, "--format", format])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix(header))
        #expect(result.standardOutput.contains("Recipes 4"))
    }

    @Test func aMissingMappingFileIsNamedWithWhatToAdd() throws {
        let (store, bundle) = try store(at: "Recipes")
        let empty = directory.path("no-mappings")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try runner.run(["plan", store, "--models", bundle, "--mappings", empty.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("Add a mapping file 'Recipes to Recipes 2.json'"))
    }

    /// The rename chain written as a bundle, and a store at its first version.
    func renameChain() throws -> (store: String, bundle: String) {
        let bundle = directory.path("Pets.xcdatamodeld")
        try XcodeModelWriter.writeBundle(RenameChainHistory.history.versions, current: "Pets 3", to: bundle)
        let store = directory.path("Pets.sqlite")
        try RenameChainHistory.seed(at: store)
        return (store.path, bundle.path)
    }

    @Test func consecutiveInferredStepsThatComposeAreShownAsOnePass() throws {
        let (store, bundle) = try renameChain()
        let text = try runner.run(["plan", store, "--models", bundle])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("1. Pets → Pets 3  inferred, one pass via Pets 2 (Pets → Pets 3)"))
        #expect(text.standardOutput.contains("1 step(s) to 'Pets 3', 0 explicit."))
        let json = try runner.run(["plan", store, "--models", bundle, "--format", "json"]).json()
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.count == 1)
        #expect(steps.first?["via"] as? [String] == ["Pets 2"])
        #expect(steps.first?["mappingModels"] as? [String] == ["Pets → Pets 3"])
        let dot = try runner.run(["plan", store, "--models", bundle, "--format", "dot"])
        #expect(dot.standardOutput.contains("v0 -> v1 [label=\"inferred\", style=dashed, penwidth=3];"))
        #expect(dot.standardOutput.contains("v1 -> v2 [label=\"inferred\", style=dashed, penwidth=3];"))
        let mermaid = try runner.run(["plan", store, "--models", bundle, "--format", "mermaid"])
        #expect(mermaid.standardOutput.contains("v0 ==>|inferred| v1"))
        #expect(mermaid.standardOutput.contains("v1 ==>|inferred| v2"))
    }

    /// A store of Journal 2 as it shipped, before an edit in place, known only by its own model
    /// cache: the plan joins the history at Journal 2 and says why (`CachedRenameHistory`).
    @Test func aPlanFromTheModelCacheSaysWhereItJoinsTheHistoryAndWhy() throws {
        let bundle = directory.path("Journal.xcdatamodeld")
        try XcodeModelWriter.writeBundle(CachedRenameHistory.history.versions, current: "Journal 4", to: bundle)
        let store = directory.path("Journal.sqlite")
        try CachedRenameHistory.seed(at: store)
        let text = try runner.run(["plan", store.path, "--models", bundle.path])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("(matched by modelCache)"))
        #expect(
            text.standardOutput.contains(
                "Note: the store's cached model differs least from 'Journal 2' (1 difference: Entry.pinned was added (Boolean, optional)), so the plan joins the history there: the step straight to 'Journal 4' would drop Entry.body (removed from the model)."
            ))
        #expect(
            text.standardOutput.contains(
                "1. Journal.sqlite's model cache → Journal 4  inferred, one pass via Journal 2, Journal 3"))
        #expect(!text.standardOutput.contains("drops "))

        let json = try runner.run(["plan", store.path, "--models", bundle.path, "--format", "json"]).json()
        let join = try #require(json["modelCacheJoin"] as? [String: Any])
        #expect(join["version"] as? String == "Journal 2")
        #expect(join["route"] as? String == "throughVersion")
        #expect((json["drops"] as? [Any])?.isEmpty == true)

        // Both of the cache's edges are drawn; the plan's, through Journal 2, is the thick one.
        let dot = try runner.run(["plan", store.path, "--models", bundle.path, "--format", "dot"]).standardOutput
        #expect(dot.contains("cache -> v1 [label=\"inferred\", style=dashed, penwidth=3];"))
        #expect(dot.contains("cache -> v3 [label=\"inferred\", style=dashed];"))
    }

    @Test func unmergedStepsHaveAnEmptyVia() throws {
        let (store, bundle) = try store(at: "Recipes")
        let json = try runner.run(["plan", store, "--models", bundle, "--format", "json"]).json()
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { ($0["via"] as? [String])?.isEmpty } == [true, true, true])
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func theInconsistentCorpusStoreIsRefused() throws {
        let corpus = try Corpus.required()
        let copy = try corpus.copyStore("apptentive-ios/stores/v2CorruptDatabase/ATDataModel.sqlite", to: directory.url)
        let result = try runner.run([
            "plan", copy.path, "--models", corpus.url("apptentive-ios/model/ATDataModel.xcdatamodeld").path,
        ])
        // Damaged: 66, as a file that is no store.
        #expect(result.status == 66)
        #expect(result.standardError.contains("inconsistent"))
    }

    /// `plan` and `upgrade` decide through the same phase (`Upgrader.plan(forStoreAt:)`), so
    /// they refuse the same stores with the same error.
    @Test(arguments: [
        ("Recipes 4", ["--to", "Recipes 2"], "laterThanTarget", Int32(3)),
        ("Recipes", ["--to", "Recipes 9"], "unknownVersion", Int32(65)),
    ])
    func planRefusesWhatUpgradeRefuses(version: String, options: [String], kind: String, status: Int32) throws {
        let (store, bundle) = try store(at: version)
        let before = FileManager.default.contents(atPath: store)
        let plan = try runner.run(["plan", store, "--models", bundle, "--format", "json"] + options)
        let upgrade = try runner.run(["upgrade", store, "--models", bundle, "--json"] + options)
        #expect(plan.status == status && upgrade.status == status)
        let planError = try #require(try plan.json()["error"] as? [String: Any])
        let upgradeError = try #require(try upgrade.json()["error"] as? [String: Any])
        #expect(planError["type"] as? String == "UpgradeError")
        #expect(planError["kind"] as? String == kind)
        #expect(upgradeError["type"] as? String == planError["type"] as? String)
        #expect(upgradeError["kind"] as? String == kind)
        #expect(FileManager.default.contents(atPath: store) == before)
    }
}

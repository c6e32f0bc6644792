import Foundation
import StepwiseTestSupport
import Testing

/// A consecutive pair of versions for `stepwise diff`, and whether its mapping is inferable.
struct DiffPair: Sendable, CustomTestStringConvertible {
    var bundle: String
    var from: String
    var to: String
    var isInferable: Bool

    var testDescription: String { "\(from) → \(to)" }

    /// Every consecutive pair of the corpus bundles; only wibosco 2 → 3 can't be inferred (see
    /// MappingInferenceCorpusTests for why).
    static let corpus: [DiffPair] = CorpusBundle.allCases.flatMap { bundle in
        (1..<bundle.versionCount).map { number in
            let notInferable: Set<String> = ["CoreDataMigration_Example 2"]
            return DiffPair(
                bundle: bundle.path, from: bundle.versionName(number), to: bundle.versionName(number + 1),
                isInferable: !notInferable.contains(bundle.versionName(number)))
        }
    }

    /// Versions/Recipes: 1 → 2 and 2 → 3 need explicit mappings, 3 → 4 is lightweight.
    static let recipes: [DiffPair] = [
        DiffPair(bundle: "Versions/Recipes.xcdatamodeld", from: "Recipes", to: "Recipes 2", isInferable: false),
        DiffPair(bundle: "Versions/Recipes.xcdatamodeld", from: "Recipes 2", to: "Recipes 3", isInferable: true),
        DiffPair(bundle: "Versions/Recipes.xcdatamodeld", from: "Recipes 3", to: "Recipes 4", isInferable: true),
    ]

    /// Versions/University and Versions/Events. University 2 → 3 and Events 1 → 2 are
    /// inferable only as removals plus additions (their mapping files keep the values);
    /// University 3 → 4 turns an attribute into a relationship, which inference refuses.
    static let otherSamples: [DiffPair] = [
        DiffPair(bundle: "Versions/University.xcdatamodeld", from: "University", to: "University 2", isInferable: true),
        DiffPair(
            bundle: "Versions/University.xcdatamodeld", from: "University 2", to: "University 3", isInferable: true),
        DiffPair(
            bundle: "Versions/University.xcdatamodeld", from: "University 3", to: "University 4", isInferable: false),
        DiffPair(bundle: "Versions/Events.xcdatamodeld", from: "Events", to: "Events 2", isInferable: true),
    ]
}

@Suite("stepwise diff")
struct DiffCommandTests {
    let runner: CommandRunner

    init() throws {
        runner = try CommandRunner()
    }

    var recipesBundle: String {
        Corpus.packageRoot.appendingPathComponent("Versions/Recipes.xcdatamodeld").path
    }

    @Test(arguments: DiffPair.recipes + DiffPair.otherSamples)
    func diffsEverySampleStep(_ pair: DiffPair) throws {
        try checkDiff(pair, bundle: Corpus.packageRoot.appendingPathComponent(pair.bundle).path)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: DiffPair.corpus)
    func diffsEveryCorpusStep(_ pair: DiffPair) throws {
        try checkDiff(pair, bundle: Corpus.required().url(pair.bundle).path)
    }

    /// Text and JSON: exit 0 with a diff, or exit 1 with the reasons on standard output.
    private func checkDiff(_ pair: DiffPair, bundle: String) throws {
        // --inferred: these pairs check inference, also for steps that have mapping files.
        let arguments = ["diff", "--models", bundle, "--from", pair.from, "--to", pair.to, "--inferred"]
        let text = try runner.run(arguments)
        #expect(text.status == (pair.isInferable ? 0 : 1), "\(text.standardError)")
        #expect(text.standardError.isEmpty)
        let firstLine = text.standardOutput.split(separator: "\n").first.map(String.init)
        if pair.isInferable {
            #expect(firstLine == "\(pair.from) → \(pair.to)")
        } else {
            #expect(firstLine == "\(pair.from) → \(pair.to): can't be inferred")
            #expect(text.standardOutput.contains("    Fix: "))
        }

        let result = try runner.run(arguments + ["--json"])
        #expect(result.status == text.status)
        let json = try result.json()
        #expect(json["inferable"] as? Bool == pair.isInferable)
        #expect(json["from"] as? String == pair.from)
        #expect(json["to"] as? String == pair.to)
        if pair.isInferable {
            let entities = try #require(json["entities"] as? [[String: Any]])
            #expect(!entities.isEmpty)
            for entity in entities {
                #expect(
                    Set(entity.keys)
                        == [
                            "name", "oldName", "change", "mapping", "mappingKind", "isAbstract", "parent", "properties",
                            "dropped",
                        ])
                for property in entity["properties"] as? [[String: Any]] ?? [] {
                    #expect(
                        Set(property.keys)
                            == [
                                "name", "oldName", "kind", "change", "type", "oldType", "widening", "notes", "dropped",
                            ])
                }
            }
            #expect(json["problems"] == nil)
        } else {
            let problems = try #require(json["problems"] as? [[String: Any]])
            #expect(!problems.isEmpty)
            for problem in problems {
                #expect(Set(problem.keys) == ["entity", "property", "reason", "message", "fix"])
                #expect(problem["reason"] is [String: Any])
            }
            #expect(json["entities"] == nil)
        }
    }

    @Test func reportsEveryReasonWithItsFix() throws {
        let result = try runner.run([
            "diff", "--models", recipesBundle, "--from", "Recipes", "--to", "Recipes 2", "--inferred",
        ])
        #expect(result.status == 1)
        #expect(
            result.standardOutput == """
                Recipes → Recipes 2: can't be inferred
                  - Recipe.cuisine: was an attribute and becomes a relationship.
                    Fix: Give the new property another name (and remove its renaming identifier), or write an explicit mapping for Recipe.cuisine.
                Write an explicit mapping model for this step.

                """)
    }

    @Test func printsTheDiffOfALightweightStep() throws {
        let result = try runner.run(["diff", "--models", recipesBundle, "--from", "Recipes 3", "--to", "Recipes 4"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput.contains(
                "  ~ Chef: changed (mapping ChefToChef)\n      + email: String, NULL in existing rows\n"))
        #expect(result.standardOutput.contains("  = Cuisine: unchanged (2 properties)\n"))
    }

    @Test func jsonNamesEachProblemsReason() throws {
        let result = try runner.run([
            "diff", "--models", recipesBundle, "--from", "Recipes", "--to", "Recipes 2", "--json", "--inferred",
        ])
        #expect(result.status == 1)
        let problems = try #require(try result.json()["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["entity"] as? String == "Recipe")
        #expect(problems.first?["property"] as? String == "cuisine")
        let reason = try #require(problems.first?["reason"] as? [String: [String: Bool]])
        #expect(reason == ["propertyKindChange": ["wasRelationship": false]])
    }

    /// Recipes 2 → 3 points Recipe.ingredients at the new RecipeIngredient: inferred, as Core
    /// Data infers it, its links to Ingredients are left out, and the diff says so.
    @Test func marksTheLinksAnInferredStepLeavesOutWhenADestinationChanges() throws {
        let result = try runner.run([
            "diff", "--models", recipesBundle, "--from", "Recipes 2", "--to", "Recipes 3", "--inferred",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains(
                "      ~ ingredients: to-many RecipeIngredient, destination Ingredient → RecipeIngredient, links to Ingredient dropped (they don't become the new destination)\n"
            ))
    }

    @Test func describesAStepsExplicitMappingWhenItHasOne() throws {
        let result = try runner.run([
            "diff", "--models", recipesBundle, "--from", "Recipes 2", "--to", "Recipes 3", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["mapping"] as? String == "explicit")
        let files = try #require(json["mappingFiles"] as? [[String: Any]])
        #expect(
            files.map { URL(fileURLWithPath: $0["path"] as? String ?? "").lastPathComponent } == [
                "Recipes 2 to Recipes 3.json"
            ])
        let entities = try #require(json["entities"] as? [[String: Any]])
        // The mapping carries every Recipes 2 entity: nothing is dropped.
        #expect(entities.allSatisfy { $0["dropped"] is NSNull })
    }

    @Test func toDefaultsToTheNextVersion() throws {
        let result = try runner.run(["diff", "--models", recipesBundle, "--from", "Recipes 3", "--json"])
        #expect(result.status == 0)
        #expect(try result.json()["to"] as? String == "Recipes 4")
    }

    @Test func theNewestVersionNeedsAnExplicitTo() throws {
        let result = try runner.run(["diff", "--models", recipesBundle, "--from", "Recipes 4"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("'Recipes 4' is the newest version"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func anUnknownVersionListsTheAvailableOnes() throws {
        let result = try runner.run(["diff", "--models", recipesBundle, "--from", "Recipes 9"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("Recipes 4"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func helpExplainsTheCommandWithAnExample() throws {
        let result = try runner.run(["diff", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("--from"))
        #expect(
            result.standardOutput.contains("stepwise diff --models Moody.xcdatamodeld --from Moody --to \"Moody 2\""))
        #expect(try runner.run(["--help"]).standardOutput.contains("diff"))
    }
}

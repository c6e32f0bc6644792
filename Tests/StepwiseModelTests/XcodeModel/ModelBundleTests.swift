import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("ModelBundle")
struct ModelBundleTests {
    /// Three small versions named so that natural order is "Recipes", "Recipes 2", "Recipes 3".
    static let recipes: [ObjectModel] = (1...3).map { number in
        let name = number == 1 ? "Recipes" : "Recipes \(number)"
        return ObjectModel(
            name, versionIdentifiers: [String(number)],
            entities: [Entity("Recipe", attributes: (1...number).map { Attribute("field\($0)", .string) })])
    }

    /// Writes the recipes bundle into `directory`, with an optional history file beside it.
    /// `validating: false` lets a test write a `current` the bundle doesn't have.
    static func writeRecipes(
        in directory: TemporaryDirectory, current: String = "Recipes 3", history: String? = nil,
        validating: Bool = true
    ) throws -> URL {
        let url = directory.path("Recipes.xcdatamodeld")
        try XcodeModelWriter.writeBundle(recipes, current: current, to: url, validating: validating)
        if let history {
            try Data(history.utf8).write(to: ModelBundle.historyFileURL(for: url))
        }
        return url
    }

    // MARK: - Corpus bundles

    @Test(
        "Orders corpus versions naturally and takes the current version from .xccurrentversion",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusBundle.allCases)
    func readsCorpusBundle(_ corpusBundle: CorpusBundle) throws {
        let corpus = try Corpus.required()
        let bundle = try ModelBundle(contentsOf: corpus.url(corpusBundle))
        #expect(bundle.history.names == corpusBundle.versionNames)
        #expect(bundle.current.name == corpusBundle.currentVersionName)
        #expect(bundle.current == bundle.history.latest)
        #expect(bundle.url == corpus.url(corpusBundle).standardizedFileURL)
        for name in corpusBundle.versionNames {
            #expect(try bundle.version(named: name) == corpus.readVersion(name))
        }
    }

    @Test(
        "Reads the Moody bundle in order with its current version",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsMoodyBundle() throws {
        let bundle = try ModelBundle(contentsOf: Corpus.required().url(CorpusBundle.moody))
        #expect(bundle.history.names == ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5", "Moody 6"])
        #expect(bundle.current.name == "Moody 6")
        #expect(bundle.history.versions.map(\.versionIdentifiers) == [["1"], ["2"], ["3"], ["4"], ["5"], ["6"]])
        #expect(bundle.current.entityNames == ["Continent", "Country", "Mood"])
    }

    @Test(
        "The current versions are ATDataModel 6, Moody 6 and CoreDataMigration_Example 4",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func corpusCurrentVersions() throws {
        let corpus = try Corpus.required()
        let current = try CorpusBundle.allCases.map {
            try ModelBundle(contentsOf: corpus.url($0)).current.name
        }
        #expect(current == ["ATDataModel 6", "Moody 6", "CoreDataMigration_Example 4"])
    }

    @Test(
        "A single .xcdatamodel loads as a one-version bundle",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func singleVersionLoadsAsBundle() throws {
        let corpus = try Corpus.required()
        let url = try corpus.versionURL("Moody 2")
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.history.names == ["Moody 2"])
        #expect(bundle.current.name == "Moody 2")
        #expect(bundle.current == (try corpus.readVersion("Moody 2")))
        #expect(bundle.url == url.standardizedFileURL)
    }

    @Test(
        "A version asked for by an unknown name lists the available ones",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func unknownVersionListsAvailable() throws {
        let url = try Corpus.required().url(CorpusBundle.wibosco)
        let bundle = try ModelBundle(contentsOf: url)
        let error = #expect(throws: ModelError.self) { try bundle.version(named: "CoreDataMigration_Example 5") }
        #expect(
            error?.kind
                == .unknownVersion(
                    "CoreDataMigration_Example 5",
                    available: [
                        "CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 3",
                        "CoreDataMigration_Example 4",
                    ]))
    }

    // MARK: - Written bundles and history files

    @Test("A bundle written with the writer reads back in natural order")
    func writtenBundleReadsInNaturalOrder() throws {
        let directory = try TemporaryDirectory()
        let bundle = try ModelBundle(contentsOf: Self.writeRecipes(in: directory, current: "Recipes 2"))
        #expect(bundle.history.versions == Self.recipes)
        #expect(bundle.current.name == "Recipes 2")
    }

    @Test("Without .xccurrentversion the newest version is current")
    func newestIsCurrentWithoutPlist() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.writeRecipes(in: directory)
        try FileManager.default.removeItem(at: url.appendingPathComponent(".xccurrentversion"))
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.current.name == "Recipes 3")
    }

    @Test("A history file beside the bundle overrides the natural order")
    func historyFileOverridesOrder() throws {
        let directory = try TemporaryDirectory()
        let history = """
            # Recipes shipped 3 before 2.
            Recipes

            Recipes 3.xcdatamodel   # the hotfix
              Recipes 2
            """
        let url = try Self.writeRecipes(in: directory, history: history)
        #expect(ModelBundle.historyFileURL(for: url).path == directory.path("Recipes.history").path)
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.history.names == ["Recipes", "Recipes 3", "Recipes 2"])
        #expect(bundle.history.versions.map(\.versionIdentifiers) == [["1"], ["3"], ["2"]])
        // The current version still comes from .xccurrentversion, not from the history's end.
        #expect(bundle.current.name == "Recipes 3")
    }

    @Test("A history file orders versions whose names share no stem")
    func historyFileOrdersUnrelatedNames() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Shop.xcdatamodeld")
        let versions = ["Launch", "Spring Sale", "Holiday"].map { ObjectModel($0, entities: [Entity("Item")]) }
        try XcodeModelWriter.writeBundle(versions, current: "Holiday", to: url)
        // 'Holiday' is current, so last; nothing orders the other two. The bundle is still read,
        // in name order: only a plan between versions needs the order, and it throws this.
        let unordered = try ModelBundle(contentsOf: url)
        #expect(unordered.history.names == ["Holiday", "Launch", "Spring Sale"])
        #expect(unordered.current.name == "Holiday")
        let ambiguous = ModelError(
            path: url.standardizedFileURL.path,
            kind: .ambiguousOrder(
                ["Launch", "Spring Sale"],
                reason:
                    "the names have 3 stems ('Holiday', 'Launch', 'Spring Sale'), and nothing in the bundle tells which comes first: 'Launch' or 'Spring Sale'"
            ))
        #expect(unordered.order == .failure(ambiguous))
        #expect(throws: ambiguous) { try unordered.orderedHistory() }
        #expect(
            ambiguous.description
                == "can't order the model versions 'Launch', 'Spring Sale' (\(url.standardizedFileURL.path)): the names have 3 stems ('Holiday', 'Launch', 'Spring Sale'), and nothing in the bundle tells which comes first: 'Launch' or 'Spring Sale'. List them oldest first, one per line, in Shop.history beside the bundle, or pass an explicit order."
        )
        try Data("Launch\nSpring Sale\nHoliday\n".utf8).write(to: directory.path("Shop.history"))
        let ordered = try ModelBundle(contentsOf: url)
        #expect(ordered.history.names == ["Launch", "Spring Sale", "Holiday"])
        #expect(
            ordered.order
                == .success(
                    VersionOrder(
                        names: ["Launch", "Spring Sale", "Holiday"],
                        source: .historyFile(directory.path("Shop.history").standardizedFileURL.path))))
    }

    @Test(
        "A history file that names an unknown version, leaves one out or repeats one is a mismatch",
        arguments: [
            ("Recipes\nRecipes 2\nRecipes 3\nRecipes 4\n", ["Recipes 4"], [String]()),
            ("Recipes\nRecipes 3\n", [], ["Recipes 2"]),
            ("Recipes\nRecipes 2\nRecipes 9\n", ["Recipes 9"], ["Recipes 3"]),
            ("Recipes\nRecipes 2\nRecipes 3\nRecipes 2\n", [], []),
        ])
    func historyFileMismatchIsReported(_ history: String, _ unknown: [String], _ missing: [String]) throws {
        let directory = try TemporaryDirectory()
        let url = try Self.writeRecipes(in: directory, history: history)
        // The bundle is read; what needs its order gets the mismatch.
        let bundle = try ModelBundle(contentsOf: url)
        let file = ModelBundle.historyFileURL(for: url.standardizedFileURL).path
        let mismatch = ModelError.historyFileMismatch(file: file, unknown: unknown, missing: missing)
        #expect(bundle.order == .failure(mismatch))
        #expect(throws: mismatch) { try bundle.orderedHistory() }
        #expect(bundle.history.names == ["Recipes", "Recipes 2", "Recipes 3"])
    }

    // MARK: - Errors

    @Test("A missing path is not found")
    func missingPathIsNotFound() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Nothing.xcdatamodeld")
        let error = #expect(throws: ModelError.self) { try ModelBundle(contentsOf: url) }
        #expect(error == ModelError(path: url.standardizedFileURL.path, kind: .notFound))
    }

    @Test("A folder that is not a model is rejected")
    func otherFolderIsNotAModel() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: ModelError.self) { try ModelBundle(contentsOf: directory.url) }
        #expect(error?.kind == .notAModel)
    }

    @Test("A bundle without versions is empty")
    func bundleWithoutVersionsIsEmpty() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Empty.xcdatamodeld")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let error = #expect(throws: ModelError.self) { try ModelBundle(contentsOf: url) }
        #expect(error?.kind == .emptyBundle)
    }

    @Test("A current version the bundle doesn't have is reported")
    func unknownCurrentVersionIsReported() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.writeRecipes(in: directory, current: "Recipes 7", validating: false)
        let error = #expect(throws: ModelError.self) { try ModelBundle(contentsOf: url) }
        #expect(error?.kind == .unknownCurrentVersion("Recipes 7"))
    }

    @Test("An old-format version with only elements and layout is a legacy binary model")
    func legacyVersionInBundleIsReported() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.writeRecipes(in: directory)
        let legacy = url.appendingPathComponent("Recipes 4.xcdatamodel")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data("bplist00".utf8).write(to: legacy.appendingPathComponent("elements"))
        try Data("bplist00".utf8).write(to: legacy.appendingPathComponent("layout"))
        for target in [url, legacy] {
            let error = try #require(#expect(throws: ModelError.self) { try ModelBundle(contentsOf: target) })
            #expect(error == ModelError(path: legacy.standardizedFileURL.path, kind: .legacyBinaryFormat))
            #expect(error.description.contains("pre-Xcode 4 binary model format ('elements'/'layout')"))
        }
    }

    @Test("Malformed XML in a version is reported as malformed")
    func malformedVersionIsReported() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.writeRecipes(in: directory)
        let contents = url.appendingPathComponent("Recipes 2.xcdatamodel/contents")
        try Data("<model><entity name=\"Recipe\">".utf8).write(to: contents)
        let error = try #require(#expect(throws: ModelError.self) { try ModelBundle(contentsOf: url) })
        #expect(error.path == contents.standardizedFileURL.path)
        guard case .malformed = error.kind else {
            Issue.record("expected .malformed, got \(error.kind)")
            return
        }
    }

    @Test("A bad attribute type in a version names the entity and property")
    func badAttributeTypeIsReported() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.writeRecipes(in: directory)
        let contents = url.appendingPathComponent("Recipes 3.xcdatamodel/contents")
        let xml = #"<model><entity name="Recipe"><attribute name="field1" attributeType="Text"/></entity></model>"#
        try Data(xml.utf8).write(to: contents)
        let error = try #require(#expect(throws: ModelError.self) { try ModelBundle(contentsOf: url) })
        #expect(
            error
                == ModelError(
                    path: contents.standardizedFileURL.path,
                    kind: .invalidValue(element: "attribute 'Recipe.field1'", attribute: "attributeType", value: "Text")
                ))
        #expect(error.description.contains("Recipe.field1"))
    }

    @Test("An invalid version fails validation, naming its contents file")
    func invalidVersionFailsValidation() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Broken.xcdatamodeld")
        let broken = ObjectModel(
            "Broken", entities: [Entity("A", relationships: [Relationship("b", destination: "B")])])
        try XcodeModelWriter.writeBundle([broken], current: "Broken", to: url, validating: false)
        let error = #expect(throws: ModelError.self) { try ModelBundle(contentsOf: url) }
        #expect(
            error
                == ModelError(
                    version: "Broken",
                    file: url.standardizedFileURL.appendingPathComponent("Broken.xcdatamodel/contents").path,
                    problems: [.unknownDestination(entity: "A", relationship: "b", destination: "B")]))
    }
}

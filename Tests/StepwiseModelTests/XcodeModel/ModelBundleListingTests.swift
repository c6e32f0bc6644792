import Foundation
import StepwiseModel
import StepwiseTesting
import Testing

@Suite("ModelBundleListing")
struct ModelBundleListingTests {
    /// Writes the three-version recipes bundle of ``ModelBundleTests``.
    private func writeRecipes(
        in directory: TemporaryDirectory, current: String = "Recipes 3", history: String? = nil,
        validating: Bool = true
    ) throws -> URL {
        try ModelBundleTests.writeRecipes(in: directory, current: current, history: history, validating: validating)
    }

    /// Replaces a version's `contents` with text that is not XML.
    private func corrupt(_ version: String, in bundle: URL) throws {
        let contents = bundle.appendingPathComponent("\(version).xcdatamodel/contents")
        try Data("not a model".utf8).write(to: contents)
    }

    @Test("Lists the same names, order and current version as the whole bundle")
    func listsLikeTheBundle() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        let url = try writeRecipes(in: directory, current: "Recipes 2")
        let listing = try ModelBundleListing(contentsOf: url)
        let bundle = try ModelBundle(contentsOf: url)
        #expect(listing.names == ["Recipes", "Recipes 2", "Recipes 3"])
        #expect(listing.names == bundle.history.names)
        #expect(listing.currentName == "Recipes 2")
        #expect(listing.url == bundle.url)
        for name in listing.names {
            #expect(try listing.readVersion(named: name) == bundle.history.version(named: name))
        }
    }

    @Test("Follows the history file, as the whole bundle does")
    func followsTheHistoryFile() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        let url = try writeRecipes(in: directory, history: "Recipes 2\nRecipes # the first\nRecipes 3\n")
        #expect(try ModelBundleListing(contentsOf: url).names == ["Recipes 2", "Recipes", "Recipes 3"])
    }

    @Test("Reads no model file: a corrupted version is only refused when it is read")
    func readsNoModelFile() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        let url = try writeRecipes(in: directory)
        try corrupt("Recipes 2", in: url)
        let listing = try ModelBundleListing(contentsOf: url)
        #expect(listing.names == ["Recipes", "Recipes 2", "Recipes 3"])
        #expect(try listing.readVersion(named: "Recipes 3").entities[0].attributes.count == 3)
        let error = try #require(throws: ModelError.self) { try listing.readVersion(named: "Recipes 2") }
        #expect(error.path == url.appendingPathComponent("Recipes 2.xcdatamodel/contents").path)
        guard case .malformed = error.kind else {
            Issue.record("expected a malformed-model error, got \(error.kind)")
            return
        }
        // The whole bundle refuses the same file with the same error.
        #expect(throws: error) { try ModelBundle(contentsOf: url) }
    }

    @Test("An unknown version lists the available ones")
    func unknownVersion() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        let url = try writeRecipes(in: directory)
        let listing = try ModelBundleListing(contentsOf: url)
        #expect(
            throws: ModelError(
                path: listing.url.path, kind: .unknownVersion("Recipes 9", available: listing.names))
        ) { try listing.readVersion(named: "Recipes 9") }
    }

    @Test("Refuses what the whole bundle refuses without reading a model")
    func refusesLikeTheBundle() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        let empty = directory.path("Empty.xcdatamodeld")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        #expect(throws: ModelError(path: empty.path, kind: .emptyBundle)) {
            try ModelBundleListing(contentsOf: empty)
        }
        let missing = directory.path("Missing.xcdatamodeld")
        #expect(throws: ModelError(path: missing.path, kind: .notFound)) {
            try ModelBundleListing(contentsOf: missing)
        }

        let url = try writeRecipes(in: directory, current: "Recipes 7", validating: false)
        #expect(throws: ModelError(path: url.path, kind: .unknownCurrentVersion("Recipes 7"))) {
            try ModelBundleListing(contentsOf: url)
        }
        #expect(throws: ModelError(path: url.path, kind: .unknownCurrentVersion("Recipes 7"))) {
            try ModelBundle(contentsOf: url)
        }

        try XcodeModelWriter.writeBundle(ModelBundleTests.recipes, current: "Recipes 3", to: url)
        let history = ModelBundle.historyFileURL(for: url)
        try Data("Recipes\nRecipes 2\nRecipes 3\nRecipes 4\n".utf8).write(to: history)
        // A history file that doesn't fit is an order problem, kept by both for what needs the
        // order; the current version is still known.
        let mismatch = ModelError.historyFileMismatch(file: history.path, unknown: ["Recipes 4"], missing: [])
        let listing = try ModelBundleListing(contentsOf: url)
        #expect(listing.order == .failure(mismatch))
        #expect(listing.currentName == "Recipes 3")
        #expect(try ModelBundle(contentsOf: url).order == .failure(mismatch))
    }

    @Test("A single .xcdatamodel is a listing of one version")
    func singleVersion() throws {
        let directory = try TemporaryDirectory(prefix: "listing")
        let url = directory.path("Recipes 2.xcdatamodel")
        try XcodeModelWriter.writeVersion(ModelBundleTests.recipes[1], to: url)
        let listing = try ModelBundleListing(contentsOf: url)
        #expect(listing.names == ["Recipes 2"])
        #expect(listing.currentName == "Recipes 2")
        #expect(listing.isSingleVersion)
        #expect(try listing.readVersion(named: "Recipes 2") == ModelBundle(contentsOf: url).current)
    }
}

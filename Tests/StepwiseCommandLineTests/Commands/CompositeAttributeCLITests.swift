import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A bundle whose newest version has a composite attribute is refused by `plan`, `check` and
/// `create` with one message: the feature, the version, the entity and attribute, why and what
/// to do, never "Fix the model file".
@Suite("Composite attributes on the command line")
struct CompositeAttributeCLITests {
    let directory: TemporaryDirectory
    let bundle: URL
    let store: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-composite-cli")
        bundle = directory.path("Library.xcdatamodeld")
        store = directory.path("Library.sqlite")
        let first = ObjectModel("Library") { Entity("Book") { Attribute("title", .string) } }
        let second = ObjectModel("Library 2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute.composite(
                    "author", elements: [Attribute("person", .string), Attribute("year", .integer64)],
                    compositeName: "Author")
            }
        }
        try XcodeModelWriter.writeBundle([first, second], current: "Library 2", to: bundle)
        try StoreCreator.createStore(at: store, model: first)
    }

    static let why =
        "uses composite attributes, which Stepwise doesn't support yet: attribute 'Book.author' is a composite. The model is valid, but how Core Data hashes a composite attribute hasn't been confirmed against a real store"

    @Test(
        arguments: [
            ["plan", "STORE", "--models", "BUNDLE"],
            ["check", "--models", "BUNDLE"],
            ["create", "NEW", "--models", "BUNDLE", "--version", "Library"],
            ["upgrade", "STORE", "--models", "BUNDLE"],
        ])
    func aCommandRefusesTheBundleNamingTheFeatureAndTheAttribute(_ arguments: [String]) throws {
        let resolved = arguments.map {
            switch $0 {
            case "STORE": store.path
            case "BUNDLE": bundle.path
            case "NEW": directory.path("New.sqlite").path
            default: $0
            }
        }
        let result = try CommandRunner().run(resolved)
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.hasPrefix("Error: model version 'Library 2' ("), "\(result.standardError)")
        #expect(result.standardError.contains("Library 2.xcdatamodel/contents) \(Self.why)"))
        #expect(result.standardError.contains("keep the value as a Transformable attribute or as separate attributes"))
        #expect(!result.standardError.contains("Fix the model"))
    }

    @Test func jsonNamesTheCase() throws {
        let result = try CommandRunner().run(["plan", store.path, "--models", bundle.path, "--format", "json"])
        #expect(result.status == 1)
        let error = try #require(try result.json()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "unsupportedFeature")
        #expect((error["path"] as? String)?.hasSuffix("Library 2.xcdatamodel/contents") == true)
    }
}

import Foundation
import Stepwise
import StepwiseTesting
import Testing

/// The library refuses a bundle with a composite attribute where an app meets it: the
/// upgrader's first upgrade, and a registry built from the bundle.
@Suite("Composite attributes in the library")
struct CompositeAttributeUpgraderTests {
    @Test func theUpgraderAndTheBundleRefuseACompositeNamingIt() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-composite-library")
        let bundle = directory.path("Library.xcdatamodeld")
        let store = directory.path("Library.sqlite")
        let first = ObjectModel("Library") { Entity("Book") { Attribute("title", .string) } }
        let second = ObjectModel("Library 2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute.composite("author", elements: [Attribute("person", .string)])
            }
        }
        try XcodeModelWriter.writeBundle([first, second], current: "Library 2", to: bundle)
        try StoreCreator.createStore(at: store, model: first)

        let upgrade = #expect(throws: ModelError.self) {
            try Upgrader(bundleAt: bundle).upgradeIfNeededSynchronously(storeAt: store)
        }
        #expect(
            upgrade?.kind
                == .unsupportedFeature(.compositeAttributes, version: "Library 2", entity: "Book", property: "author"))
        #expect(throws: ModelError.self) { try ModelBundle(contentsOf: bundle) }
        // A history built in code is refused by the registry.
        let registry = VersionRegistry(history: VersionHistory([first, second]))
        let identification = #expect(throws: ModelError.self) {
            try registry.identify(storeAt: store)
        }
        guard case .unsupportedFeature(_, let version, _, _)? = identification?.kind else {
            Issue.record("expected unsupportedFeature, got \(String(describing: identification))")
            return
        }
        #expect(version == "Library 2")
        // A model built in code meets the same refusal when a store is laid out for it.
        #expect(throws: ModelError.self) {
            try StoreCreator.createStore(at: directory.path("New.sqlite"), model: second)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("New.sqlite").path))
    }
}

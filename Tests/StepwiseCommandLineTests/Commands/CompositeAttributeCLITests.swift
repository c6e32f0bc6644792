import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A bundle whose newest version has a composite attribute is taken by `plan`, `check`,
/// `create`, `schema`, `upgrade` and `inspect` (issue 43), where it was refused.
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

    @Test func planCheckCreateAndUpgradeTakeTheBundle() throws {
        let plan = try CommandRunner().run(["plan", store.path, "--models", bundle.path])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.standardOutput.contains("Library → Library 2"), "\(plan.standardOutput)")
        let check = try CommandRunner().run(["check", "--models", bundle.path])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let new = directory.path("New.sqlite")
        let create = try CommandRunner().run(["create", new.path, "--models", bundle.path])
        #expect(create.status == 0, "\(create.standardError)")
        let schema = try CommandRunner().run(["schema", "--models", bundle.path])
        #expect(schema.standardOutput.contains(#""ZPERSON" VARCHAR"#), "\(schema.standardOutput)")
        let upgrade = try CommandRunner().run(["upgrade", store.path, "--models", bundle.path])
        #expect(upgrade.status == 0, "\(upgrade.standardError)")
        let inspect = try CommandRunner().run(["inspect", store.path, "--models", bundle.path, "--json"])
        #expect(try inspect.json()["matchedVersion"] as? String == "Library 2", "\(inspect.standardOutput)")
    }
}

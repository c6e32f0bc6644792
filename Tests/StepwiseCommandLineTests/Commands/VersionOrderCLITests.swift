import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `plan` and `check` print the versions' order and how it was found; the commands that need no
/// order (`create`, `inspect`, `schema`, `diff` with `--to`, `check`) work on a bundle whose
/// order can't be told, and only a plan between two versions asks for a history file (issue 42).
@Suite("stepwise: the versions' order")
struct VersionOrderCLITests {
    let runner: CommandRunner
    let directory: TemporaryDirectory

    init() throws {
        runner = try CommandRunner()
        directory = try TemporaryDirectory(prefix: "version-order-cli")
    }

    /// `CyfaceModel`, then `2` … `13`, each adding an attribute; current `13`.
    func cyfaceBundle() throws -> (bundle: String, versions: [ObjectModel]) {
        let names = ["CyfaceModel"] + (2...13).map(String.init)
        let versions = names.enumerated().map { index, name in
            ObjectModel(
                name, versionIdentifiers: [name],
                entities: [Entity("Measurement", attributes: (0...index).map { Attribute("value\($0)", .double) })])
        }
        let url = directory.path("CyfaceModel.xcdatamodeld")
        try XcodeModelWriter.writeBundle(versions, current: "13", to: url)
        return (url.path, versions)
    }

    /// `Launch`, `Spring Sale` and `Holiday` (current), each with its own entity: only the
    /// current version's place can be told.
    func shopBundle() throws -> (bundle: String, versions: [ObjectModel]) {
        let versions = [("Launch", "Item"), ("Spring Sale", "Offer"), ("Holiday", "Gift")].map { name, entity in
            ObjectModel(
                name, versionIdentifiers: [name], entities: [Entity(entity, attributes: [Attribute("name", .string)])])
        }
        let url = directory.path("Shop.xcdatamodeld")
        try XcodeModelWriter.writeBundle(versions, current: "Holiday", to: url)
        return (url.path, versions)
    }

    func store(_ name: String, at version: ObjectModel) throws -> String {
        let url = directory.path("\(name).sqlite")
        try StoreCreator.createStore(at: url, model: version)
        return url.path
    }

    static let cyfaceOrder =
        "Order: CyfaceModel, 2, …, 13 — natural order of the names within each stem; 'CyfaceModel' first as the bundle's name; '13' last as the current version (.xccurrentversion)"

    @Test func planAndCheckPrintTheOrderWorkedOutAndHowItWasFound() throws {
        let (bundle, versions) = try cyfaceBundle()
        let store = try store("Cyface", at: versions[0])
        let plan = try runner.run(["plan", store, "--models", bundle])
        #expect(plan.status == 0, "\(plan.standardError)")
        let lines = plan.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(store) is at 'CyfaceModel' (matched by hash).")
        #expect(lines.dropFirst().first == Self.cyfaceOrder)
        #expect(plan.standardOutput.contains("1 step(s) to '13', 0 explicit."))

        let json = try runner.run(["plan", store, "--models", bundle, "--format", "json"]).json()
        let order = try #require(json["order"] as? [String: Any])
        #expect(order["versions"] as? [String] == ["CyfaceModel"] + (2...13).map(String.init))
        #expect(order["foundBy"] as? String == "workedOut")
        #expect(order["description"] as? String == String(Self.cyfaceOrder.dropFirst("Order: ".count)))
        let clues = try #require(order["clues"] as? [[String: Any]])
        #expect(clues.map { $0["kind"] as? String } == ["naturalOrder", "bundleName", "currentVersion"])
        #expect(clues[1]["version"] as? String == "CyfaceModel")

        let check = try runner.run(["check", "--models", bundle])
        #expect(check.status == 0, "\(check.standardOutput)")
        #expect(check.standardOutput.split(separator: "\n").first.map(String.init) == Self.cyfaceOrder)
        let checkJSON = try runner.run(["check", "--models", bundle, "--json"]).json()
        #expect((checkJSON["order"] as? [String: Any])?["foundBy"] as? String == "workedOut")
    }

    @Test func anOrderFromAHistoryFileSaysSo() throws {
        _ = try SampleHistories.write(to: directory.url)
        let bundle = directory.path("Recipes.xcdatamodeld").path
        let check = try runner.run(["check", "--models", bundle])
        #expect(
            check.standardOutput.split(separator: "\n").first
                == "Order: Recipes, …, Recipes 4 — from Recipes.history")
        let json = try runner.run(["check", "--models", bundle, "--json"]).json()
        let order = try #require(json["order"] as? [String: Any])
        #expect(order["foundBy"] as? String == "historyFile")
        #expect(order["file"] as? String == directory.path("Recipes.history").standardizedFileURL.path)
    }

    /// What needs no order works on a bundle whose order can't be told.
    @Test(arguments: [
        ["create", "{dir}/New.sqlite", "--models", "{bundle}", "--version", "Launch"],
        ["create", "{dir}/Current.sqlite", "--models", "{bundle}"],
        ["inspect", "{store}", "--models", "{bundle}"],
        ["schema", "--models", "{bundle}", "--version", "Spring Sale"],
        ["schema", "--models", "{bundle}"],
        ["diff", "--models", "{bundle}", "--from", "Launch", "--to", "Spring Sale"],
    ])
    func aCommandThatNeedsNoOrderDoesntAskForOne(arguments: [String]) throws {
        let (bundle, versions) = try shopBundle()
        let store = try store("Launch", at: versions[0])
        let result = try runner.run(
            arguments.map {
                $0.replacingOccurrences(of: "{bundle}", with: bundle).replacingOccurrences(of: "{store}", with: store)
                    .replacingOccurrences(of: "{dir}", with: directory.url.path)
            })
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(!result.standardError.contains("history"))
        if arguments[0] == "inspect" {
            #expect(result.standardOutput.contains("Version      Launch  (matched by hash)"))
        }
    }

    @Test func aPlanBetweenVersionsNothingOrdersAsksForAHistoryFileNamingThem() throws {
        let (bundle, versions) = try shopBundle()
        let old = try store("Launch", at: versions[0])
        let expected =
            "can't order the model versions 'Launch', 'Spring Sale' (\(URL(fileURLWithPath: bundle).standardizedFileURL.path)): the names have 3 stems ('Holiday', 'Launch', 'Spring Sale'), and nothing in the bundle tells which comes first: 'Launch' or 'Spring Sale'. List them oldest first, one per line, in Shop.history beside the bundle, or pass an explicit order."
        for command in ["plan", "upgrade"] {
            let result = try runner.run([command, old, "--models", bundle])
            #expect(result.status == 65, "\(command)")
            #expect(result.standardError.contains(expected), "\(command): \(result.standardError)")
        }
        let json = try runner.run(["plan", old, "--models", bundle, "--format", "json"])
        #expect(json.status == 65)
        let error = try #require(try json.json()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "ambiguousOrder")
        #expect(error["path"] as? String == URL(fileURLWithPath: bundle).standardizedFileURL.path)
        let diff = try runner.run(["diff", "--models", bundle, "--from", "Launch"])
        #expect(diff.status == 65)
        #expect(diff.standardError.contains(expected))

        // A store at the target needs no plan.
        let current = try store("Holiday", at: versions[2])
        let upToDate = try runner.run(["plan", current, "--models", bundle])
        #expect(upToDate.status == 0, "\(upToDate.standardError)")
        #expect(upToDate.standardOutput.contains("Order: can't be told, and isn't needed: the store is at the target."))
        #expect(upToDate.standardOutput.contains("It is up to date with 'Holiday': nothing to do."))

        // `check` reads the bundle and reports the order as its finding.
        let check = try runner.run(["check", "--models", bundle])
        #expect(check.status == 1)
        let lines = check.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "error (ambiguousOrder): The order of the versions 'Launch', 'Spring Sale' can't be told: the names have 3 stems ('Holiday', 'Launch', 'Spring Sale'), and nothing in the bundle tells which comes first: 'Launch' or 'Spring Sale'. Fix: List every version oldest first, one per line, in Shop.history beside the bundle; paths and steps are checked once the order is known."
        )
        #expect(try runner.run(["check", "--models", bundle, "--json"]).json()["order"] is NSNull)
    }
}

import ArgumentParser
import Foundation
import Stepwise
import StepwiseModel
import StepwiseStore
import StepwiseTesting

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Create a sample store from the embedded Recipes history and inspect it.",
        discussion: """
            Needs no files: the Recipes model history (the same as Versions/Recipes.xcdatamodeld) is \
            built into the tool. The demo writes the bundle and a store at the oldest version into a \
            work folder, seeds a few rows, then identifies the store's version the way \
            upgradeIfNeeded does.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("Where to write the demo files. Defaults to a new temporary folder.", valueName: "directory")
    )
    var directory: String?

    @Flag(name: .long, help: "Print the inspection as JSON.")
    var json = false

    func run() throws {
        let workFolder =
            directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stepwise-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        let history = RecipesHistory.history
        let bundles = try SampleHistories.write(to: workFolder)
        let oldest = history.versions[0]
        let storeURL = workFolder.appendingPathComponent("Recipes.sqlite")
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: storeURL.path + suffix)
        }
        log(
            "1. Wrote the model bundle \(bundles.map(\.lastPathComponent).joined(separator: ", ")) (versions: \(history.names.joined(separator: ", ")))"
        )
        let metadata = try StoreCreator.createStore(at: storeURL, model: oldest)
        log("2. Created \(storeURL.path) at version '\(oldest.name)' (store UUID \(metadata.storeUUID))")
        let seeded = try DemoSeed.seedRecipes(at: storeURL, model: oldest)
        log("3. Seeded \(seeded) rows")
        let reloaded = try ModelBundle(contentsOf: workFolder.appendingPathComponent("Recipes.xcdatamodeld"))
        let inspection = try StoreInspection.inspect(storeAt: storeURL, history: reloaded.history)
        log(
            "4. Identified the store as '\(inspection.matchedVersion ?? "?")' (matched by \(inspection.matchedBy ?? "nothing"))\n"
        )
        if json {
            try JSONOutput.print(inspection)
        } else {
            print("Entity version hashes (Core Data's algorithm)")
            for name in inspection.entityHashes.keys.sorted() {
                print(
                    "  \(name.padding(toLength: 12, withPad: " ", startingAt: 0))  \(inspection.entityHashes[name] ?? "")"
                )
            }
            print("Tables")
            for table in inspection.tables {
                print(
                    "  \(table.name.padding(toLength: 12, withPad: " ", startingAt: 0))  \(table.rows) \(table.rows == 1 ? "row" : "rows")"
                )
            }
            print(
                "\nTry: swift run stepwise inspect \(storeURL.path) --models \(workFolder.appendingPathComponent("Recipes.xcdatamodeld").path)"
            )
        }
    }

    /// Progress goes to standard error so `--json` output stays parseable.
    private func log(_ message: String) {
        if json { StandardError.print(message) } else { print(message) }
    }
}

import ArgumentParser
import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Create a Recipes store at its oldest version and migrate it, step by step, to the newest.",
        discussion: """
            Needs no files: the sample Recipes history (the same as Versions/Recipes.xcdatamodeld and \
            Versions/Recipes.mappings) is built into the tool. The demo writes the bundles and a seeded \
            store at version 'Recipes' into a work folder, identifies the store's version from its \
            metadata, then runs each step to 'Recipes 4' (explicit mappings with Swift policies, then an \
            inferred step) and shows a few migrated rows. The original store is never modified.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("Where to write the demo files. Defaults to a new temporary folder.", valueName: "directory")
    )
    var directory: String?

    @Flag(name: .long, help: "Print the result as JSON (keys: inspection, steps, final).")
    var json = false

    func run() throws {
        let workFolder =
            directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stepwise-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        _ = try SampleHistories.write(to: workFolder)
        let bundleURL = workFolder.appendingPathComponent("Recipes.xcdatamodeld")
        let bundle = try ModelBundle(contentsOf: bundleURL)
        let history = bundle.history
        log(
            "1. Wrote \(bundleURL.lastPathComponent) (versions \(history.names.joined(separator: ", "))) and its mappings"
        )

        let oldest = history.versions[0]
        let storeURL = workFolder.appendingPathComponent("Recipes.sqlite")
        removeStore(storeURL)
        try StoreCreator.createStore(at: storeURL, model: oldest)
        let seeded = try DemoSeed.seedRecipes(at: storeURL, model: oldest)
        log("2. Created Recipes.sqlite at '\(oldest.name)' with \(seeded) objects")

        let inspection = try StoreInspection.inspect(storeAt: storeURL, history: history)
        log(
            "3. Its metadata says '\(inspection.matchedVersion ?? "?")' (matched by \(inspection.matchedBy ?? "nothing"))"
        )

        let mappings = try MappingDirectory(contentsOf: MappingDirectory.defaultURL(for: bundleURL), history: history)
        var current = storeURL
        var reports: [StepReport] = []
        log("4. Migrating step by step:")
        for (from, to) in zip(history.versions, history.versions.dropFirst()) {
            let next = workFolder.appendingPathComponent("\(to.name).sqlite")
            removeStore(next)
            let step = MigrationStep(
                from: from, to: to, mappingModels: mappings.mappingModels(from: from.name, to: to.name),
                policies: SamplePolicies.registry)
            let report = try step.run(source: current, destination: next)
            reports.append(report)
            log("   \(describe(report))")
            current = next
        }
        let final = try StoreInspection.inspect(storeAt: current, history: history)
        log(
            "5. \(current.lastPathComponent) is '\(final.matchedVersion ?? "?")' (matched by \(final.matchedBy ?? "nothing"))\n"
        )

        if json {
            try JSONOutput.print(DemoReport(inspection: inspection, steps: reports, final: final))
            return
        }
        try printSample(of: current, model: history.versions[history.versions.count - 1])
        print("\nFiles are in \(workFolder.path). Try:")
        print("  swift run stepwise inspect \"\(current.path)\" --models \"\(bundleURL.path)\"")
        print("  swift run stepwise diff --models \"\(bundleURL.path)\" --from \"Recipes 3\" --to \"Recipes 4\"")
    }

    private func describe(_ report: StepReport) -> String {
        let how: String
        if report.inPlace {
            how = "in place (ALTER TABLE)"
        } else {
            let rowByRow = report.entityMappings.filter { !$0.setBased }.map(\.name)
            how =
                rowByRow.isEmpty
                ? "set-based SQL" : "row by row through policies for \(rowByRow.joined(separator: ", "))"
        }
        return
            "\(report.from) → \(report.to): \(report.kind) mapping, \(report.rows) objects, \(how), \(String(format: "%.3f", report.seconds)) s"
    }

    /// A few migrated rows: chefs' split names, one Cuisine per name, shared ingredients.
    private func printSample(of store: URL, model: ObjectModel) throws {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: model)
        try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            print("Chefs (name split by a policy in Recipes → Recipes 2)")
            for chef in try objects.fetch("Chef") {
                print("  \(chef.string("firstName") ?? "") | \(chef.string("lastName") ?? "")")
            }
            print("Cuisines (one per distinct name, with their recipes)")
            for cuisine in try objects.fetch("Cuisine") {
                let recipes = try objects.related(cuisine.id, "recipes").map {
                    try objects.object($0).string("name") ?? ""
                }
                print("  \(cuisine.string("name") ?? ""): \(recipes.joined(separator: ", "))")
            }
            print("Ingredients (shared in Recipes 3, with the recipes that use them)")
            for ingredient in try objects.fetch("Ingredient") {
                let uses = try objects.related(ingredient.id, "recipeIngredients").map { link -> String in
                    let recipe = try objects.related(link, "recipe").first.map {
                        try objects.object($0).string("name") ?? ""
                    }
                    let unit = try objects.related(link, "unit").first.map {
                        try objects.object($0).string("name") ?? ""
                    }
                    let quantity = try objects.object(link).string("quantity") ?? ""
                    return "\(recipe ?? "?") (\([quantity, unit ?? ""].filter { !$0.isEmpty }.joined(separator: " ")))"
                }
                print("  \(ingredient.string("name") ?? ""): \(uses.joined(separator: "; "))")
            }
        }
    }

    private func removeStore(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// Progress goes to standard error with `--json`, so standard output stays parseable.
    private func log(_ message: String) {
        if json { StandardError.print(message) } else { print(message) }
    }
}

/// `stepwise demo --json`: the original store's inspection, each step's report, and the
/// final store's inspection.
private struct DemoReport: Encodable {
    var inspection: StoreInspection
    var steps: [StepReport]
    var final: StoreInspection
}

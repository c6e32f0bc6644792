import ArgumentParser
import Foundation
import Stepwise
import StepwiseDemo
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// `stepwise demo`: the whole tour on a generated store, with nothing to download.
struct DemoCommand: ParsableCommand, JSONReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Create a Recipes store at its oldest version, with a few thousand objects, and upgrade it to the newest.",
        discussion: """
            Needs no files: the sample Recipes history (the same as Versions/Recipes.xcdatamodeld and \
            Versions/Recipes.mappings) is built into the tool. The demo writes the bundles into a work \
            folder, creates a store at version 'Recipes' with four hand-picked recipes and --recipes \
            generated ones (each with a chef and two ingredients), then shows what `\(ToolName.current) inspect` \
            and `\(ToolName.current) plan` say about it and upgrades it with `Upgrader`, as `\(ToolName.current) upgrade` \
            does: two explicit steps whose Swift policies split chef names, make one Cuisine per name \
            and share ingredients, then an inferred step that runs in place. Progress goes to \
            standard error. It ends with a few migrated rows.

            The store is upgraded in place with --keep-backup, so `\(ToolName.current) rollback` can put the \
            original back afterwards. With --json, standard output is one object with the keys             inspection, plan, upgrade, steps and final.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("Where to write the demo files. Defaults to a new temporary folder.", valueName: "directory")
    )
    var directory: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Generated recipes to add to the four hand-picked ones; each brings a chef and two ingredients.",
            valueName: "count"))
    var recipes = 1000

    @OptionGroup var progressOptions: ProgressOptions

    @OptionGroup var jsonOption: JSONOption

    func validate() throws {
        guard (0...1_000_000).contains(recipes) else {
            throw ValidationError("--recipes must be between 0 and 1,000,000.")
        }
    }

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let started = Date()
        let workFolder =
            directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stepwise-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        let bundleURL = try DemoHistory.recipes.write(to: workFolder)
        let history = try ModelBundle(contentsOf: bundleURL).history
        log(
            "1. Wrote \(bundleURL.lastPathComponent) (versions \(history.names.joined(separator: ", "))) and its mappings"
        )

        let oldest = history.versions[0]
        let storeURL = workFolder.appendingPathComponent("Recipes.sqlite")
        removeStore(storeURL)
        try StoreCreator.createStore(at: storeURL, model: oldest)
        let seeded = try DemoSeed.seedRecipes(at: storeURL, model: oldest, generatedRecipes: recipes)
        log(
            "2. Created \(storeURL.lastPathComponent) at '\(oldest.name)' with \(TextFormat.grouped(seeded)) objects (4 hand-picked recipes, \(TextFormat.grouped(recipes)) generated)"
        )

        let inspection = try StoreInspection.inspect(storeAt: storeURL, history: history)
        log(
            "3. \(ToolName.current) inspect: its metadata says '\(inspection.matchedVersion ?? "?")' (matched by \(inspection.matchedBy ?? "nothing"))"
        )
        log("   tables: " + describe(inspection.tables))

        let renderer = ProgressRenderer(style: progressOptions.style, estimateRows: { seeded })
        let upgrader = try Upgrader(
            bundleAt: bundleURL, policies: DemoPolicies.registry,
            options: UpgradeOptions(keepBackup: true, progress: renderer.handler))
        let target = upgrader.targetVersion ?? oldest.name
        let plan = try upgrader.plan(forStoreAt: storeURL).plan
        log("4. \(ToolName.current) plan: \(plan.steps.count) steps to '\(target)', \(plan.explicitStepCount) explicit")
        for (index, step) in plan.steps.enumerated() {
            log("   \(index + 1). \(step.from) → \(step.to)  \(describe(step))")
        }

        log("5. \(ToolName.current) upgrade (progress on standard error):")
        let report: UpgradeReport
        do {
            report = try upgrader.upgradeIfNeededSynchronously(storeAt: storeURL)
        } catch {
            renderer.finish()
            throw error
        }
        renderer.finish()
        report.textLines(store: storeURL.lastPathComponent).forEach { log("   " + $0) }

        let final = try StoreInspection.inspect(storeAt: storeURL, history: history)
        log(
            "6. \(storeURL.lastPathComponent) is now '\(final.matchedVersion ?? "?")' (matched by \(final.matchedBy ?? "nothing")); tables: \(describe(final.tables))\n"
        )

        if jsonOption.json {
            try JSONOutput.print(
                DemoReport(
                    inspection: inspection, plan: plan.steps, upgrade: report,
                    final: final))
            return
        }
        try printSample(of: storeURL, model: history.versions[history.versions.count - 1])
        print(
            "\nThe demo took \(String(format: "%.1f", Date().timeIntervalSince(started))) s. Files are in \(workFolder.path). Try:"
        )
        print("  swift run \(ToolName.current) inspect \"\(storeURL.path)\" --models \"\(bundleURL.path)\"")
        print("  swift run \(ToolName.current) rollback \"\(storeURL.path)\"")
        print("  swift run \(ToolName.current) plan \"\(storeURL.path)\" --models \"\(bundleURL.path)\"")
        print("  swift run \(ToolName.current) upgrade \"\(storeURL.path)\" --models \"\(bundleURL.path)\"")
    }

    /// `ZCHEF 1,004 · ZRECIPE 1,004 · …`: the entity tables and their rows.
    private func describe(_ tables: [StoreInspection.Table]) -> String {
        tables.filter { $0.name.hasPrefix("Z") && !$0.name.hasPrefix("Z_") }
            .map { "\($0.name) \(TextFormat.grouped($0.rows))" }.joined(separator: " · ")
    }

    /// `explicit (Recipes → Recipes 2; policies ChefNamePolicy, CuisinePolicy)`, or
    /// `inferred (lightweight, no mapping file)`.
    private func describe(_ step: PlannedStep) -> String {
        guard step.kind == .explicit else { return "\(step.kind.rawValue) (lightweight, no mapping file)" }
        let policies = Set(step.mappingModels.flatMap(\.entityMappings).compactMap(\.policyName)).sorted()
        let names = step.mappingModels.map(\.name).joined(separator: ", ")
        let policyText = policies.isEmpty ? "" : "; policies \(policies.joined(separator: ", "))"
        return "\(step.kind.rawValue) (\(names)\(policyText))"
    }

    /// Removes what an earlier demo left in the same folder: the store and its companions,
    /// its backup, an interrupted upgrade's work folder.
    private func removeStore(_ url: URL) {
        let files = StoreFiles(store: url)
        try? files.generation.remove(fileSystem: FileSystem(), site: "demo.remove-store")
        try? FileManager.default.removeItem(at: files.backupDirectory)
        try? FileManager.default.removeItem(at: files.workDirectory)
    }

    /// Progress goes to standard error with `--json`, so standard output stays parseable.
    func log(_ message: String) {
        if jsonOption.json { StandardError.print(message) } else { print(message) }
    }
}

/// `stepwise demo --json`: the original store's inspection, the plan, the upgrade report (its
/// steps under `upgrade.steps`), and the final inspection.
private struct DemoReport: Encodable {
    var inspection: StoreInspection
    var plan: [PlannedStep]
    var upgrade: UpgradeReport
    var final: StoreInspection
}

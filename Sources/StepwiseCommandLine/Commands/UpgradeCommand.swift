import ArgumentParser
import Foundation
import Stepwise

/// `stepwise upgrade`: ``Upgrader/upgradeIfNeeded(storeAt:)`` from the command line.
struct UpgradeCommand<Tool: StepwiseTool>: ParsableCommand, JSONReportingCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "upgrade",
            abstract: "Upgrade a store, in place and crash-safely, to the bundle's current version (or --to).",
            discussion: """
                Identifies the store's version, plans the steps (see `\(ToolName.current) plan`) and runs them \
                one by one in a work folder beside the store (.<store>.stepwise/), with a checkpoint \
                per step. The result is verified, then swapped in with the store's -wal and -shm. Until \
                the swap the store is not touched: an error leaves it exactly as it was, and says \
                what to do next.

                A store already at the target costs one metadata read. Several upgrades of one store \
                (other processes, or this tool run twice) take turns on a lock: the first upgrades, \
                the others wait up to --lock-timeout seconds and then find it up to date.

                Resume: if an upgrade is interrupted (Ctrl-C, a crash, a full disk), run the same \
                command again. It keeps the steps already checkpointed and resumes at the first \
                unfinished one, or finishes an interrupted swap.

                Rollback: with --keep-backup the store as it was is kept in <store>.stepwise-backup/; \
                `\(ToolName.current) rollback STORE` puts it back (discarding the upgraded store).

                Progress goes to standard error: a bar with an ETA on a terminal, plain lines \
                otherwise (--progress). With --json, standard output is one JSON object: from, to, \
                outcome (noStore, upToDate, upgraded), upToDate, steps (from, to, kind, rows, seconds, \
                strategy (inPlace, partialRebuild, rebuild), keptTables, inPlace (deprecated: strategy is inPlace), \
                resumed, earlierRunSeconds for a step resumed from a checkpoint, drops), backupPath \
                (with --keep-backup) and seconds; if the upgrade fails, {"error": {...}} with the \
                message, the failed step and the mapping, entity, property and source row it stopped at.

                Dropped data: Core Data's lightweight migration drops removed entities and attributes \
                silently. Stepwise lists what each step dropped (rows, non-null values, links) under \
                the step, and in each step's "drops" with --json. With --strict it refuses instead, \
                unless a mapping declares the drop (an entity mapping with no destination); the \
                refusal names the step, entity, attribute and count. `\(ToolName.current) plan` counts them first.

                Policies named by mapping files must be registered in code: this tool knows the \
                policies its StepwiseTool registers (the stock stepwise: the Recipes demo's). \
                To run your own, build your own tool (see StepwiseTool in StepwiseCommandLine).

                Examples:
                  \(ToolName.current) upgrade App.sqlite --models Model.xcdatamodeld --keep-backup
                  \(ToolName.current) upgrade App.sqlite --models Model.xcdatamodeld --to "Model 3" --json
                  \(ToolName.current) rollback App.sqlite
                """
        )
    }

    @Argument(help: ArgumentHelp("The store to upgrade (e.g. App.sqlite).", valueName: "store"), completion: .file())
    var store: String

    @OptionGroup var bundleOptions: BundleOptions

    @OptionGroup var mappingOptions: MappingOptions

    @Option(
        name: .long,
        help: ArgumentHelp("The version to upgrade to (default: the bundle's current one).", valueName: "version")
    )
    var to: String?

    @Flag(
        name: .long,
        help: "Keep the store as it was in <store>.stepwise-backup/, for `\(ToolName.current) rollback`.")
    var keepBackup = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How to check the store before the first step and the upgraded store before the swap or commit: quick (quick_check of what the steps read on the copy path; in one transaction, the pages it loads) or full (integrity_check of every page).",
            valueName: "level"))
    var verify: UpgradeOptions.Verification = .quick

    @OptionGroup var lockOptions: LockOptions

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Refuse, before the swap and where it can before step 1, any step that would drop data no mapping declares: a removed entity or attribute holding values, or an entity left out of an explicit mapping. The store is not changed."
        ))
    var strict = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Drop the store's entities that no version of the given models has, with their rows. Without it, the upgrade refuses them by name: they most often belong to another model the app merges into the store (give it with another --models)."
        ))
    var dropUnknownEntities = false

    @OptionGroup var progressOptions: ProgressOptions

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let storeURL = URL(fileURLWithPath: store)
        guard FileManager.default.fileExists(atPath: storeURL.path) else {
            throw CommandFailure(
                "no store at \(store). Check the path, or create one with `\(ToolName.current) create`.",
                status: .notAStore)
        }
        let renderer = ProgressRenderer(
            style: progressOptions.style, estimateRows: { StoreObjectCount.estimate(storeAt: storeURL) })
        var options = UpgradeOptions(
            targetVersion: to, keepBackup: keepBackup, verification: verify, lockTimeout: lockOptions.duration,
            strict: strict, progress: renderer.handler)
        options.dropsUnknownEntities = dropUnknownEntities
        let report: UpgradeReport
        do {
            report = try bundleOptions.upgradeIfNeeded(
                storeAt: storeURL, mappings: mappingOptions, policies: Tool.policies, options: options)
        } catch {
            renderer.finish()
            throw error
        }
        renderer.finish()
        if jsonOption.json {
            try JSONOutput.print(report)
        } else {
            report.textLines(store: store).forEach { print($0) }
        }
    }
}

import ArgumentParser
import Foundation
import Stepwise
import StepwiseModel

struct InspectCommand: ParsableCommand, JSONReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a store's metadata, entity hashes, tables and model version.",
        discussion: """
            Reads a private copy of the store (with its -wal), so the store, its -wal and its -shm \
            are never written. Rows that live only in the -wal are counted. Core Data's private \
            tables (persistent history, CloudKit mirroring, the cached model) are listed apart; \
            only the cached model's content (below) takes part in identifying the version.

            With --models, names the version that wrote the store and how it matched: "hash" \
            (the metadata's entity hashes), "shippedRecord" (the hashes of a version as it shipped, \
            recorded by `\(ToolName.current) ship` and edited since: the version is named '<Version> (as shipped)') \
            or "schema" (the tables, when no hashes match). A store \
            whose hashes and tables disagree is reported as inconsistent and exits with status 1.

            Every store also carries the model that wrote it, in Z_MODELCACHE: its entities are \
            listed, with whether their hashes match the store's metadata. Without --models, that \
            model names the version ("<store>'s model cache", matched by "modelCache") when they \
            do; with --models, it does when no version of the bundle matches, and an upgrade then \
            starts from it. JSON: "modelCache": {"entities": [...], "matchesMetadata": true|false}, \
            null for a store with none.
            """
    )

    @Argument(help: ArgumentHelp("The store file (e.g. App.sqlite).", valueName: "store"), completion: .file())
    var store: String

    @Option(
        name: .long,
        help: ArgumentHelp("A .xcdatamodeld bundle to identify the store's version with.", valueName: "bundle"),
        completion: .directory)
    var models: String?

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let bundle = try models.map { try ModelBundle(contentsOf: URL(fileURLWithPath: $0)) }
        let history = bundle?.history
        let shipped = try bundle.map { bundle in
            try ShippedVersion.asShippedVersions(ShippedRecords.load(forBundleAt: bundle.url), in: bundle.history)
        }
        let inspection = try StoreInspection.inspect(
            storeAt: URL(fileURLWithPath: store), history: history, shipped: shipped ?? [])
        if jsonOption.json {
            try JSONOutput.print(inspection)
        } else {
            printReport(inspection, identified: history != nil)
        }
        if let error = inspection.identificationError {
            // The report (stdout) says it as "Problem"; stderr gets it too, for scripts and logs.
            StandardError.print("error: \(error)")
            throw ExitCode.failure
        }
        if !inspection.consistent { throw ExitCode.failure }
    }

    private func printReport(_ inspection: StoreInspection, identified: Bool) {
        print("Store        \(inspection.store)\(inspection.hasWAL ? "  (with -wal)" : "")")
        print("Type         \(inspection.storeType)")
        print("UUID         \(inspection.storeUUID)")
        print("Identifiers  \(inspection.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))")
        if let name = inspection.modelVersionName { print("Written as   \(name)") }
        if let cache = inspection.modelCache {
            let match =
                cache.matchesMetadata
                ? "its hashes match the metadata"
                : "its hashes don't match the metadata: \(cache.entitiesWithOtherHashes.joined(separator: ", "))"
            print("Model cache  \(cache.entities.count) \(cache.entities.count == 1 ? "entity" : "entities"), \(match)")
            print("             \(cache.entities.joined(separator: ", "))")
        } else {
            print("Model cache  none")
        }
        if !identified, let version = inspection.matchedVersion, let by = inspection.matchedBy {
            print("Version      \(version)  (matched by \(by))")
        }
        if !identified {
            for note in inspection.notes { print("Note         \(note)") }
        }
        if identified {
            if let version = inspection.matchedVersion, let by = inspection.matchedBy {
                print("Version      \(version)  (matched by \(by))")
            } else if !inspection.consistent {
                print("Version      INCONSISTENT")
            } else {
                print("Version      no match")
            }
            if let problem = inspection.problem { print("Problem      \(problem)") }
            for note in inspection.notes { print("Note         \(note)") }
        }
        print("\nEntity version hashes")
        let width = inspection.entityHashes.keys.map(\.count).max() ?? 0
        for name in inspection.entityHashes.keys.sorted() {
            print(
                "  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(inspection.entityHashes[name] ?? "")"
            )
        }
        let tableWidth = inspection.tables.map(\.name.count).max() ?? 0
        func line(_ table: StoreInspection.Table) -> String {
            "  \(table.name.padding(toLength: tableWidth, withPad: " ", startingAt: 0))  \(table.rows) \(table.rows == 1 ? "row" : "rows")"
        }
        print("\nTables")
        for table in inspection.tables where table.coreDataPrivate == nil {
            print(line(table))
        }
        let privateTables = inspection.tables.filter { $0.coreDataPrivate != nil }
        if !privateTables.isEmpty {
            print(
                "\nCore Data's private tables (an upgrade keeps the history and CloudKit ones, drops the cached model)")
            for table in privateTables {
                print("\(line(table))  \(table.coreDataPrivate?.explanation ?? "")")
            }
        }
        if !inspection.otherMetadata.isEmpty {
            print("\nOther metadata")
            for key in inspection.otherMetadata.keys.sorted() {
                print("  \(key) = \(inspection.otherMetadata[key] ?? "")")
            }
        }
        if !identified {
            print("\nPass --models BUNDLE to identify the model version that wrote this store.")
        }
    }
}

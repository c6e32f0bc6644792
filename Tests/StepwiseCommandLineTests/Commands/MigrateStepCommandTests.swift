import Foundation
import GRDB
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `stepwise migrate-step` from the shell on copies of the corpus stores, for the corpus
/// steps that have no mapping model and so are inferred (no `<bundle>.mappings` folder
/// exists beside the corpus bundles).
@Suite("stepwise migrate-step on the corpus", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct MigrateStepCommandTests {
    /// One inferred corpus step, the table whose rows it counts, and the rows it must keep.
    struct InferredStep: Sendable, CustomTestStringConvertible {
        var store: String
        var bundle: CorpusBundle
        var from: Int
        var table: String
        var tableRows: Int
        /// Destination instances the report counts, all entity mappings together.
        var reportedRows: Int

        var testDescription: String { "\(store): \(bundle.versionName(from)) → \(bundle.versionName(from + 1))" }
    }

    static let inferredSteps: [InferredStep] = [
        InferredStep(store: "M1", bundle: .moody, from: 1, table: "ZMOOD", tableRows: 4, reportedRows: 9),
        InferredStep(store: "W3", bundle: .wibosco, from: 3, table: "ZPOST", tableRows: 7995, reportedRows: 15990),
        InferredStep(store: "v2", bundle: .apptentive, from: 2, table: "ZATRECORD", tableRows: 3, reportedRows: 7),
        InferredStep(store: "v3", bundle: .apptentive, from: 3, table: "ZATRECORD", tableRows: 3, reportedRows: 7),
        InferredStep(store: "v5", bundle: .apptentive, from: 5, table: "ZATRECORD", tableRows: 6, reportedRows: 14),
    ]

    @Test(arguments: inferredSteps)
    func anInferredStepKeepsEveryRowAndLeavesTheSourceAlone(_ step: InferredStep) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let source = try corpus.copyStore(try CorpusStore.named(step.store), to: directory.url)
        // Read the source before taking its bytes: closing a WAL connection can touch its files.
        let sourceCounts = try rowCounts(source)
        let before = fileBytes(source)
        let destination = directory.path("migrated.sqlite")

        let result = try CommandRunner.testTool().run([
            "migrate-step", source.path, destination.path, "--models", corpus.url(step.bundle).path,
            "--from", step.bundle.versionName(step.from), "--to", step.bundle.versionName(step.from + 1),
            // The Apptentive steps have mapping models beside the bundle; this test is about inference.
            "--infer", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(fileBytes(source) == before, "migrate-step must not write to its source, its -wal or its -shm")

        let json = try result.json()
        #expect(json["from"] as? String == step.bundle.versionName(step.from))
        #expect(json["to"] as? String == step.bundle.versionName(step.from + 1))
        #expect(json["kind"] as? String == "inferred")
        #expect(json["rows"] as? Int == step.reportedRows)

        let counts = try rowCounts(destination)
        #expect(counts[step.table] == step.tableRows)
        #expect(sourceCounts[step.table] == step.tableRows)
        // Every entity table of the source that the destination still has keeps its rows.
        for (table, rows) in sourceCounts where counts[table] != nil && table.hasPrefix("Z") && !table.hasPrefix("Z_") {
            #expect(counts[table] == rows, "\(table)")
        }
    }

    /// Moody 1 → 2 renames `remoteIdentifier` to `remoteID` (elementID) and adds `rating`.
    @Test func moodyOneToTwoCarriesRemoteIdentifierIntoRemoteIDAndRatesZero() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let source = try corpus.copyStore(try CorpusStore.named("M1"), to: directory.url)
        let destination = directory.path("Moody 2.sqlite")
        let result = try CommandRunner.testTool().run([
            "migrate-step", source.path, destination.path, "--models", corpus.url(.moody).path,
            "--from", "Moody", "--to", "Moody 2",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("inferred mapping"))
        #expect(result.standardOutput.contains("MoodToMood: 4 instances"))

        let oldIDs = try read(source) { db in
            try Row.fetchAll(db, sql: "SELECT ZDATE, ZREMOTEIDENTIFIER FROM ZMOOD").map {
                "\($0["ZDATE"] as Double) \($0["ZREMOTEIDENTIFIER"] as String)"
            }
        }
        let newIDs = try read(destination) { db in
            try Row.fetchAll(db, sql: "SELECT ZDATE, ZREMOTEID FROM ZMOOD").map {
                "\($0["ZDATE"] as Double) \($0["ZREMOTEID"] as String)"
            }
        }
        let ratings = try read(destination) { db in try Int.fetchAll(db, sql: "SELECT ZRATING FROM ZMOOD") }
        #expect(oldIDs.count == 4)
        #expect(Set(newIDs) == Set(oldIDs))
        #expect(ratings == [0, 0, 0, 0])
    }

    /// A destination that exists is refused, and left as it was.
    @Test func anExistingDestinationIsRefusedAndKept() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let source = try corpus.copyStore(try CorpusStore.named("M1"), to: directory.url)
        let before = fileBytes(source)
        let destination = directory.path("Taken.sqlite")
        try Data("keep me".utf8).write(to: destination)
        let result = try CommandRunner.testTool().run([
            "migrate-step", source.path, destination.path, "--models", corpus.url(.moody).path,
            "--from", "Moody", "--to", "Moody 2",
        ])
        #expect(result.status != 0)
        #expect(result.standardError.contains("\(destination.path) already exists"), "\(result.standardError)")
        #expect(try Data(contentsOf: destination) == Data("keep me".utf8))
        #expect(fileBytes(source) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasPrefix(".stepwise-source-") }
        #expect(leftovers.isEmpty)
    }

    // MARK: Helpers

    func read<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// Rows of every table of a store.
    func rowCounts(_ url: URL) throws -> [String: Int] {
        try read(url) { db in
            var counts: [String: Int] = [:]
            for table in try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            {
                counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)")
            }
            return counts
        }
    }

    func fileBytes(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }
}

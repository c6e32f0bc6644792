import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// A sample history written to a temporary folder (bundle and mapping files), with a store
/// seeded at its first version: what the upgrade tests start from.
struct UpgradeFixture {
    let directory: TemporaryDirectory
    let sample: SampleHistories.Sample
    let bundle: URL
    let store: URL

    /// `sampleName` is "Recipes", "University" or "Events"; the store is seeded at version 1.
    init(_ sampleName: String = "Recipes", storeName: String = "Store.sqlite") throws {
        directory = try TemporaryDirectory(prefix: "stepwise-upgrade")
        sample = try #require(SampleHistories.all.first { $0.name == sampleName })
        _ = try SampleHistories.write(to: directory.url)
        bundle = directory.path("\(sampleName).xcdatamodeld")
        store = directory.path(storeName)
        let first = sample.history.versions[0]
        try StoreCreator.createStore(at: store, model: first)
        switch sampleName {
        case "Recipes": try DemoSeed.seedRecipes(at: store, model: first)
        case "University": try UniversitySeed.seed(at: store, model: first)
        default: try EventsSeed.seed(at: store)
        }
    }

    /// University at version 1 with one more university only in the store's `-wal`: a
    /// fixture whose upgrade must carry a row the main file doesn't hold.
    static func universityWithRowInWAL() throws -> UpgradeFixture {
        let fixture = try UpgradeFixture("University")
        try fixture.writeInWAL { db in
            _ = try ObjectContext(db, layout: StoreLayout(model: UniversityHistory.v1))
                .insert("University", ["name": "Written in the WAL"])
        }
        return fixture
    }

    /// Events at version 1 with one more event only in the store's `-wal`, and an older
    /// backup in the backup folder that the upgrade must replace.
    static func eventsWithRowInWALAndOlderBackup() throws -> UpgradeFixture {
        let fixture = try UpgradeFixture("Events")
        try fixture.writeInWAL { db in
            _ = try ObjectContext(db, layout: StoreLayout(model: EventsHistory.v1))
                .insert("Event", ["timeStamp": Date(timeIntervalSince1970: 86_400)])
        }
        let olderBackup = fixture.files.backupDirectory
        try FileManager.default.createDirectory(at: olderBackup, withIntermediateDirectories: true)
        try Data("an older backup".utf8).write(to: olderBackup.appendingPathComponent("Store.sqlite"))
        return fixture
    }

    var history: VersionHistory { sample.history }
    var latest: String { history.versions[history.versions.count - 1].name }

    func upgrader(
        to target: String? = nil, keepBackup: Bool = false, policies: PolicyRegistry = SamplePolicies.registry,
        stages: [MigrationStage] = [], fileSystem: FileSystem = FileSystem(),
        progress: (@Sendable (UpgradeEvent) -> Void)? = nil
    ) throws -> Upgrader {
        var options = UpgradeOptions(
            targetVersion: target, keepBackup: keepBackup, lockTimeout: .seconds(30), progress: progress)
        options.fileSystem = fileSystem
        return try Upgrader(bundleAt: bundle, policies: policies, stages: stages, options: options)
    }

    var files: StoreFiles { StoreFiles(store: store) }

    /// Writes through one connection with automatic checkpoints off and puts the store back as
    /// a kill would leave it: the new rows only in its `-wal`, beside its `-shm`.
    func writeInWAL(_ body: (Database) throws -> Void) throws {
        try WALWriter.write(to: store, body)
    }

    /// The version the registry reads from the store (through a private copy).
    func version() throws -> String? {
        try VersionRegistry(history: history).identify(storeAt: store).version?.name
    }

    /// Rows of an entity's table (subentities included), read from a private copy.
    func count(_ table: String) throws -> Int {
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        return try snapshot.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? -1
        }
    }

    /// Values of one column, sorted, read from a private copy.
    func strings(_ sql: String) throws -> [String] {
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        return try snapshot.database.read { db in try String.fetchAll(db, sql: sql) }
    }

    /// The names of the files beside the store (the work directory included when present).
    func directoryListing() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []).sorted()
    }
}

/// The bytes of a store's main file and companions; a missing file is nil.
struct StoreBytes: Equatable, CustomStringConvertible {
    let files: [String: Data?]

    init(_ url: URL, suffixes: [String] = ["", "-wal", "-shm", "-journal"]) {
        var files: [String: Data?] = [:]
        for suffix in suffixes {
            files[suffix] = try? Data(contentsOf: URL(fileURLWithPath: url.path + suffix))
        }
        self.files = files
    }

    var description: String {
        files.sorted { $0.key < $1.key }.map { "\($0.key.isEmpty ? "main" : $0.key): \($0.value?.count ?? -1) bytes" }
            .joined(separator: ", ")
    }
}

/// Collects what happens during an upgrade: events and the file-system sites reached.
final class UpgradeRecorder: @unchecked Sendable {
    // @unchecked: every property is guarded by `lock`.
    private let lock = NSLock()
    private var _events: [UpgradeEvent] = []
    private var _sites: [String] = []
    private var _operations: [FileSystem.Operation] = []

    var events: [UpgradeEvent] { lock.withLock { _events } }
    var sites: [String] { lock.withLock { _sites } }
    /// The kind of call made at each of ``sites``, in the same order: a sync's tells its
    /// ``SyncKind``.
    var operations: [FileSystem.Operation] { lock.withLock { _operations } }

    func record(_ event: UpgradeEvent) {
        lock.withLock { _events.append(event) }
    }

    /// A file system that records every site and injects `fault` at the `occurrence`-th
    /// call of `site` (0-based).
    func fileSystem(faultAt site: String? = nil, occurrence: Int = 0, fault: FileSystem.Fault = .crash)
        -> FileSystem
    {
        FileSystem { [self] operation, reached in
            lock.withLock {
                let seen = _sites.filter { $0 == reached }.count
                _sites.append(reached)
                _operations.append(operation)
                return reached == site && seen == occurrence ? fault : nil
            }
        }
    }
}

/// Records an issue unless `error` refuses the unknown version `name`, listing `available`.
func expectUnknownVersion(
    _ error: UpgradeError, _ name: String, available: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    guard case .unknownVersion(let refused, let listed) = error.kind else {
        Issue.record("expected an unknown version, got \(error.kind)", sourceLocation: sourceLocation)
        return
    }
    #expect(refused == name, sourceLocation: sourceLocation)
    #expect(listed == available, sourceLocation: sourceLocation)
}

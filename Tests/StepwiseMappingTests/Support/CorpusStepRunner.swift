import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Runs the steps of one corpus history, one at a time, on copies of the corpus stores.
///
/// Explicit steps use the corpus's own `.xcmappingmodel` files, found beside the bundle as
/// ``MappingDirectory`` finds them. A step without one is inferred, like the corpus steps that
/// have no mapping model (Moody 1 → 2, wibosco 3 → 4). Policies come from
/// ``SamplePolicies/registry``, which registers the corpus's under the class names its mapping
/// models use.
///
/// Every step checks that its source files are byte-identical afterwards: a step reads a
/// private copy and never writes to its source.
struct CorpusStepRunner {
    let corpus: Corpus
    let bundle: CorpusBundle
    let models: ModelBundle
    let mappings: MappingDirectory
    let directory: TemporaryDirectory

    init(_ bundle: CorpusBundle) throws {
        corpus = try Corpus.required()
        self.bundle = bundle
        models = try corpus.modelBundle(bundle)
        mappings = try MappingDirectory(bundleAt: corpus.url(bundle), history: models.history)
        directory = try TemporaryDirectory(prefix: "stepwise-corpus-steps")
    }

    /// Version `number` of the bundle, counting from 1.
    func version(_ number: Int) throws -> ObjectModel {
        try models.version(named: bundle.versionName(number))
    }

    /// The mapping models of step `number` → `number + 1`; empty means the step is inferred.
    func mappingModels(from number: Int) -> [MappingModel] {
        mappings.mappingModels(from: bundle.versionName(number), to: bundle.versionName(number + 1))
    }

    /// A copy of a corpus store (with its `-wal` and `-shm`), in a folder of its own.
    func copy(_ shortName: String) throws -> URL {
        let folder = directory.path("copy-\(shortName)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try corpus.copyStore(try CorpusStore.named(shortName), to: folder)
    }

    /// Runs step `number` → `number + 1` from `source` into a new file, checking that the
    /// source's files did not change.
    func step(
        from number: Int, source: URL, mappingModels explicit: [MappingModel]? = nil,
        policies: PolicyRegistry = SamplePolicies.registry
    ) throws -> (destination: URL, report: StepReport) {
        let before = StoreFileBytes(source)
        let destination = directory.path("step-\(number)to\(number + 1)-\(UUID().uuidString).sqlite")
        let step = MigrationStep(
            from: try version(number), to: try version(number + 1),
            mappingModels: explicit ?? mappingModels(from: number), policies: policies)
        let report = try step.run(source: source, destination: destination)
        #expect(StoreFileBytes(source) == before, "step \(number) → \(number + 1) changed its source's files")
        return (destination, report)
    }

    /// Runs the steps `first` → … → `last` one after another, each from the previous result.
    func chain(from first: Int, to last: Int, source: URL) throws -> URL {
        var current = source
        for number in first..<last {
            current = try step(from: number, source: current).destination
        }
        return current
    }

    /// Reads a store (a copy or a step's result) as objects of version `number`.
    func read<T>(_ url: URL, version number: Int, _ body: (ObjectContext) throws -> T) throws -> T {
        let layout = try StoreLayout(model: try version(number))
        return try Self.read(url) { db in try body(ObjectContext(db, layout: layout)) }
    }

    /// Reads a store with SQL.
    static func read<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// A store's metadata and the `Z_UUID` column of its `Z_METADATA` row.
    static func metadata(_ url: URL) throws -> (metadata: StoreMetadata, zUUID: String?) {
        try read(url) { db in
            (
                try StoreMetadata.read(from: db, path: url.path),
                try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA")
            )
        }
    }

    /// `Z_PRIMARYKEY` as `"<Z_NAME> <Z_SUPER> <Z_MAX>"` lines, in `Z_ENT` order.
    static func primaryKeyRows(_ url: URL) throws -> [String] {
        try read(url) { db in
            try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map {
                "\($0["Z_NAME"] as String) \($0["Z_SUPER"] as Int) \($0["Z_MAX"] as Int)"
            }
        }
    }

    /// The names of a store's tables.
    static func tableNames(_ url: URL) throws -> Set<String> {
        try read(url) { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        }
    }
}

/// The bytes of a store's main file, `-wal` and `-shm` (nil where a file is absent).
struct StoreFileBytes: Equatable {
    let files: [Data?]

    init(_ url: URL) {
        files = ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }
}

import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting

@testable import Stepwise

/// The folder one bad-input case works in: the sample bundles, a seeded store and whatever
/// the case breaks, all under one temporary directory so that a snapshot of it holds every
/// input file (and anything an entry point leaves beside them).
///
/// The conventional names: the store is `Store.sqlite`, the sample bundle
/// `Recipes.xcdatamodeld` with `Recipes.mappings/` and `Recipes.history` beside it.
final class BadInputWorkspace: @unchecked Sendable {
    // @unchecked: `facts` is the only mutable state, guarded by `lock`.
    let directory: TemporaryDirectory
    /// The directory, symbolic links resolved (errors name resolved paths).
    let url: URL
    private let lock = NSLock()
    private var facts: [String: Int64] = [:]
    /// Folders whose permissions a case lowered, restored before the directory is removed.
    private var lockedFolders: [URL] = []

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-bad-input")
        url = directory.url.resolvingSymlinksInPath()
    }

    deinit {
        for folder in lockedFolders {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
    }

    /// Whether the tests run as root, for whom `chmod` does not stop reads or writes.
    static var isRoot: Bool { getuid() == 0 }

    /// A path inside the workspace.
    func path(_ relative: String) -> URL {
        url.appendingPathComponent(relative)
    }

    /// The store every case uses, `Store.sqlite`.
    var store: URL { path("Store.sqlite") }
    /// The sample bundle, `Recipes.xcdatamodeld`.
    var bundle: URL { path("Recipes.xcdatamodeld") }
    /// A version's `contents` file inside the sample bundle.
    func contents(of version: String) -> URL {
        bundle.appendingPathComponent("\(version).xcdatamodel/contents")
    }
    /// A mapping file of the sample bundle.
    func mappingFile(_ name: String) -> URL {
        path("Recipes.mappings/\(name)")
    }

    // MARK: Facts a case records while arranging, for its expectation

    func record(_ name: String, _ value: Int64) {
        lock.withLock { facts[name] = value }
    }

    func fact(_ name: String) -> Int64 {
        lock.withLock { facts[name] ?? -1 }
    }

    // MARK: Arranging

    /// Writes the sample bundles (Recipes, University, Events) with their history files and
    /// mapping folders.
    func writeSamples() throws {
        _ = try SampleHistories.write(to: url)
    }

    /// Writes the samples and a Recipes store at its first version, seeded with the four
    /// hand-picked recipes (chefs, recipes and ingredients have primary keys from 1).
    func writeRecipesStore() throws {
        try writeSamples()
        try StoreCreator.createStore(at: store, model: RecipesHistory.v1)
        try DemoSeed.seedRecipes(at: store, model: RecipesHistory.v1)
    }

    /// `Mixed.xcdatamodeld`, versions of three stems with no history file: `Foo 2`, `Bar 3`
    /// (current) and `Baz 4`, each with an entity of its own; and a store at `Foo 2`. Nothing
    /// orders `Foo 2` and `Baz 4`: neither is named after the bundle nor current, and no mapping
    /// model or renaming identifier links them.
    func writeMixedStemsStore() throws {
        let versions = [("Foo 2", "Apple"), ("Bar 3", "Pear"), ("Baz 4", "Plum")].map { name, entity in
            ObjectModel(name, entities: [Entity(entity, attributes: [Attribute("name", .string)])])
        }
        try XcodeModelWriter.writeBundle(versions, current: "Bar 3", to: path("Mixed.xcdatamodeld"))
        try StoreCreator.createStore(at: store, model: versions[0])
    }

    /// ``writeRecipesStore()``, then one more chef left only in the store's `-wal`, as a killed
    /// app leaves it: the upgrade then copies the store (with its `-wal`) before step 1.
    func writeRecipesStoreWithRowsInWAL() throws {
        try writeRecipesStore()
        try WALWriter.write(to: store) { db in
            _ = try ObjectContext(db, layout: StoreLayout(model: RecipesHistory.v1)).insert(
                "Chef", ["name": "In the WAL"])
        }
    }

    /// Runs SQL on the store in place (arranging only: entry points never open it so).
    func execute(_ sql: String, arguments: StatementArguments = [], on file: URL? = nil) throws {
        let queue = try DatabaseQueue(path: (file ?? store).path)
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
        try queue.close()
    }

    /// Rewrites the store's metadata in place (arranging only).
    func editMetadata(_ change: (inout StoreMetadata) -> Void) throws {
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            var metadata = try StoreMetadata.read(from: db, path: store.path)
            change(&metadata)
            try metadata.write(to: db, path: store.path)
        }
        try queue.close()
    }

    /// Replaces `text` in a file with `replacement`; throws when `text` isn't there, so a
    /// case can't silently stop breaking what it means to break.
    func edit(_ file: URL, replacing text: String, with replacement: String) throws {
        let original = try String(contentsOf: file, encoding: .utf8)
        guard original.contains(text) else { throw BadInputSetupError.textNotFound(text, file: file.path) }
        try Data(original.replacingOccurrences(of: text, with: replacement).utf8).write(to: file)
    }

    /// Lowers a folder's permissions; restored when the workspace goes away.
    func makeReadOnly(_ folder: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        lock.withLock { lockedFolders.append(folder) }
    }

    func makeUnreadable(_ file: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
    }

    // MARK: Entry points

    /// `Upgrader(bundleAt:)` for the sample bundle, with the samples' policies (or others)
    /// and, for environment faults, a file-system seam.
    func upgrader(
        bundle: URL? = nil, mappings: URL? = nil, policies: PolicyRegistry = SamplePolicies.registry,
        fileSystem: FileSystem = FileSystem()
    ) throws -> Upgrader {
        var options = UpgradeOptions(lockTimeout: .seconds(5))
        options.fileSystem = fileSystem
        return try Upgrader(bundleAt: bundle ?? self.bundle, mappingsAt: mappings, policies: policies, options: options)
    }

    /// `upgradeIfNeeded(storeAt:)` of the sample bundle on the store.
    func upgradeStore(
        policies: PolicyRegistry = SamplePolicies.registry, fileSystem: FileSystem = FileSystem()
    ) throws -> UpgradeReport {
        try upgrader(policies: policies, fileSystem: fileSystem).upgradeIfNeededSynchronously(storeAt: store)
    }

    /// `VersionRegistry.identify(storeAt:)` with the Recipes history.
    func identifyStore(_ file: URL? = nil) throws -> StoreIdentification {
        try VersionRegistry(history: RecipesHistory.history).identify(storeAt: file ?? store)
    }

    /// Runs the `stepwise` executable beside the test bundle (`swift test` builds it: the CLI
    /// tests depend on it).
    func runCommand(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner().run(arguments)
    }
}

/// A case's arrangement went wrong: the case itself is broken, not the library.
enum BadInputSetupError: Error, CustomStringConvertible {
    case textNotFound(String, file: String)
    case missingCorpus

    var description: String {
        switch self {
        case .textNotFound(let text, let file): "the case expected to find \(text) in \(file)"
        case .missingCorpus: "this case needs ../shared/corpus"
        }
    }
}

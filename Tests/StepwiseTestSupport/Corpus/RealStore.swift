import Foundation
import GRDB
import StepwiseMatrix
import StepwiseModel
import StepwiseStore

/// Every store Core Data wrote that the corpus holds, found by walking the corpus, with the model
/// version that wrote it when the corpus has that version's source.
///
/// Unlike ``CorpusStore``, which lists the first three projects' stores by hand, this catalogue
/// is discovered: any SQLite file with a `Z_METADATA` table anywhere under the corpus is a store
/// (Wire's `*.wiredatabase`, `compiled/`, `real-stores/`…), so stores added to the corpus later
/// are tested without a change here. A store's model is searched for in the `.xcdatamodeld`
/// bundles of its own project (the corpus folder it sits in, and that folder's ancestors up to
/// the corpus root): the version whose entity hashes equal the store's metadata, preferring the
/// one its `NSStoreModelVersionIdentifiers` name. A store with no such version (Photos, whose
/// model is only in its `Z_MODELCACHE`; a store written by a version the project no longer has)
/// has a nil ``version`` and a ``whyNoModel``.
///
/// Corpus stores must never be opened in place: ``withCopy(_:)`` reads a copy.
package struct RealStore: Sendable, CustomStringConvertible {
    /// The store's path inside the corpus.
    package let path: String
    /// The store's main file.
    package let url: URL
    /// The bundle holding ``version``, if found.
    package let bundle: URL?
    /// Every `.xcdatamodeld` of the store's project, searched for ``version``.
    package let projectBundles: [URL]
    /// The version whose hashes the store's metadata holds, if the corpus has its source.
    package let version: ObjectModel?
    /// Why ``version`` is nil.
    package let whyNoModel: String?
    /// The store's metadata.
    package let metadata: StoreMetadata

    package var description: String {
        "\(path) (\(version?.name ?? "no model"), \(metadata.release))"
    }

    /// Runs `body` on a fresh copy of the store (with its -wal and -shm) in a temporary folder.
    package func withCopy<T>(_ body: (DatabaseQueue, URL) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        let copy = directory.url.appendingPathComponent(url.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let from = URL(fileURLWithPath: url.path + suffix)
            guard FileManager.default.fileExists(atPath: from.path) else { continue }
            let to = URL(fileURLWithPath: copy.path + suffix)
            try FileManager.default.copyItem(at: from, to: to)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: to.path)
        }
        let queue = try DatabaseQueue(path: copy.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        return try body(queue, copy)
    }
}

extension Corpus {
    /// Every store of the corpus (see ``RealStore``), sorted by path. Bundles are read once each.
    ///
    /// A bundle Stepwise refuses fails the catalogue unless ``RefusedCorpusInput`` lists it; a
    /// listed one leaves its stores without a model, their ``RealStore/whyNoModel`` naming the
    /// refusal and its issue, and a listed one that now loads fails the catalogue too.
    package func realStores() throws -> [RealStore] {
        var bundles = BundleCache(corpusRoot: root)
        var stores: [RealStore] = []
        for url in try storeFiles() {
            let path = String(url.path.dropFirst(root.path.count + 1))
            let metadata = try readMetadata(of: url)
            var found: (bundle: URL, version: ObjectModel)?
            let projectBundles = bundlesAround(url)
            for bundleURL in projectBundles {
                guard let history = try bundles.history(at: bundleURL) else { continue }
                let matches = history.versions.filter { $0.isCompatible(withEntityHashes: metadata.versionHashes) }
                let named = matches.last { version in
                    let identifiers = metadata.versionIdentifiers.filter { !$0.isEmpty }
                    return !identifiers.isEmpty && identifiers == version.versionIdentifiers
                }
                if let version = named ?? matches.last {
                    found = (bundleURL, version)
                    break
                }
            }
            let refusals = projectBundles.compactMap { bundles.refusals[$0.path] }
            let why: String? =
                found != nil
                ? nil
                : !refusals.isEmpty
                    ? "refused: " + refusals.map(\.description).joined(separator: "; ")
                    : projectBundles.isEmpty
                        ? "no .xcdatamodeld in its project (its model is only in Z_MODELCACHE)"
                        : "no version of \(projectBundles.map(\.lastPathComponent).joined(separator: ", ")) has its entity hashes "
                            + "(identifiers \(metadata.versionIdentifiers))"
            stores.append(
                RealStore(
                    path: path, url: url, bundle: found?.bundle, projectBundles: projectBundles,
                    version: found?.version, whyNoModel: why, metadata: metadata))
        }
        return stores
    }

    /// Whether `bundle`, a folder inside the corpus, is a model bundle ``RefusedCorpusInput``
    /// lists as refused: a test that reads a store's project bundles itself leaves it aside.
    package func isListedAsRefused(_ bundle: URL) -> Bool {
        let path = bundle.standardizedFileURL.path
        guard path.hasPrefix(root.path + "/") else { return false }
        return RefusedCorpusInput.listed(String(path.dropFirst(root.path.count + 1))) != nil
    }

    /// Files under the corpus that start with SQLite's header and have a `Z_METADATA` table.
    private func storeFiles() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            let name = url.lastPathComponent
            guard !name.hasSuffix("-wal"), !name.hasSuffix("-shm"), !name.hasSuffix("-journal"),
                (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                let handle = try? FileHandle(forReadingFrom: url)
            else { continue }
            let header = (try? handle.read(upToCount: 16)) ?? Data()
            try? handle.close()
            guard header == Data("SQLite format 3\0".utf8) else { continue }
            files.append(url.standardizedFileURL)
        }
        return
            try files
            .filter { try hasMetadataTable($0) }
            .sorted { $0.path < $1.path }
    }

    /// Opened read-only and immutable (``ImmutableStore``): the corpus file is never written.
    private func hasMetadataTable(_ url: URL) throws -> Bool {
        let queue = try ImmutableStore.openQueue(at: url)
        defer { try? queue.close() }
        return (try? queue.read { db in try db.tableExists("Z_METADATA") }) ?? false
    }

    /// Read from a copy, so metadata committed only in the `-wal` is seen too.
    private func readMetadata(of url: URL) throws -> StoreMetadata {
        let store = RealStore(
            path: url.path, url: url, bundle: nil, projectBundles: [], version: nil, whyNoModel: nil,
            metadata: StoreMetadata(versionHashes: [:], versionIdentifiers: [], storeUUID: ""))
        return try store.withCopy { queue, copy in
            try queue.read { db in try StoreMetadata.read(from: db, path: copy.path) }
        }
    }

    /// The `.xcdatamodeld` bundles in the store's folder and its ancestors, nearest first, up to
    /// its project's folder: the first one with a LICENSE file (each corpus project keeps its own).
    private func bundlesAround(_ store: URL) -> [URL] {
        var bundles: [URL] = []
        var folder = store.deletingLastPathComponent()
        var reachedProject = false
        while !reachedProject, folder.path.hasPrefix(root.path), folder.path != root.path {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            reachedProject = names.contains { $0.uppercased().hasPrefix("LICENSE") }
            let enumerator = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "xcdatamodeld" {
                    bundles.append(url.standardizedFileURL)
                    enumerator?.skipDescendants()
                }
            }
            if !bundles.isEmpty { break }
            folder = folder.deletingLastPathComponent()
        }
        return bundles.sorted { $0.path < $1.path }
    }
}

/// Bundles read once per catalogue, by path.
private struct BundleCache {
    let corpusRoot: URL
    var histories: [String: VersionHistory?] = [:]
    /// The bundles refused as ``RefusedCorpusInput`` lists them, by absolute path.
    var refusals: [String: RefusedCorpusInput] = [:]

    /// The bundle's versions, or nil for a bundle ``RefusedCorpusInput`` lists as refused. Any
    /// other bundle that can't be read fails the catalogue: silently skipping it would skip its
    /// stores too. A listed bundle that now reads fails it as well, so the list stays true.
    mutating func history(at url: URL) throws -> VersionHistory? {
        if let cached = histories[url.path] { return cached }
        let path = String(url.path.dropFirst(corpusRoot.path.count + 1))
        let history: VersionHistory?
        do {
            history = try ModelBundle(contentsOf: url).history
        } catch {
            guard let refusal = RefusedCorpusInput.listed(path) else { throw error }
            refusals[url.path] = refusal
            history = nil
        }
        if history != nil, let stale = RefusedCorpusInput.listed(path) {
            throw RefusedCorpusInputError.nowAccepted(stale)
        }
        histories[url.path] = history
        return history
    }
}

/// The corpus's list of refused inputs is stale.
package enum RefusedCorpusInputError: Error, CustomStringConvertible {
    /// A listed input is accepted now: take it off ``RefusedCorpusInput/all``.
    case nowAccepted(RefusedCorpusInput)

    package var description: String {
        switch self {
        case .nowAccepted(let input):
            return "\(input.path) is listed as refused (issue \(input.issue)) but Stepwise accepts it now: "
                + "remove it from RefusedCorpusInput.all so that the corpus tests test it"
        }
    }
}

import Foundation
import StepwiseModel

/// The mapping models of a model history, by the step they serve: Stepwise's JSON mapping files
/// (``MappingFile``) and Xcode's `.xcmappingmodel` folders (``XcodeMappingModel``).
///
/// ``init(bundleAt:mappingsAt:history:)`` finds them where a team keeps them:
/// - `*.xcmappingmodel` beside the `.xcdatamodeld` bundle, where Xcode puts them;
/// - `<Name>.mappings/` beside the bundle, or the folder given instead: JSON files,
///   `.xcmappingmodel` folders, or both.
///
/// Several mapping models for one step are Core Data's multi-pass migration: they run in
/// sequence into the same destination, in the order of a JSON file's `order` key (0 when left
/// out, and always 0 for an `.xcmappingmodel`), then of their file names. One step's mapping
/// models must all be of one format: a JSON file beside the `.xcmappingmodel` it was converted
/// from would otherwise run the step twice.
public struct MappingDirectory: Sendable {
    /// The mapping folder read (`<Name>.mappings/` or the one given).
    public var url: URL
    /// Every mapping file read, in file-name order.
    public var files: [URL]
    /// Mapping models by (source version, destination version), in run order.
    public var steps: [StepKey: [MappingModel]]

    /// A step between two versions.
    public struct StepKey: Sendable, Hashable, CustomStringConvertible {
        public var source: String
        public var destination: String
        public init(_ source: String, _ destination: String) {
            self.source = source
            self.destination = destination
        }
        public var description: String { "\(source) → \(destination)" }
    }

    /// The conventional mapping folder of a bundle: `Recipes.xcdatamodeld` → `Recipes.mappings`.
    public static func defaultURL(for bundle: URL) -> URL {
        bundle.deletingPathExtension().appendingPathExtension("mappings")
    }

    /// Reads every mapping file of one folder (`*.json` and `*.xcmappingmodel`), checking each
    /// against its two versions. A missing folder is an empty set of mappings.
    public init(contentsOf url: URL, history: VersionHistory) throws {
        try self.init(folder: url, files: Self.mappingFiles(in: url), documents: [:], history: history) {
            (error) throws(MappingError) in throw error
        }
    }

    /// Reads the mapping models of the bundle at `bundleURL`: the `.xcmappingmodel` folders
    /// beside it, and the mapping folder (`mappingsURL`, else `<Name>.mappings/` beside the
    /// bundle when it exists).
    ///
    /// A mapping model beside the bundle whose model paths name another bundle found beside it
    /// (`Other.xcdatamodeld`) belongs to that bundle and is left out.
    public init(bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil, history: VersionHistory) throws {
        try self.init(bundleAt: bundleURL, mappingsAt: mappingsURL, history: history) {
            (error) throws(MappingError) in throw error
        }
    }

    /// Reads like ``init(bundleAt:mappingsAt:history:)``, but sets each mapping model that can't
    /// be read or bound aside in `failures`, with its error, and reads on: for a check that
    /// reports every broken mapping at once (`HistoryCheck`, `stepwise check`). The steps of
    /// the mapping models set aside are missing from ``steps``.
    public init(
        bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil, history: VersionHistory,
        settingAside failures: inout [MappingError]
    ) {
        self.init(bundleAt: bundleURL, mappingsAt: mappingsURL, history: history) { failures.append($0) }
    }

    /// The bundle's mapping models; `setAside` either throws a file's error (stopping the read)
    /// or records it (the file is left out).
    private init<Failure: Error>(
        bundleAt bundleURL: URL, mappingsAt mappingsURL: URL?, history: VersionHistory,
        setAside: (MappingError) throws(Failure) -> Void
    ) throws(Failure) {
        let folder = mappingsURL ?? Self.defaultURL(for: bundleURL)
        let beside = bundleURL.deletingLastPathComponent()
        // Each document is read once, here, and bound below.
        var documents: [URL: XcodeMappingDocument] = [:]
        var unreadable: Set<String> = []
        for file in Self.mappingFiles(in: beside) where file.pathExtension == XcodeMappingModel.pathExtension {
            let document: XcodeMappingDocument
            do {
                document = try XcodeMappingDocument(contentsOf: file)
            } catch {
                try setAside(error)
                unreadable.insert(file.standardizedFileURL.path)
                continue
            }
            if !Self.belongsToAnotherBundle(document, bundle: bundleURL) { documents[file] = document }
        }
        let known = Set(documents.keys.map(\.standardizedFileURL.path)).union(unreadable)
        let files =
            Array(documents.keys)
            + Self.mappingFiles(in: folder).filter { !known.contains($0.standardizedFileURL.path) }
        try self.init(folder: folder, files: files, documents: documents, history: history, setAside: setAside)
    }

    private init<Failure: Error>(
        folder: URL, files: [URL], documents: [URL: XcodeMappingDocument], history: VersionHistory,
        setAside: (MappingError) throws(Failure) -> Void
    ) throws(Failure) {
        self.url = folder
        self.files = files.sorted { $0.lastPathComponent < $1.lastPathComponent }
        var found: [StepKey: [(order: Int, file: String, model: MappingModel)]] = [:]
        for file in self.files {
            do throws(MappingError) {
                let (model, order) = try Self.read(file, document: documents[file], history: history)
                let key = StepKey(model.sourceVersion, model.destinationVersion)
                if let other = found[key]?.first(where: { $0.model.origin?.format != model.origin?.format }) {
                    throw MappingError(
                        .invalidFile(
                            "the step \(key) also has the mapping \(other.file), of another format. Keep one: a JSON file converted from an .xcmappingmodel replaces it, or the step would run twice"
                        ), file: file.path)
                }
                found[key, default: []].append((order, file.lastPathComponent, model))
            } catch {
                try setAside(error)
            }
        }
        steps = found.mapValues { entries in
            entries.sorted { ($0.order, $0.file) < ($1.order, $1.file) }.map(\.model)
        }
    }

    /// One mapping file bound to its two versions, with its run order within the step.
    private static func read(_ file: URL, document: XcodeMappingDocument?, history: VersionHistory) throws(MappingError)
        -> (model: MappingModel, order: Int)
    {
        if file.pathExtension == XcodeMappingModel.pathExtension {
            return (try XcodeMappingModel.load(file, document: document, history: history), 0)
        }
        do {
            let header = try MappingFile.header(of: file)
            guard let source = history.version(named: header.source) else {
                throw MappingError(.invalidFile("no model version named '\(header.source)'"), file: file.path)
            }
            guard let destination = history.version(named: header.destination) else {
                throw MappingError(.invalidFile("no model version named '\(header.destination)'"), file: file.path)
            }
            return (try MappingFile.load(file, source: source, destination: destination), header.order)
        } catch let error as MappingError {
            throw error
        } catch {
            // MappingFile throws MappingError only; anything else is reported against the file.
            throw MappingError(.failed("\(error)"), file: file.path)
        }
    }

    /// The mapping models of one step, in run order (empty: infer it).
    public func mappingModels(from source: String, to destination: String) -> [MappingModel] {
        steps[StepKey(source, destination)] ?? []
    }

    /// The JSON files and `.xcmappingmodel` folders directly in `folder`; none when it is missing.
    private static func mappingFiles(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted()
            .filter { $0.hasSuffix(".json") || $0.hasSuffix("." + XcodeMappingModel.pathExtension) }
            .map { folder.appendingPathComponent($0) }
    }

    /// Whether a mapping model beside `bundle` names, in its model paths, a different bundle that
    /// exists beside it.
    private static func belongsToAnotherBundle(_ document: XcodeMappingDocument, bundle: URL) -> Bool {
        let ownName = bundle.deletingPathExtension().lastPathComponent
        for path in [document.sourceModelPath, document.destinationModelPath].compactMap({ $0 }) {
            guard let name = XcodeMappingModel.bundleName(path), name != ownName else { continue }
            let other = bundle.deletingLastPathComponent().appendingPathComponent(name + ".xcdatamodeld")
            if FileManager.default.fileExists(atPath: other.path) { return true }
        }
        return false
    }
}

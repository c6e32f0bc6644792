import Foundation
import StepwiseModel

/// The mapping models of a model history, by the step they serve: Stepwise's JSON mapping files
/// (`MappingFile`), Xcode's `.xcmappingmodel` folders (`XcodeMappingModel`) and the `.cdm`
/// files Xcode compiles from them (`CompiledMappingModel`).
///
/// `init(bundleAt:mappingsAt:history:)` finds them where a team keeps them:
/// - `*.xcmappingmodel` beside the `.xcdatamodeld` bundle, where Xcode puts them;
/// - `*.cdm` beside the bundle, where an app ships them beside its compiled `.momd`;
/// - `<Name>.mappings/` beside the bundle, or the folder given instead: JSON files,
///   `.xcmappingmodel` folders, `.cdm` files, or any of them.
///
/// A `.cdm` is known by a name matching `*.cdm*` (`Model.cdm`, `Model.cdm_precompiled`) and
/// read by its content.
///
/// Several mapping models for one step are Core Data's multi-pass migration: they run in
/// sequence into the same destination, in the order of a JSON file's `order` key (0 when left
/// out, and always 0 for an `.xcmappingmodel`), then of their file names.
///
/// A mapping model runs once. Mapping models of one step with the same content
/// (the same versions and entity mappings, compared in a canonical form, whatever the file, its
/// format or its bytes) are one mapping model found at several paths, such as an
/// `.xcmappingmodel` beside the bundle and its copy, or the JSON file converted from it, in the
/// mapping folder: the first in run order runs, and its ``MappingOrigin/identicalCopies`` names
/// the others. Two different mapping models of one step that both map a source entity to the
/// same destination entity would create those instances twice: they are refused with
/// ``MappingError/Kind/overlappingMappingModels(from:to:sourceEntity:destinationEntity:otherFile:difference:)``,
/// naming both files, before anything runs.
public struct MappingDirectory: Sendable {
    /// The mapping folder read (`<Name>.mappings/` or the one given).
    package var url: URL
    /// Every mapping file read, in file-name order.
    package var files: [URL]
    /// Mapping models by (source version, destination version), in run order.
    package var steps: [StepKey: [MappingModel]]

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
    package static func defaultURL(for bundle: URL) -> URL {
        bundle.deletingPathExtension().appendingPathExtension("mappings")
    }

    /// Reads every mapping file of one folder (`*.json`, `*.xcmappingmodel` and `*.cdm*`), checking each
    /// against its two versions. A missing folder is an empty set of mappings.
    package init(contentsOf url: URL, history: VersionHistory) throws {
        try self.init(folder: url, files: Self.mappingFiles(in: url), documents: [:], history: history) {
            (error) throws(MappingError) in throw error
        }
    }

    /// Reads the mapping models of the bundle at `bundleURL`: the `.xcmappingmodel` folders
    /// and `.cdm` files beside it, and the mapping folder (`mappingsURL`, else
    /// `<Name>.mappings/` beside the bundle when it exists).
    ///
    /// A mapping model beside the bundle whose model paths name another bundle found beside it
    /// (`Other.xcdatamodeld`) belongs to that bundle and is left out; so is a `.cdm` beside the
    /// bundle whose entity hashes fit no pair of its versions, when another model
    /// (`*.xcdatamodeld`, `*.momd`, `*.mom`) is beside it too.
    package init(bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil, history: VersionHistory) throws {
        try self.init(bundleAt: bundleURL, mappingsAt: mappingsURL, history: history) {
            (error) throws(MappingError) in throw error
        }
    }

    /// Reads like ``init(bundleAt:mappingsAt:history:)``, but sets each mapping model that can't
    /// be read or bound aside in `failures`, with its error, and reads on: for a check that
    /// reports every broken mapping at once (`HistoryCheck`, `stepwise check`). The steps of
    /// the mapping models set aside are missing from ``steps``.
    package init(
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
        var documents: [URL: Document] = [:]
        var unreadable: Set<String> = []
        for file in Self.mappingFiles(in: beside) {
            do throws(MappingError) {
                if file.pathExtension == XcodeMappingModel.pathExtension {
                    let document = try XcodeMappingDocument(contentsOf: file)
                    if !Self.belongsToAnotherBundle(document, bundle: bundleURL) { documents[file] = .xcode(document) }
                } else if CompiledMappingModel.hasCompiledName(file) {
                    let document = try CompiledMappingDocument(contentsOf: file)
                    if !Self.belongsToAnotherBundle(document, bundle: bundleURL, history: history) {
                        documents[file] = .compiled(document)
                    }
                }
            } catch {
                try setAside(error)
                unreadable.insert(file.standardizedFileURL.path)
            }
        }
        let known = Set(documents.keys.map(\.standardizedFileURL.path)).union(unreadable)
        let files =
            Array(documents.keys)
            + Self.mappingFiles(in: folder).filter { !known.contains($0.standardizedFileURL.path) }
        try self.init(folder: folder, files: files, documents: documents, history: history, setAside: setAside)
    }

    /// A mapping model document already read.
    private enum Document {
        case xcode(XcodeMappingDocument)
        case compiled(CompiledMappingDocument)
    }

    private init<Failure: Error>(
        folder: URL, files: [URL], documents: [URL: Document], history: VersionHistory,
        setAside: (MappingError) throws(Failure) -> Void
    ) throws(Failure) {
        self.url = folder
        self.files = files.sorted { ($0.lastPathComponent, $0.path) < ($1.lastPathComponent, $1.path) }
        var found: [StepKey: [Found]] = [:]
        for file in self.files {
            do throws(MappingError) {
                let (model, order) = try Self.read(file, document: documents[file], history: history)
                let key = StepKey(model.sourceVersion, model.destinationVersion)
                found[key, default: []].append(Found(order: order, file: file, model: model))
            } catch {
                try setAside(error)
            }
        }
        var steps: [StepKey: [MappingModel]] = [:]
        // Sorted, so that the first error thrown is the same on every run.
        for key in found.keys.sorted(by: { ($0.source, $0.destination) < ($1.source, $1.destination) }) {
            let entries = (found[key] ?? []).sorted { $0.runsBefore($1) }
            do throws(MappingError) {
                steps[key] = try Self.runningEachOnce(entries, step: key)
            } catch {
                // Set aside, the step is left out: which of the two would run can't be told.
                try setAside(error)
            }
        }
        self.steps = steps
    }

    /// A mapping model read from a file, with its run order within its step.
    private struct Found {
        var order: Int
        var file: URL
        var model: MappingModel

        /// Run order within a step: `order`, then file name, then path (the same name beside
        /// the bundle and in the mapping folder).
        func runsBefore(_ other: Found) -> Bool {
            (order, file.lastPathComponent, file.path) < (other.order, other.file.lastPathComponent, other.file.path)
        }
    }

    /// One step's mapping models in run order, each content once: a later identical copy is
    /// recorded in the first one's ``MappingOrigin/identicalCopies`` and left out.
    /// - throws: ``MappingError/Kind/overlappingMappingModels(from:to:sourceEntity:destinationEntity:otherFile:difference:)``
    ///   for two different mapping models that map one source entity to one destination entity.
    private static func runningEachOnce(_ entries: [Found], step: StepKey) throws(MappingError) -> [MappingModel] {
        var kept: [(entry: Found, content: MappingModelContent)] = []
        for entry in entries {
            let content = MappingModelContent(entry.model)
            if let index = kept.firstIndex(where: { $0.content == content }) {
                kept[index].entry.model.origin?.identicalCopies.append(entry.file.path)
                continue
            }
            for other in kept {
                guard let (mine, theirs) = content.sharedEntityPair(with: other.content) else { continue }
                throw MappingError(
                    .overlappingMappingModels(
                        from: step.source, to: step.destination, sourceEntity: mine.sourceEntity ?? "",
                        destinationEntity: mine.destinationEntity ?? "", otherFile: other.entry.file.path,
                        difference: mine.firstDifference(from: theirs) ?? content.firstDifference(from: other.content)),
                    file: entry.file.path, mappingModel: entry.model.name, entityMapping: mine.name)
            }
            kept.append((entry, content))
        }
        return kept.map { $0.entry.model }
    }

    /// One mapping file bound to its two versions, with its run order within the step.
    private static func read(_ file: URL, document: Document?, history: VersionHistory) throws(MappingError)
        -> (model: MappingModel, order: Int)
    {
        switch document {
        case .xcode(let document)?:
            return (try XcodeMappingModel.load(file, document: document, history: history), 0)
        case .compiled(let document)?:
            return (try CompiledMappingModel.load(file, document: document, history: history), 0)
        case nil:
            break
        }
        if file.pathExtension == XcodeMappingModel.pathExtension {
            return (try XcodeMappingModel.load(file, history: history), 0)
        }
        if CompiledMappingModel.hasCompiledName(file) {
            return (try CompiledMappingModel.load(file, history: history), 0)
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
    package func mappingModels(from source: String, to destination: String) -> [MappingModel] {
        steps[StepKey(source, destination)] ?? []
    }

    /// The JSON files, `.xcmappingmodel` folders and `*.cdm*` files directly in `folder`; none
    /// when it is missing.
    private static func mappingFiles(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }.filter {
            $0.pathExtension == "json" || $0.pathExtension == XcodeMappingModel.pathExtension
                || CompiledMappingModel.hasCompiledName($0)
        }
    }

    /// Whether a `.cdm` beside `bundle` fits no pair of its versions while another model is
    /// beside it too: a `.cdm` names no bundle, so it is taken as that other model's.
    private static func belongsToAnotherBundle(
        _ document: CompiledMappingDocument, bundle: URL, history: VersionHistory
    ) -> Bool {
        do {
            _ = try CompiledMappingModel.bind(document, history: history)
            return false
        } catch {
            guard case .noMatchingVersions = error.kind else { return false }
        }
        let folder = bundle.deletingLastPathComponent()
        let own = bundle.standardizedFileURL.lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.contains { name in
            name != own
                && (name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".mom") || name.dropFirst().contains(".momd"))
        }
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

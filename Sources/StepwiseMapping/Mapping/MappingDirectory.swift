import Foundation
import StepwiseModel

/// The mapping files of a model history: every `*.json` in a folder, by the step they serve.
///
/// By convention the folder is `<Name>.mappings/` beside `<Name>.xcdatamodeld`.
public struct MappingDirectory: Sendable {
    /// The folder read.
    public var url: URL
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

    /// Reads every mapping file of the folder, checking each against its two versions.
    /// A missing folder is an empty set of mappings.
    public init(contentsOf url: URL, history: VersionHistory) throws {
        self.url = url
        var found: [StepKey: [(order: Int, file: String, model: MappingModel)]] = [:]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".json") {
            let fileURL = url.appendingPathComponent(file)
            let header = try MappingFile.header(of: fileURL)
            guard let source = history.version(named: header.source) else {
                throw MappingError(.invalidFile("no model version named '\(header.source)'"), file: fileURL.path)
            }
            guard let destination = history.version(named: header.destination) else {
                throw MappingError(.invalidFile("no model version named '\(header.destination)'"), file: fileURL.path)
            }
            let model = try MappingFile.load(fileURL, source: source, destination: destination)
            found[StepKey(header.source, header.destination), default: []].append((header.order, file, model))
        }
        steps = found.mapValues { entries in
            entries.sorted { ($0.order, $0.file) < ($1.order, $1.file) }.map(\.model)
        }
    }

    /// The mapping models of one step, in run order (empty: infer it).
    public func mappingModels(from source: String, to destination: String) -> [MappingModel] {
        steps[StepKey(source, destination)] ?? []
    }
}

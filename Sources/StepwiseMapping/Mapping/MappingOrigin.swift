/// Where a mapping model came from: its file, the file's format, and how Stepwise decided
/// which two model versions it maps between. `stepwise plan` shows it for each explicit step.
public struct MappingOrigin: Sendable, Hashable, Codable {
    /// A mapping file's format.
    public enum Format: String, Sendable, Hashable, Codable {
        /// Stepwise's JSON mapping file (`MappingFile`).
        case json
        /// Xcode's mapping model, a `.xcmappingmodel` folder (`XcodeMappingModel`).
        case xcmappingmodel
        /// Xcode's compiled mapping model, a `.cdm` file (`CompiledMappingModel`).
        case cdm
    }

    /// How a mapping file was bound to its source and destination versions.
    public enum Binding: String, Sendable, Hashable, Codable, CustomStringConvertible {
        /// A JSON file's `source` and `destination` keys.
        case fileHeader = "file header"
        /// The version names at the end of an Xcode mapping model's `sourcemodelpath` and
        /// `destinationmodelpath`.
        case modelPaths = "model paths"
        /// The copies of the two models Xcode embeds in a mapping model, matched by their entities
        /// and properties, when the paths name no version (a version file renamed since).
        case modelSnapshots = "embedded model snapshots"
        /// The one pair of versions whose entities and properties every entity mapping fits,
        /// when neither the paths nor the snapshots name one.
        case entityMappings = "entity mappings"
        /// The entity version hashes a compiled mapping model (`.cdm`) carries for each entity
        /// mapping's source and destination, matched against each version's.
        case entityHashes = "entity version hashes"

        public var description: String { rawValue }
    }

    /// The file, `.xcmappingmodel` folder or `.cdm` file.
    public var path: String
    public var format: Format
    public var binding: Binding
    /// Other files found for the same step with the same content (``MappingDirectory`` runs the
    /// mapping model once, from ``path``): say, an `.xcmappingmodel` beside the bundle and its
    /// copy in the mapping folder. Empty when there is none.
    public var identicalCopies: [String]

    /// Where a mapping model came from.
    ///
    /// - parameters:
    ///   - path: The file or `.xcmappingmodel` folder.
    ///   - format: Its format.
    ///   - binding: How it was bound to its two versions.
    ///   - identicalCopies: Other files of the same content, left unrun (none by default).
    public init(path: String, format: Format, binding: Binding, identicalCopies: [String] = []) {
        self.path = path
        self.format = format
        self.binding = binding
        self.identicalCopies = identicalCopies
    }
}

/// Where a mapping model came from: its file, the file's format, and how Stepwise decided
/// which two model versions it maps between. `stepwise plan` shows it for each explicit step.
public struct MappingOrigin: Sendable, Hashable, Codable {
    /// A mapping file's format.
    public enum Format: String, Sendable, Hashable, Codable {
        /// Stepwise's JSON mapping file (``MappingFile``).
        case json
        /// Xcode's mapping model, a `.xcmappingmodel` folder (``XcodeMappingModel``).
        case xcmappingmodel
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

        public var description: String { rawValue }
    }

    /// The file or `.xcmappingmodel` folder.
    public var path: String
    public var format: Format
    public var binding: Binding

    public init(path: String, format: Format, binding: Binding) {
        self.path = path
        self.format = format
        self.binding = binding
    }
}

/// How a step's mapping is obtained.
///
/// The raw values are what reports, events, the journal and the CLI's JSON write.
public enum StepKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Inferred from the two versions (Core Data's lightweight migration).
    case inferred
    /// Written: mapping models from files or code (Core Data's heavyweight migration).
    case explicit

    /// The kind of a step running `models`: inferred when every one of them was.
    public init(running models: [MappingModel]) {
        self = models.allSatisfy(\.isInferred) ? .inferred : .explicit
    }

    public var description: String { rawValue }
}

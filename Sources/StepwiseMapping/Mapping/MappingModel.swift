/// How to carry a store from one model version to another: Core Data's `NSMappingModel`.
///
/// A mapping model is an ordered list of ``EntityMapping``s. Run in order, in three passes
/// (create instances, create relationships, validate), they build the destination store.
/// Several mapping models may form one step: they run in sequence into the same destination
/// (the "StepOne/StepTwo" way of splitting a big migration).
///
/// Write one in Swift, load one from a JSON file (`MappingFile`) or an Xcode mapping model
/// (`XcodeMappingModel`), or infer one from two versions (`MappingInference`).
public struct MappingModel: Sendable, Hashable {
    /// A name for messages; defaults to "<source> → <destination>".
    public var name: String
    /// The source model version's name.
    public var sourceVersion: String
    /// The destination model version's name.
    public var destinationVersion: String
    /// The entity mappings, in the order they run.
    public var entityMappings: [EntityMapping]
    /// Whether the mapping was inferred rather than written.
    public var isInferred: Bool
    /// The file the mapping was read from and how it was bound to its two versions; nil for a
    /// mapping written in code or inferred.
    public var origin: MappingOrigin?

    public init(
        name: String? = nil, from sourceVersion: String, to destinationVersion: String,
        entityMappings: [EntityMapping], isInferred: Bool = false, origin: MappingOrigin? = nil
    ) {
        self.name = name ?? "\(sourceVersion) → \(destinationVersion)"
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.entityMappings = entityMappings
        self.isInferred = isInferred
        self.origin = origin
    }

    /// The entity mapping with this name.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }
}

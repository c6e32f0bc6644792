/// What a model path holds: Xcode's sources, or what Xcode compiles them into for an app.
enum ModelLayout: Sendable, Hashable {
    /// A `.xcdatamodeld` bundle of `.xcdatamodel` versions.
    case sourceBundle
    /// A single `.xcdatamodel` folder.
    case sourceVersion
    /// A compiled model folder: a `.momd` (or a folder holding a `VersionInfo.plist`) of `.mom`
    /// files, one per version.
    case compiledFolder
    /// A single `.mom` file.
    case compiledVersion

    /// Whether the path is one version rather than a bundle of them.
    var isSingleVersion: Bool { self == .sourceVersion || self == .compiledVersion }

    /// How a version's entry in the bundle ends: `.xcdatamodel` or `.mom`.
    var versionSuffix: String { self == .compiledFolder || self == .compiledVersion ? ".mom" : ".xcdatamodel" }
}

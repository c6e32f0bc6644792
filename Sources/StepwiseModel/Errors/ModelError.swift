import Foundation

/// A model that can't be read or used: a model file, a bundle, a compiled model, a version
/// history or a shipped record, naming the file and what to do about it.
///
/// Switch on ``kind`` to tell the cases apart; ``description`` is the sentence to show.
public struct ModelError: Error, Sendable, Hashable, LocalizedError, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        // A model file, bundle or compiled model that can't be read.

        /// The path doesn't exist.
        case notFound
        /// The path is not a model: a `.xcdatamodeld` bundle, a `.xcdatamodel`, a compiled
        /// `.momd` folder or a `.mom` file.
        case notAModel
        /// A `.xcdatamodel` folder without a `contents` file: the pre-Xcode 4 binary format.
        case legacyBinaryFormat
        /// The `contents` file is not well-formed XML or not a Core Data model.
        case malformed(String)
        /// An element lacks a required XML attribute, or has a value Stepwise doesn't know.
        case invalidValue(element: String, attribute: String, value: String?)
        /// A bundle without any `.xcdatamodel` version.
        case emptyBundle
        /// `.xccurrentversion` names a version the bundle doesn't have.
        case unknownCurrentVersion(String)
        /// A version the caller asked for is not in the bundle.
        case unknownVersion(String, available: [String])
        /// A compiled model (a `.mom` file, or the archive of a store's model cache) that is not
        /// a readable `NSManagedObjectModel` archive: why.
        case unreadableCompiledModel(String)
        /// A compiled model folder (`.momd`) whose `VersionInfo.plist` is missing, unreadable or
        /// doesn't match the folder's `.mom` files: why.
        case versionInfoMismatch(String)
        /// A compiled version whose entity hash, computed from its `.mom`, differs from the one
        /// `VersionInfo.plist` records, or an entity only one of the two has.
        case versionHashMismatch(version: String, entity: String)

        // A model that was read but can't be used.

        /// The model version breaks one or more rules; every problem is listed, in model order.
        /// ``ModelError/path`` is the model file, if the model was read from disk.
        case invalidModel(version: String, problems: [ModelProblem])

        // A version history that can't be built.

        /// The order of the versions can't be told: neither their names nor anything else in
        /// the history orders the versions listed. ``ModelError/path`` is the bundle, when the
        /// versions are a bundle's.
        case ambiguousOrder([String], reason: String)
        /// The history file (``ModelError/path``) names a version the bundle doesn't have, or
        /// leaves one out.
        case historyFileMismatch(unknown: [String], missing: [String])

        // A shipped record (``ShippedRecords``) that can't be read or written, or a version
        // that can't be recorded again because its model changed since it shipped.

        /// The record file or folder can't be read.
        case unreadableShippedRecord(String)
        /// The file is not a shipped record, or its name doesn't match the version it records.
        case malformedShippedRecord(String)
        /// The record can't be written.
        case unwritableShippedRecord(String)
        /// The version's model differs from its record; recording it again needs `force`.
        case changedSinceShipped(version: String, differences: [ModelDifference])
    }

    /// The file or folder at fault: the model, bundle or compiled model, the history file or the
    /// shipped record. Nil for a model that wasn't read from disk, and for an order of names
    /// that aren't a bundle's.
    public var path: String?
    /// What went wrong.
    public var kind: Kind

    /// An error about the file at `path`.
    ///
    /// - parameters:
    ///   - path: The file at fault, if any.
    ///   - kind: What went wrong.
    public init(path: String?, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// ``Kind/invalidModel(version:problems:)`` for the model version `version`, read from `file`.
    package init(version: String, file: String? = nil, problems: [ModelProblem]) {
        self.init(path: file, kind: .invalidModel(version: version, problems: problems))
    }

    /// ``Kind/ambiguousOrder(_:reason:)``.
    package static func ambiguousOrder(_ names: [String], reason: String) -> ModelError {
        ModelError(path: nil, kind: .ambiguousOrder(names, reason: reason))
    }

    /// ``Kind/historyFileMismatch(unknown:missing:)`` about the history file `file`.
    package static func historyFileMismatch(file: String, unknown: [String], missing: [String]) -> ModelError {
        ModelError(path: file, kind: .historyFileMismatch(unknown: unknown, missing: missing))
    }

    public var errorDescription: String? { description }

    /// Whether the error says the versions' order can't be told (``Kind/ambiguousOrder(_:reason:)``
    /// or ``Kind/historyFileMismatch(unknown:missing:)``): the versions themselves may still
    /// be readable.
    package var isAboutVersionOrder: Bool {
        switch kind {
        case .ambiguousOrder, .historyFileMismatch: true
        default: false
        }
    }
}

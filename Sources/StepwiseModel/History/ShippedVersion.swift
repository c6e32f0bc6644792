import Foundation

/// A model version as it shipped: its `.xcdatamodel` contents exactly as they were, its
/// entity version hashes and the date it was recorded.
///
/// A team records a version when an app carrying it ships (`stepwise ship`, or
/// ``ShippedRecords/record(_:of:force:now:)``), and commits the record, one JSON file per version
/// in `<Name>.shipped/` beside the bundle. Stores written by that version can then still be
/// identified and upgraded after the version is edited in place, and `stepwise check` can
/// say what the edit changed.
public struct ShippedVersion: Codable, Sendable, Equatable {
    /// The version's name, as in the bundle ("Recipes 2").
    public var name: String
    /// When the version was first recorded as shipped.
    public var shippedAt: Date
    /// The entity version hashes, base64, by entity name: the form of a store's
    /// `NSStoreModelVersionHashes`.
    public var versionHashes: [String: String]
    /// The version's `.xcdatamodel/contents` XML, exactly as it was.
    public var contents: String

    public init(name: String, shippedAt: Date, versionHashes: [String: String], contents: String) {
        self.name = name
        self.shippedAt = shippedAt
        self.versionHashes = versionHashes
        self.contents = contents
    }

    /// The record of `model`, whose `contents` file holds `contents`, shipped at `date`.
    public init(model: ObjectModel, contents: String, shippedAt date: Date) {
        self.init(
            name: model.name, shippedAt: date,
            versionHashes: model.entityVersionHashes.mapValues { $0.base64EncodedString() }, contents: contents)
    }

    /// The recorded model, parsed from ``contents`` with the `.xcdatamodel` reader.
    /// - parameter file: The record's file, named in errors; `<memory>` by default.
    /// - throws: ``ModelError`` naming `file` when the contents can't be read.
    public func model(file: String = "<memory>") throws(ModelError) -> ObjectModel {
        try XcodeModelReader.parse(Data(contents.utf8), versionName: name, path: file)
    }

    /// The recorded hashes as a store's metadata holds them; a hash that isn't base64 is left out.
    public var entityVersionHashes: [String: Data] {
        versionHashes.compactMapValues { Data(base64Encoded: $0) }
    }
}

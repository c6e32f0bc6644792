extension ShippedVersion {
    /// The name a recorded version goes by when its bundle version has been edited since:
    /// `"Recipes 2 (as shipped)"`. Plans, journals and reports use it for the step from the
    /// shipped model to the edited one.
    package static func asShippedName(_ name: String) -> String {
        name + asShippedSuffix
    }

    /// The bundle version an as-shipped name stands for ("Recipes 2"); nil for any other name.
    package static func versionName(asShipped name: String) -> String? {
        guard name.hasSuffix(asShippedSuffix), name.count > asShippedSuffix.count else { return nil }
        return String(name.dropLast(asShippedSuffix.count))
    }

    private static let asShippedSuffix = " (as shipped)"

    /// The recorded models whose versions were edited after they shipped, each named
    /// ``asShippedName(_:)``, in the history's order: the versions stores may still carry that
    /// no version of `history` describes.
    ///
    /// A record whose model writes the same version hashes as its version in `history` is left
    /// out: its stores are that version's already. So is a record of a version `history`
    /// doesn't have, since no step leads from it.
    /// - throws: ``ModelError`` for a record whose contents can't be read.
    package static func asShippedVersions(_ records: [ShippedVersion], in history: VersionHistory) throws
        -> [ObjectModel]
    {
        let byName = Dictionary(records.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var models: [ObjectModel] = []
        for version in history.versions {
            guard let record = byName[version.name] else { continue }
            var model = try record.model(file: "\(record.name) (shipped record)")
            guard model.entityVersionHashes != version.entityVersionHashes else { continue }
            model.name = asShippedName(version.name)
            models.append(model)
        }
        return models
    }
}

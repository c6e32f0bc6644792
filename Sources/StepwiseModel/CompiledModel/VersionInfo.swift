import Foundation

/// The `VersionInfo.plist` of a compiled model folder (`.momd`): the current version's name and
/// each version's entity hashes, as Xcode's model compiler writes them.
///
/// Keys, from the corpus's compiled folders: `NSManagedObjectModel_VersionHashes` (version name →
/// entity name → 32-byte hash), `NSManagedObjectModel_CurrentVersionName` (absent in some
/// single-version folders) and, from Xcode 15, `NSManagedObjectModel_VersionChecksums` (version
/// name → the version's `versionChecksum`, which ``ModelVersionDigest/versionChecksum(_:)``
/// computes from the hashes; read so that tests can confirm that rule on every entry). The file is a binary property list; an XML one is read too, with the
/// project's own readers, never `PropertyListSerialization`, which has crashed on malformed input
/// on Linux.
package struct VersionInfo: Sendable, Hashable {
    /// The file's name inside a compiled folder.
    package static let fileName = "VersionInfo.plist"

    /// `NSManagedObjectModel_CurrentVersionName`.
    package var currentName: String?
    /// `NSManagedObjectModel_VersionHashes`: version name → entity name → hash.
    package var hashes: [String: [String: Data]]
    /// `NSManagedObjectModel_VersionChecksums`: version name → checksum; empty when the file has
    /// none (before Xcode 15) or holds one that is not a string.
    package var checksums: [String: String] = [:]

    /// Reads the `VersionInfo.plist` of the compiled folder `folder`.
    /// - throws: ``ModelError/Kind/versionInfoMismatch(_:)`` when the file is missing or
    ///   malformed, naming the folder.
    package init(inFolder folder: URL) throws(ModelError) {
        let file = folder.appendingPathComponent(Self.fileName)
        guard let data = try? Data(contentsOf: file) else {
            throw ModelError(path: folder.path, kind: .versionInfoMismatch("it has no readable \(Self.fileName)"))
        }
        try self.init(data, folder: folder)
    }

    /// Reads the bytes of a `VersionInfo.plist`; `folder` is named in errors.
    package init(_ data: Data, folder: URL) throws(ModelError) {
        func malformed(_ reason: String) -> ModelError {
            ModelError(path: folder.path, kind: .versionInfoMismatch("its \(Self.fileName) \(reason)"))
        }
        let plist: BinaryPropertyList.Value
        do {
            plist =
                data.starts(with: Array("bplist".utf8))
                ? try BinaryPropertyList.decode(data) : try PropertyListXML.decode(data)
        } catch {
            throw malformed("is not a readable property list (\(error))")
        }
        guard case .dictionary(let root) = plist else { throw malformed("is not a dictionary") }
        switch root["NSManagedObjectModel_CurrentVersionName"] {
        case nil: currentName = nil
        case .string(let name)?: currentName = name
        default: throw malformed("has an NSManagedObjectModel_CurrentVersionName that is not a string")
        }
        guard case .dictionary(let versions)? = root["NSManagedObjectModel_VersionHashes"] else {
            throw malformed("has no NSManagedObjectModel_VersionHashes dictionary")
        }
        hashes = [:]
        for (version, value) in versions {
            guard case .dictionary(let entities) = value else {
                throw malformed("has hashes for version '\(version)' that are not a dictionary")
            }
            var versionHashes: [String: Data] = [:]
            for (entity, hash) in entities {
                guard case .data(let bytes) = hash else {
                    throw malformed("has a hash for entity '\(entity)' of version '\(version)' that is not data")
                }
                versionHashes[entity] = bytes
            }
            hashes[version] = versionHashes
        }
        if case .dictionary(let entries)? = root["NSManagedObjectModel_VersionChecksums"] {
            for (version, value) in entries {
                if case .string(let checksum) = value { checksums[version] = checksum }
            }
        }
    }

    /// Checks that the file lists exactly the versions of the folder's `.mom` files.
    /// - throws: ``ModelError/Kind/versionInfoMismatch(_:)`` naming the first version (by
    ///   name) that only one side has.
    func checkListsExactly(_ versions: [String], in folder: URL) throws(ModelError) {
        let files = Set(versions)
        if let missing = Set(hashes.keys).subtracting(files).min() {
            throw ModelError(
                path: folder.path,
                kind: .versionInfoMismatch(
                    "its \(Self.fileName) names version '\(missing)', which has no \(missing).mom"))
        }
        if let unlisted = files.subtracting(hashes.keys).min() {
            throw ModelError(
                path: folder.path,
                kind: .versionInfoMismatch("\(unlisted).mom is not a version its \(Self.fileName) lists"))
        }
    }

    /// Checks that `model`'s entity hashes, computed from its `.mom`, are the ones recorded for
    /// its version: a difference means a damaged file, or a reader that misreads it.
    /// - parameter file: The `.mom` file, named in errors.
    /// - throws: ``ModelError/Kind/versionHashMismatch(version:entity:)`` naming the first
    ///   entity (by name) whose hash differs or that only one side has.
    func check(_ model: ObjectModel, file: String) throws(ModelError) {
        guard let recorded = hashes[model.name] else {
            throw ModelError(
                path: file, kind: .versionInfoMismatch("\(Self.fileName) has no hashes for version '\(model.name)'"))
        }
        let computed = VersionHasher.entityHashes(of: model)
        for entity in Set(recorded.keys).union(computed.keys).sorted() where recorded[entity] != computed[entity] {
            throw ModelError(path: file, kind: .versionHashMismatch(version: model.name, entity: entity))
        }
    }
}

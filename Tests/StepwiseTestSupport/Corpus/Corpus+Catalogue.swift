import Foundation
import StepwiseModel

extension Corpus {
    /// The folder of one of the corpus's `.xcdatamodeld` bundles.
    package func url(_ bundle: CorpusBundle) -> URL {
        url(bundle.path)
    }

    /// The main file of a corpus store. Never open it in place: see ``copyStore(_:to:)-(CorpusStore,URL)``.
    package func url(_ store: CorpusStore) -> URL {
        url(store.path)
    }

    /// The corpus's `.xcmappingmodel` folders for a bundle, beside it as in the projects they
    /// come from (corpus README §3), in file-name order. Never edit them in place: copy one first.
    package func mappingModels(_ bundle: CorpusBundle) throws -> [URL] {
        let folder = url(bundle).deletingLastPathComponent()
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".xcmappingmodel") }
            .map { folder.appendingPathComponent($0) }
    }

    /// Reads a corpus bundle with ``ModelBundle``: every version, validated, in history order.
    package func modelBundle(_ bundle: CorpusBundle) throws -> ModelBundle {
        try ModelBundle(contentsOf: url(bundle))
    }

    /// The `.xcdatamodel` folder of the corpus version with this name.
    /// - throws: ``CorpusError/unknownVersion(_:)`` when no corpus bundle holds it.
    package func versionURL(_ versionName: String) throws -> URL {
        guard let bundle = CorpusBundle.containing(versionName) else {
            throw CorpusError.unknownVersion(versionName)
        }
        return url(bundle).appendingPathComponent("\(versionName).xcdatamodel")
    }

    /// Reads one corpus version with ``XcodeModelReader``.
    /// - throws: ``CorpusError/unknownVersion(_:)`` when no corpus bundle holds it.
    package func readVersion(_ versionName: String) throws -> ObjectModel {
        try XcodeModelReader.readVersion(at: versionURL(versionName))
    }

    /// The model version whose tables `store` has (``CorpusStore/version``).
    package func model(of store: CorpusStore) throws -> ObjectModel {
        try readVersion(store.version)
    }

    /// The model version whose entity hashes `store`'s metadata holds (``CorpusStore/hashVersion``).
    package func hashModel(of store: CorpusStore) throws -> ObjectModel {
        try readVersion(store.hashVersion)
    }

    /// Copies a corpus store with its `-wal`/`-shm` into `directory` and returns the copy's URL,
    /// as ``copyStore(_:to:)-(String,URL)`` does for a path.
    package func copyStore(_ store: CorpusStore, to directory: URL) throws -> URL {
        try copyStore(store.path, to: directory)
    }
}

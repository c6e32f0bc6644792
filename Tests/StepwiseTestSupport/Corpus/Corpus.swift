import Foundation

/// The real Core Data models and stores in `../shared/corpus`, beside the package root.
///
/// CI has the corpus; a fresh clone does not. Tests that need it call ``Corpus/locate()``:
/// it returns nil when the corpus is absent (the test then records a visible skip), and
/// throws ``CorpusError/required`` when `STEPWISE_CORPUS_REQUIRED=1` is set, as `.ci/run` does.
///
/// Corpus stores must never be opened in place: SQLite may checkpoint or change them.
/// ``copyStore(_:to:)-(String,URL)`` copies a store with its `-wal`/`-shm` into a directory of yours.
///
/// ``CorpusStore`` and ``CorpusBundle`` list the corpus's stores and model bundles, and the
/// version that wrote each store; the methods of `Corpus` that take them read and copy them.
package struct Corpus: Sendable {
    /// The corpus root folder.
    package let root: URL

    /// The corpus beside the package whose root is `packageRoot`, if it exists.
    /// - throws: ``CorpusError/required`` when it is absent and `STEPWISE_CORPUS_REQUIRED=1`.
    package static func locate(packageRoot: URL = Corpus.packageRoot) throws -> Corpus? {
        let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path) {
            return Corpus(root: root.standardizedFileURL)
        }
        if ProcessInfo.processInfo.environment["STEPWISE_CORPUS_REQUIRED"] == "1" {
            throw CorpusError.required(root.standardizedFileURL.path)
        }
        return nil
    }

    /// Whether corpus tests should run: the corpus is present, or it is required
    /// (`STEPWISE_CORPUS_REQUIRED=1`), in which case its absence fails the test.
    /// Use it as `@Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))`.
    package static var shouldRunTests: Bool {
        (try? locate()) != nil || ProcessInfo.processInfo.environment["STEPWISE_CORPUS_REQUIRED"] == "1"
    }

    /// The corpus, or a thrown error (for use inside corpus tests, after ``shouldRunTests``).
    package static func required() throws -> Corpus {
        guard let corpus = try locate() else {
            throw CorpusError.required(
                packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path)
        }
        return corpus
    }

    /// The package root, found from this source file's location (`Tests/StepwiseTestSupport/Corpus/`).
    package static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A file or folder inside the corpus.
    package func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// Copies a corpus store and its `-wal`/`-shm` (when present) into `directory`,
    /// returning the copy's URL. The copy is writable; the original is never opened.
    package func copyStore(_ relativePath: String, to directory: URL) throws -> URL {
        let source = url(relativePath)
        let destination = directory.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let from = URL(fileURLWithPath: source.path + suffix)
            let to = URL(fileURLWithPath: destination.path + suffix)
            guard FileManager.default.fileExists(atPath: from.path) else { continue }
            try? FileManager.default.removeItem(at: to)
            try FileManager.default.copyItem(at: from, to: to)
            // Corpus files are read-only; SQLite needs to write the copies (WAL recovery, -shm).
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: to.path)
        }
        return destination
    }
}

/// The corpus, or something asked of it, can't be found.
package enum CorpusError: Error, CustomStringConvertible {
    /// The corpus is required (`STEPWISE_CORPUS_REQUIRED=1`) but absent from this path.
    case required(String)
    /// No corpus bundle holds a version with this name (a typo in a test table).
    case unknownVersion(String)
    /// No corpus store has this short name (see ``CorpusStore/shortName``).
    case unknownStore(String)
    /// A resource of StepwiseTestSupport is missing from the build.
    case missingResource(String)

    /// What went wrong, and for ``required(_:)`` how to fix it.
    package var description: String {
        switch self {
        case .required(let path):
            return "STEPWISE_CORPUS_REQUIRED=1 but the corpus is not at \(path). Put ../shared beside the package."
        case .unknownVersion(let name):
            return "no corpus bundle holds a version named '\(name)'"
        case .unknownStore(let shortName):
            return "no corpus store has the short name '\(shortName)'"
        case .missingResource(let name):
            return "\(name) is missing from the build; rebuild the package"
        }
    }
}

import Foundation

/// A directory that exists for the life of a test, removed when the value is released.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let store = directory.url.appendingPathComponent("Test.sqlite")
/// ```
public final class TemporaryDirectory: Sendable {
    /// The directory's location.
    public let url: URL

    /// Creates a fresh, empty directory under the system's temporary directory, named after
    /// `prefix`, this process's id and a UUID (``AbandonedWorkFolders/name(prefix:)``), so that
    /// the matrix's folders a killed process leaves can be told and removed.
    public init(prefix: String = "stepwise") throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent(AbandonedWorkFolders.name(prefix: prefix), isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        self.url = url
    }

    /// A path inside the directory.
    public func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

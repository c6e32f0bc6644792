import Foundation

extension StoreGeneration {
    /// Removes the main file and every companion, in ``outgoingOrder`` (companions first, so a
    /// crash midway never leaves a companion without its main file for a new store to meet).
    ///
    /// A missing file is not an error. Every file is tried even if one fails; the first
    /// failure is thrown afterwards.
    /// - parameter site: The site of every removal (``FileSystem``).
    package func remove(fileSystem: FileSystem, site: String) throws {
        var firstError: (any Error)?
        for companion in Self.outgoingOrder {
            do {
                try fileSystem.remove(file(companion), site: site)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// Throws ``StoreError/Kind/alreadyExists`` (naming the main file) if the main file or any
    /// companion is there: a new store written over it would meet a stale `-wal` or `-journal`,
    /// and a step cleaning up after a failure would delete somebody else's file.
    package func refuseExisting() throws(StoreError) {
        let fileSystem = FileSystem()
        if Self.outgoingOrder.contains(where: { fileSystem.exists(file($0)) }) {
            throw StoreError(path: mainFile.path, kind: .alreadyExists)
        }
    }
}

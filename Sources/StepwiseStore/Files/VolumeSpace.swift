import Foundation

/// What the volume holding a store offers an upgrade: the bytes it may still write, and whether
/// a copy there is a clone. Asked once, before an upgrade starts (`UpgradeSpaceEstimate`).
package enum VolumeSpace {
    /// The bytes the volume holding `directory` has for this user's important work; nil if
    /// unknown.
    ///
    /// On Apple platforms that is `volumeAvailableCapacityForImportantUsage`: what iOS
    /// counts for work the user asked for, purgeable space included (caches and offloadable
    /// data the system deletes on demand). `systemFreeSize` leaves that out, and a nearly full
    /// phone would refuse an upgrade it has room for. Elsewhere (tvOS and watchOS don't have
    /// the key), and when the volume doesn't say, it is `systemFreeSize`: the bytes free to
    /// this user.
    package static func availableBytes(at directory: URL) -> Int64? {
        #if canImport(Darwin) && !os(tvOS) && !os(watchOS)
            let keys: Set<URLResourceKey> = [.volumeAvailableCapacityForImportantUsageKey]
            if let values = try? directory.resourceValues(forKeys: keys),
                let important = values.volumeAvailableCapacityForImportantUsage, important > 0
            {
                return important
            }
        #endif
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }

    /// Whether a file copied within the volume holding `directory` is a clone sharing the
    /// original's blocks.
    ///
    /// `FileCopy` tries `clonefile` first on Darwin, which succeeds on APFS (every iOS
    /// device's file system) and within one volume (the work directory sits beside the store):
    /// the volume's `volumeSupportsFileCloning` says which. On Linux `FICLONE` clones only on
    /// reflink file systems (Btrfs, XFS) and nothing cheap says in advance whether it will:
    /// false, so the estimate counts a full copy there.
    package static func clonesFiles(at directory: URL) -> Bool {
        #if canImport(Darwin)
            let values = try? directory.resourceValues(forKeys: [.volumeSupportsFileCloningKey])
            return values?.volumeSupportsFileCloning == true
        #else
            return false
        #endif
    }
}

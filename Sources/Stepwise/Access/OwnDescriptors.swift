import Foundation
import StepwiseStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's own open descriptors on given files: how the open-connection check sees a
/// connection the app itself still holds, which no lock query can show.
///
/// `F_GETLK` never names the caller's own locks: it reports the first lock that would block
/// the request, and a process's own locks never block it (a new lock replaces the process's
/// previous lock on the same bytes: IEEE Std 1003.1, fcntl()). An open descriptor shows what
/// a lock query can't: every SQLite connection keeps one on the main file for as long as it is
/// open, in any journal mode, and one on the `-wal` and `-shm` in WAL mode.
///
/// Files are compared by device and inode (`fstat`), not by path: a descriptor opened
/// through another path (a symbolic link, a second hard link) is the same file.
///
/// The walk is the same on Linux and Darwin: every descriptor number below the process's
/// limit (`getdtablesize`), asked with `fcntl(F_GETFD)` whether it is open, then `fstat`.
/// Neither call changes anything, and in particular neither can drop a lock. It costs one
/// system call per descriptor number (20 000 here, about a millisecond; 256 by default on
/// iOS), once per poll of the wait.
enum OwnDescriptors {
    /// A file as the kernel knows it.
    struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64

        init(_ status: stat) {
            device = UInt64(truncatingIfNeeded: status.st_dev)
            inode = UInt64(truncatingIfNeeded: status.st_ino)
        }

        /// The file at `url`; nil when it doesn't exist (a store without `-shm`).
        init?(of url: URL) {
            var status = stat()
            guard stat(url.path, &status) == 0 else { return nil }
            self.init(status)
        }

        /// The file open on `descriptor`; nil when the descriptor isn't open.
        init?(descriptor: Int32) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            self.init(status)
        }
    }

    /// The identities of the store's main file and companions (`-wal`, `-shm`, `-journal`),
    /// those that exist.
    static func identities(of files: StoreFiles) -> Set<FileIdentity> {
        let companions: [StoreGeneration.Companion?] = [nil] + StoreGeneration.Companion.allCases
        return Set(companions.compactMap { FileIdentity(of: files.generation.file($0)) })
    }

    /// This process's open descriptors on any of `files`, except those in `excluding`
    /// (descriptors the caller itself holds for the check).
    static func descriptors(on files: Set<FileIdentity>, excluding: Set<Int32> = []) -> [Int32] {
        guard !files.isEmpty else { return [] }
        var found: [Int32] = []
        let limit = getdtablesize()
        var descriptor: Int32 = 0
        while descriptor < limit {
            defer { descriptor += 1 }
            // F_GETFD is the cheapest question an open descriptor answers (its close-on-exec
            // flag); -1 (EBADF) means the number isn't open.
            guard fcntl(descriptor, F_GETFD) != -1, !excluding.contains(descriptor),
                let identity = FileIdentity(descriptor: descriptor), files.contains(identity)
            else { continue }
            found.append(descriptor)
        }
        return found
    }
}

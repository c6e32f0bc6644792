import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Samples the disk space a folder takes, every few milliseconds, on its own thread, and keeps
/// the peak: the `disk` scenario's "peak extra bytes beside the store".
///
/// A folder's size is the blocks its files occupy (`st_blocks × 512`, recursively, symbolic
/// links not followed, each file once whatever its number of names): what a nearly full disk
/// actually loses, which a sparse file or a truncated journal would misstate by its length. A clone sharing blocks with the original
/// (`FICLONE`) is counted in full, so the number errs on the high side. Sampling can miss a
/// peak shorter than the interval; the runs are seconds long and files grow gradually.
final class DiskSampler: @unchecked Sendable {
    private let folder: String
    private let interval: useconds_t
    private let lock = NSLock()
    private var peak: Int64 = 0
    private var stopped = false
    private var finished = false
    private let done = NSCondition()

    init(folder: URL, intervalMilliseconds: Int = 2) {
        self.folder = folder.path
        self.interval = useconds_t(intervalMilliseconds * 1000)
    }

    /// Bytes the folder takes now. A file with several names (the swap gives the old store a
    /// second name, a hard link, in `outgoing/`) occupies its blocks once, and is counted once.
    static func bytes(in folder: String) -> Int64 {
        var seen: Set<[UInt64]> = []
        return bytes(in: folder, seen: &seen)
    }

    private static func bytes(in folder: String, seen: inout Set<[UInt64]>) -> Int64 {
        guard let directory = opendir(folder) else { return 0 }
        defer { closedir(directory) }
        var total: Int64 = 0
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }  // removed meanwhile
            guard seen.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
            total += Int64(info.st_blocks) * 512
            if (info.st_mode & S_IFMT) == S_IFDIR { total += bytes(in: path, seen: &seen) }
        }
        return total
    }

    /// Starts sampling; returns the folder's size now, the baseline the extra is counted from.
    @discardableResult
    func start() -> Int64 {
        let initial = Self.bytes(in: folder)
        lock.withLock { peak = initial }
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped }) {
                let now = Self.bytes(in: folder)
                lock.withLock { peak = max(peak, now) }
                usleep(interval)
            }
            done.withLock {
                finished = true
                done.signal()
            }
        }
        return initial
    }

    /// Stops sampling (after one last sample) and returns the peak.
    func stop() -> Int64 {
        lock.withLock { stopped = true }
        done.withLock {
            while !finished { done.wait() }
        }
        let last = Self.bytes(in: folder)
        return lock.withLock { max(peak, last) }
    }
}

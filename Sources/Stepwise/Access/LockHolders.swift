import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who holds locks on a file, as far as the platform says: the process ids named in errors
/// and progress events ("waiting for 2 processes to close the store").
///
/// On Linux, `/proc/locks` lists every lock with its holder's pid and the file's inode, for
/// `flock` and POSIX locks alike; it is read without opening the locked file, so it can't
/// disturb the POSIX locks this process holds on it (closing *any* descriptor of a file
/// drops all of a process's POSIX locks on that file). Elsewhere `flock` holders can't be
/// named, and SQLite's `-shm` locks are asked with `F_GETLK` (``SharedMemoryProbe``).
enum LockHolders {
    /// Whether this platform names lock holders through `/proc/locks`.
    #if os(Linux)
        static let readsProcLocks = true
    #else
        static let readsProcLocks = false
    #endif

    /// The pids holding a `flock` on `url`; nil where the platform can't say.
    static func flockHolders(of url: URL) -> [Int32]? {
        #if os(Linux)
            return procLocks(of: url, kind: "FLOCK", byte: nil)
        #else
            return nil
        #endif
    }

    /// The pids holding a POSIX lock covering byte `byte` of `url`; nil where the platform
    /// can't say without opening the file.
    static func posixHolders(of url: URL, byte: Int) -> [Int32]? {
        #if os(Linux)
            return procLocks(of: url, kind: "POSIX", byte: byte)
        #else
            return nil
        #endif
    }

    #if os(Linux)
        /// Parses `/proc/locks` lines such as
        /// `1: POSIX  ADVISORY  READ 4492 fe:00:16223231 128 128` (or `FLOCK … 0 EOF`).
        private static func procLocks(of url: URL, kind: String, byte: Int?) -> [Int32]? {
            var info = stat()
            guard stat(url.path, &info) == 0,
                let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
            else { return [] }
            let inode = UInt64(info.st_ino)
            // The device as /proc/locks writes it: major and minor in hex.
            // (glibc's gnu_dev_major and gnu_dev_minor, which Swift doesn't import.)
            let device = UInt64(info.st_dev)
            let major = String(((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff)), radix: 16)
            let minor = String((device & 0xff) | ((device >> 12) & ~UInt64(0xff)), radix: 16)
            var pids: [Int32] = []
            for line in text.split(separator: "\n") {
                // A blocked waiter is listed as "1: -> FLOCK …": it holds nothing.
                let fields = line.split(separator: " ").filter { !$0.isEmpty && $0 != "->" }
                guard fields.count >= 8, fields[1] == kind, let pid = Int32(fields[4]) else { continue }
                let place = fields[5].split(separator: ":")
                guard place.count == 3, UInt64(place[2]) == inode,
                    UInt64(place[0], radix: 16).map({ String($0, radix: 16) }) == major,
                    UInt64(place[1], radix: 16).map({ String($0, radix: 16) }) == minor
                else { continue }
                if let byte {
                    guard let start = Int(fields[6]) else { continue }
                    let end = fields[7] == "EOF" ? Int.max : Int(fields[7]) ?? -1
                    guard start <= byte, byte <= end else { continue }
                }
                if !pids.contains(pid) { pids.append(pid) }
            }
            return pids.sorted()
        }
    #endif
}

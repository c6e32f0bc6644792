#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How far a ``FileSystem`` sync must reach before it returns: to the disk itself, or only
/// far enough that later writes can't reach the disk before it.
///
/// On Linux both kinds are `fsync`, which returns once the device reports the data stored,
/// its write cache flushed ("This includes writing through or flushing a disk cache if
/// present", fsync(2)). On Apple's platforms `fsync` is weaker: it moves the data to the
/// drive, but "the drive itself may not physically write the data to the platters for quite
/// some time and it may be written in an out-of-order sequence" (Darwin's fsync(2)). So there:
/// - ``durable`` is `fcntl(F_FULLFSYNC)`, which "asks the drive to flush all buffered data
///   to permanent storage": every write made before it, to any file, is on the disk when it
///   returns. It is slow (a whole cache flush: milliseconds to tens of milliseconds).
/// - ``ordering`` is `fcntl(F_BARRIERFSYNC)`: `fsync`, then an I/O barrier, so no write
///   issued after it reaches the disk before the writes issued before it. Cheap, close to
///   `fsync`.
///
/// Stepwise's recovery only needs order: with a barrier at every sync, a power loss leaves
/// the files as they were at some sync, plus part of what was written after it, as `fsync`
/// does on Linux: a kill at that sync with some unsynced writes applied, which recovery
/// handles (the crash and fault-injection tests, and `Scripts/power-loss`). Durability is needed
/// once, when an upgrade hands the store back to the app, which then writes into it (see
/// the crash-safety article).
package enum SyncKind: String, Sendable, CaseIterable {
    /// The data must be on the disk when the call returns (`F_FULLFSYNC` on Darwin).
    case durable
    /// Later writes must not reach the disk before this data (`F_BARRIERFSYNC` on Darwin).
    case ordering
}

extension FileSystem {
    /// Syncs an open file or directory as `kind` says: 0 on success, else the `errno` of the
    /// call that failed.
    static func flush(_ descriptor: Int32, _ kind: SyncKind) -> Int32 {
        #if canImport(Darwin)
            // Strongest first; a weaker call only where the file system doesn't implement the
            // stronger one (SyncFallback: an EIO is an error, never a reason to settle). An
            // ordering sync refused a barrier takes a full flush, which also orders, before
            // settling for fsync.
            switch kind {
            case .durable:
                return SyncFallback.firstSupported([
                    { fcntl(descriptor, F_FULLFSYNC) }, { fsync(descriptor) },
                ])
            case .ordering:
                return SyncFallback.firstSupported([
                    { fcntl(descriptor, F_BARRIERFSYNC) }, { fcntl(descriptor, F_FULLFSYNC) }, { fsync(descriptor) },
                ])
            }
        #else
            // Linux: fsync flushes the device's cache, so it is durable, and durable is ordered.
            return SyncFallback.firstSupported([{ fsync(descriptor) }])
        #endif
    }
}

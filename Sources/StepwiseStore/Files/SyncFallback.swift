#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When a sync may settle for a weaker call: only when the stronger one is *unsupported*,
/// never when it failed.
///
/// On Darwin a ``SyncKind`` sync tries `F_BARRIERFSYNC` or `F_FULLFSYNC` first, and not every
/// file system implements them (fcntl(2) lists those that do). SQLite's `full_fsync`
/// (os_unix.c) reasons that "failure indicates that FULLFSYNC isn't supported for this file
/// system" and then calls `fsync`, on any error. Stepwise makes that reasoning exact: it falls
/// back only on the errors that say "unsupported", and an `EIO` from the drive (or anything
/// else) is reported as the failed sync it is, instead of being hidden behind a weaker `fsync`
/// that may succeed on data the drive lost.
///
/// The decision is a pure function of `errno` and the chain runs the same on every platform,
/// so Linux tests cover both (on Linux the chain is `fsync` alone).
package enum SyncFallback {
    /// Whether a failed sync call's `errno` means the file system doesn't implement it, so the
    /// next, weaker call is the best this file system offers:
    /// - `ENOTSUP` (and `EOPNOTSUPP`, its twin, a different number on Darwin): not supported;
    /// - `EINVAL`: the command isn't valid for this kind of file (Darwin's fcntl(2));
    /// - `ENOTTY`: the descriptor's driver doesn't know the command.
    package static func meansUnsupported(_ code: Int32) -> Bool {
        code == ENOTSUP || code == EOPNOTSUPP || code == EINVAL || code == ENOTTY
    }

    /// Runs `calls`, strongest first, each returning 0 or -1 with `errno` set, and moves to the
    /// next only when the last one was unsupported (``meansUnsupported(_:)``).
    ///
    /// - returns: 0 when a call succeeded, else the `errno` of the call that failed: the first
    ///   one that failed for a reason other than "unsupported", or the last one.
    package static func firstSupported(_ calls: [() -> Int32]) -> Int32 {
        var code: Int32 = ENOTSUP
        for call in calls {
            if call() == 0 { return 0 }
            // Read at once: anything called before it may overwrite errno.
            code = errno
            guard meansUnsupported(code) else { return code }
        }
        return code
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies one file to a new path by the cheapest means the file system offers, cheapest first:
///
/// 1. **A clone** (Linux `FICLONE`, on Btrfs, XFS and other reflink file systems; Darwin
///    `clonefile`, on APFS): the copy shares the source's blocks until either side is
///    written, so it costs neither time nor disk whatever the store's size.
/// 2. **An in-kernel copy** (Linux `copy_file_range`): no bytes cross into user space.
/// 3. **read/write** in 1 MB chunks, where neither is available (other kernels, network
///    and FUSE file systems, across devices).
///
/// The copy is created exclusively with mode 0600 (never over an existing file: a failure
/// must never clobber something that isn't ours) and holds the source's bytes exactly; it
/// is not synced: the caller decides when it must be durable.
enum FileCopy {
    /// The `errno` of the call that failed.
    struct Failure: Error {
        var code: Int32
    }

    /// Copies `source` to `destination`, which must not exist. Throws the `errno` of the call
    /// that failed, the destination removed.
    static func copy(_ source: String, to destination: String) throws(FileCopy.Failure) {
        #if canImport(Darwin)
            // clonefile fails with ENOTSUP off APFS, EXDEV across volumes: then copy.
            if clonefile(source, destination, 0) == 0 { return }
        #endif
        let input = open(source, O_RDONLY)
        guard input >= 0 else { throw lastError() }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard output >= 0 else { throw lastError() }
        do {
            try copyContents(from: input, to: output)
        } catch {
            close(output)
            unlink(destination)
            throw error
        }
        guard close(output) == 0 else {
            let error = lastError()
            unlink(destination)
            throw error
        }
    }

    private static func copyContents(from input: Int32, to output: Int32) throws(FileCopy.Failure) {
        #if os(Linux)
            // FICLONE = _IOW(0x94, 9, int): share the source's extents. Fails with
            // EOPNOTSUPP/EINVAL where the file system can't, EXDEV across file systems.
            if ioctl(output, 0x4004_9409, input) == 0 { return }
            if try copyInKernel(from: input, to: output) { return }
        #endif
        try copyThroughBuffer(from: input, to: output)
    }

    #if os(Linux)
        private typealias CopyFileRange =
            @convention(c) (
                Int32, UnsafeMutablePointer<Int>?, Int32, UnsafeMutablePointer<Int>?, Int, UInt32
            ) -> Int

        /// glibc's `copy_file_range` (2.27 and later), looked up at run time: Swift's Glibc
        /// module doesn't declare it (it needs `_GNU_SOURCE`).
        private static let copyFileRangeFunction: CopyFileRange? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range") else { return nil }
            return unsafeBitCast(symbol, to: CopyFileRange.self)
        }()

        /// `copy_file_range` until the end of the source. Returns false, having copied
        /// nothing, when the kernel or the file systems can't do it (the caller falls back).
        private static func copyInKernel(from input: Int32, to output: Int32) throws(FileCopy.Failure) -> Bool {
            guard let copyFileRange = copyFileRangeFunction else { return false }
            var copiedAny = false
            while true {
                let copied = copyFileRange(input, nil, output, nil, 1 << 30, 0)
                if copied > 0 {
                    copiedAny = true
                    continue
                }
                if copied == 0 { return true }
                let code = errno
                if code == EINTR { continue }
                if !copiedAny, [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EBADF].contains(code) { return false }
                throw Failure(code: code)
            }
        }
    #endif

    private static func copyThroughBuffer(from input: Int32, to output: Int32) throws(FileCopy.Failure) {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let read = Foundation.read(input, buffer, size)
            if read == 0 { return }
            if read < 0 {
                if errno == EINTR { continue }
                throw lastError()
            }
            var written = 0
            while written < read {
                let count = write(output, buffer + written, read - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw lastError()
                }
                written += count
            }
        }
    }

    private static func lastError() -> Failure {
        Failure(code: errno)
    }
}

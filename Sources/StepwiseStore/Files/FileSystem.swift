import Foundation
import StepwiseModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one door through which Stepwise creates, writes, syncs, links, renames, removes and
/// locks files during an upgrade: the step runner, the swap, the journal, and a step's own
/// copies. SQLite's own writes inside a database don't pass here; everything Stepwise does
/// around them does.
///
/// Each call names its *site* ("swap.out.rename", "journal.write.fsync"…), so tests can list
/// every site an upgrade reaches and, at each one in turn, inject an error or a simulated crash
/// (``Fault``) to prove the store survives it. Each sync also names its ``SyncKind``, which
/// the fault hook sees (``Operation/durableSync``, ``Operation/orderingSync``).
package struct FileSystem: Sendable {
    /// A kind of call. A sync is one of two, by its ``SyncKind``, so tests can reach every
    /// site of each kind.
    package enum Operation: String, Sendable, CaseIterable {
        case createDirectory, write, copy, durableSync, orderingSync, link, rename, remove, lock, copyAttributes

        /// The operation of a sync of this kind.
        package static func sync(_ kind: SyncKind) -> Operation {
            switch kind {
            case .durable: .durableSync
            case .ordering: .orderingSync
            }
        }

        /// The kind of a sync; nil for any other call.
        package var syncKind: SyncKind? {
            switch self {
            case .durableSync: .durable
            case .orderingSync: .ordering
            default: nil
            }
        }

        /// The call's name in an error message: `fsync` for both kinds of sync (the call
        /// Linux makes, and Darwin's fallback).
        var callName: String { syncKind == nil ? rawValue : "fsync" }
    }

    /// What a test injects at a site.
    package enum Fault: Sendable {
        /// The call fails with this `errno` (EIO, ENOSPC, EACCES…).
        case error(Int32)
        /// The process "dies" here: ``SimulatedCrash`` is thrown and every cleanup on the way
        /// out is skipped, leaving the files exactly as a SIGKILL would.
        case crash
    }

    /// Consulted before every call; nil (the default) means no faults.
    package var inject: (@Sendable (_ operation: Operation, _ site: String) -> Fault?)?

    /// Replaces the free-space reading, so tests can simulate a full disk.
    package var freeSpaceOverride: (@Sendable (URL) -> Int64)?

    /// Told of every change a call made, after it succeeded (`Scripts/power-loss` records an
    /// upgrade's trace through it); nil (the default) records nothing.
    package var record: FileEventRecorder?

    package init(
        inject: (@Sendable (_ operation: Operation, _ site: String) -> Fault?)? = nil,
        freeSpaceOverride: (@Sendable (URL) -> Int64)? = nil
    ) {
        self.inject = inject
        self.freeSpaceOverride = freeSpaceOverride
    }

    /// Bytes available to this user on the file system holding `directory`
    /// (``VolumeSpace/availableBytes(at:)``); nil if unknown.
    package func freeSpace(at directory: URL) -> Int64? {
        if let freeSpaceOverride { return freeSpaceOverride(directory) }
        return VolumeSpace.availableBytes(at: directory)
    }

    private func enter(_ operation: Operation, _ site: String, path: String) throws {
        switch inject?(operation, site) {
        case .error(let code)?:
            throw FileSystemError(
                operation: operation.callName, path: path, reason: String(cString: strerror(code)), site: site)
        case .crash?:
            throw SimulatedCrash(site: site)
        case nil:
            return
        }
    }

    package func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    /// The size of a file, 0 when it doesn't exist.
    package func size(of url: URL) -> Int64 {
        var status = stat()
        return lstat(url.path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// `mkdir` with mode 0700: private to the user, and exclusive (it fails if the directory
    /// exists, so two runs can never share one).
    package func createDirectory(_ url: URL, site: String) throws {
        try enter(.createDirectory, site, path: url.path)
        guard mkdir(url.path, 0o700) == 0 else { throw posixError(.createDirectory, url, site) }
        record?(.mkdir(url.path), site)
    }

    /// Writes `data` to a new file (mode 0600) and syncs it (`sync`, at `<site>.fsync`) before
    /// returning.
    package func writeNewFile(_ data: Data, to url: URL, site: String, sync kind: SyncKind) throws {
        try enter(.write, site, path: url.path)
        let existed = exists(url)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw posixError(.write, url, site) }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { buffer in
            buffer.baseAddress.map { write(descriptor, $0, buffer.count) } ?? 0
        }
        guard written == data.count else { throw posixError(.write, url, site) }
        try enter(.sync(kind), site + ".fsync", path: url.path)
        let code = Self.flush(descriptor, kind)
        guard code == 0 else { throw posixError(.sync(kind), url, site + ".fsync", code: code) }
        if let record {
            record(existed ? .truncate(url.path, size: 0) : .create(url.path), site)
            record(.write(url.path, offset: 0, bytes: [UInt8](data)), site)
            record(.sync(url.path), site + ".fsync")
        }
    }

    /// Copies a file byte for byte (mode 0600, by a clone where the file system can: see
    /// `FileCopy`), then syncs the copy (at `<site>.fsync`) unless `syncing` is nil (a scratch
    /// file the caller changes and syncs itself). The destination must not exist.
    package func copyFile(_ source: URL, to destination: URL, site: String, syncing kind: SyncKind?) throws {
        try enter(.copy, site, path: destination.path)
        do {
            // A clone or an in-kernel copy where the file system can (FileCopy).
            try FileCopy.copy(source.path, to: destination.path)
        } catch {
            throw FileSystemError(
                operation: "copy", path: source.path, reason: String(cString: strerror(error.code)), site: site)
        }
        if let record {
            // The copy's bytes as written: a clone or an in-kernel copy passes no buffer.
            record(.create(destination.path), site)
            let copied = (try? Data(contentsOf: destination)).map { [UInt8]($0) } ?? []
            record(.write(destination.path, offset: 0, bytes: copied), site)
        }
        if let kind { try sync(destination, kind, site: site + ".fsync") }
    }

    /// Syncs a file or a directory, as `kind` says (``SyncKind``). A directory must be synced
    /// for a rename or a new file in it to survive power loss.
    package func sync(_ url: URL, _ kind: SyncKind, site: String) throws {
        try enter(.sync(kind), site, path: url.path)
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw posixError(.sync(kind), url, site) }
        defer { close(descriptor) }
        let code = Self.flush(descriptor, kind)
        guard code == 0 else { throw posixError(.sync(kind), url, site, code: code) }
        if let record {
            var status = stat()
            let isDirectory = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
            record(isDirectory ? .syncDirectory(url.path) : .sync(url.path), site)
        }
    }

    /// Gives `file` the mode, extended attributes and (on Apple's platforms) data protection
    /// class of `original` (``FileAttributes``), then syncs it (`sync`, at `<site>.fsync`) so
    /// they are as durable as its bytes. Nothing is recorded for `Scripts/power-loss`, whose
    /// crash states are about bytes and names, not attributes.
    package func copyAttributes(of original: URL, to file: URL, site: String, sync kind: SyncKind) throws {
        try enter(.copyAttributes, site, path: file.path)
        do {
            try FileAttributes.read(from: original).apply(to: file)
        } catch {
            throw FileSystemError(
                operation: error.call, path: error.path, reason: error.reason, site: site)
        }
        try sync(file, kind, site: site + ".fsync")
    }

    /// `rename`: atomic within one file system, replacing `destination` if it is a file.
    package func rename(_ source: URL, to destination: URL, site: String) throws {
        try enter(.rename, site, path: source.path)
        guard Foundation.rename(source.path, destination.path) == 0 else { throw posixError(.rename, source, site) }
        record?(.rename(source.path, destination.path), site)
    }

    /// `link`: a second name for a file, so it can leave one place without ever being absent
    /// from it. Returns false, doing nothing, where the file system has no hard links (FAT,
    /// some network shares); the caller then renames instead.
    package func hardLink(_ source: URL, to destination: URL, site: String) throws -> Bool {
        try enter(.link, site, path: source.path)
        if Foundation.link(source.path, destination.path) == 0 {
            record?(.link(source.path, destination.path), site)
            return true
        }
        if [EPERM, ENOTSUP, EOPNOTSUPP, EXDEV, EMLINK].contains(errno) { return false }
        throw posixError(.link, source, site)
    }

    /// Removes a file or a directory tree; a missing one is not an error.
    package func remove(_ url: URL, site: String) throws {
        guard exists(url) else { return }
        try enter(.remove, site, path: url.path)
        // Listed before the removal: each file then each directory, deepest first.
        let removed = record == nil ? [] : Self.treeDeepestFirst(url)
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw FileSystemError(
                operation: "remove", path: url.path, reason: error.localizedDescription, site: site)
        }
        for path in removed { record?(.unlink(path), site) }
    }

    /// Every path in the tree at `url`, children before their directory.
    private static func treeDeepestFirst(_ url: URL) -> [String] {
        var status = stat()
        guard lstat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return [url.path] }
        let children = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return children.sorted().flatMap { treeDeepestFirst(url.appendingPathComponent($0)) } + [url.path]
    }

    /// Checked before taking the upgrade lock (see ``UpgradeLock``).
    package func willLock(_ url: URL, site: String) throws {
        try enter(.lock, site, path: url.path)
    }

    /// The error of a failed call; `code` defaults to `errno`, which must then be read right
    /// after the call (before anything else can overwrite it).
    private func posixError(_ operation: Operation, _ url: URL, _ site: String, code: Int32 = errno)
        -> FileSystemError
    {
        FileSystemError(
            operation: operation.callName, path: url.path, reason: String(cString: strerror(code)), site: site)
    }
}

/// Thrown by an injected ``FileSystem/Fault/crash``: the upgrade stops on the spot, as if
/// the process had been killed, without any cleanup.
package struct SimulatedCrash: Error, Sendable {
    package var site: String
}

/// A file-system call that failed during an upgrade or a step: which call (`site`, for bug
/// reports), on which path, and the system's reason.
///
/// Only ``FileSystem`` (a package type) throws it, and never to an app: `Upgrader` and
/// `StoreAccess` report it as an `UpgradeError` naming the store, so it stays a package type.
package struct FileSystemError: Error, Sendable, Hashable, ReportableError {
    /// `write`, `fsync`, `rename`…
    package var operation: String
    package var path: String
    /// The system's words (`strerror`).
    package var reason: String
    /// The internal call site, e.g. `swap.out.link`.
    package var site: String

    package init(operation: String, path: String, reason: String, site: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
        self.site = site
    }

    package var description: String {
        "\(operation) failed on \(path): \(reason). Check permissions and free space, then try again."
    }
}

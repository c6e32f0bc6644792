import CXattr
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an app may have set on its store besides the bytes, which a file an upgrade writes
/// in the store's place must carry too (``FileSystem/copyAttributes(of:to:site:sync:)``):
/// - the **mode**: a store at 0644 that comes back 0600 locks out the other users or
///   processes that read it;
/// - the **extended attributes**: on Darwin all of them, among them the backup exclusion
///   (`com.apple.metadata:com_apple_backup_excludeItem`, what `isExcludedFromBackup` sets);
///   on Linux the `user.*` ones, the only namespace a process may set without privileges
///   (`security.*`, `trusted.*` and `system.*` are the kernel's and the administrator's:
///   xattr(7));
/// - on Apple's platforms, the **data protection class**: a store kept at
///   `FileProtectionType.complete` must not become readable while the device is locked.
///
/// Ownership isn't copied: only a privileged process could change it, and the new files
/// belong to the user running the upgrade, who owns the store.
package struct FileAttributes: Sendable, Equatable {
    /// The permission bits (`st_mode & 0o777`).
    package var mode: mode_t
    /// Extended attributes by name, in the order `listxattr` gave them.
    package var extended: [ExtendedAttribute]
    /// The data protection class (`FileAttributeKey.protectionKey`); nil where the file's
    /// volume has none, and always off Apple's platforms.
    package var protection: String?

    package struct ExtendedAttribute: Sendable, Equatable {
        package var name: String
        package var value: [UInt8]

        package init(name: String, value: [UInt8]) {
            self.name = name
            self.value = value
        }
    }

    package init(mode: mode_t, extended: [ExtendedAttribute] = [], protection: String? = nil) {
        self.mode = mode
        self.extended = extended
        self.protection = protection
    }

    /// A failed call, with `errno`'s reason, for ``FileSystem`` to turn into a ``FileSystemError``.
    package struct Failure: Error {
        /// `stat`, `listxattr`, `getxattr`, `setxattr`, `chmod`, `protection`, `setProtection`.
        package var call: String
        package var path: String
        package var reason: String
    }

    /// Reads `url`'s attributes.
    package static func read(from url: URL) throws(Failure) -> FileAttributes {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { throw failure("stat", url) }
        return FileAttributes(
            mode: status.st_mode & 0o777, extended: try extendedAttributes(of: url), protection: try protection(of: url)
        )
    }

    /// Gives `url` these attributes. Extended attributes first, the mode last: setting a
    /// `user.*` attribute needs write permission on Linux, which a read-only mode would take
    /// away.
    package func apply(to url: URL) throws(Failure) {
        for attribute in extended {
            let result = attribute.value.withUnsafeBytes { bytes in
                stepwise_setxattr(url.path, attribute.name, bytes.baseAddress, bytes.count)
            }
            guard result == 0 else { throw Self.failure("setxattr", url, attribute: attribute.name) }
        }
        if let protection { try Self.setProtection(protection, of: url) }
        guard chmod(url.path, mode) == 0 else { throw Self.failure("chmod", url) }
    }

    /// The attributes that are copied, of the namespaces this platform lets a process set.
    package static func isCopied(_ name: String) -> Bool {
        #if canImport(Darwin)
            return true
        #else
            return name.hasPrefix("user.")
        #endif
    }

    private static func extendedAttributes(of url: URL) throws(Failure) -> [ExtendedAttribute] {
        let size = stepwise_listxattr(url.path, nil, 0)
        if size < 0 {
            // A file system without extended attributes has none to copy.
            if errno == ENOTSUP || errno == EOPNOTSUPP { return [] }
            throw failure("listxattr", url)
        }
        guard size > 0 else { return [] }
        var names = [CChar](repeating: 0, count: size)
        let listed = stepwise_listxattr(url.path, &names, names.count)
        guard listed >= 0 else { throw failure("listxattr", url) }
        var attributes: [ExtendedAttribute] = []
        // NUL-separated names.
        for raw in names[..<listed].split(separator: 0) {
            let name = String(decoding: raw.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard isCopied(name) else { continue }
            let length = stepwise_getxattr(url.path, name, nil, 0)
            guard length >= 0 else { throw failure("getxattr", url, attribute: name) }
            var value = [UInt8](repeating: 0, count: length)
            let read = value.withUnsafeMutableBytes { stepwise_getxattr(url.path, name, $0.baseAddress, $0.count) }
            guard read >= 0 else { throw failure("getxattr", url, attribute: name) }
            attributes.append(ExtendedAttribute(name: name, value: Array(value[..<read])))
        }
        return attributes
    }

    private static func protection(of url: URL) throws(Failure) -> String? {
        #if canImport(Darwin)
            // Not only iOS: the key exists on macOS too, where an Apple-silicon Mac's data
            // volume gives files a class; where the volume has none, the key is absent and
            // nothing is set.
            do {
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                return (attributes[.protectionKey] as? FileProtectionType)?.rawValue
            } catch {
                throw Failure(call: "protection", path: url.path, reason: error.localizedDescription)
            }
        #else
            return nil
        #endif
    }

    private static func setProtection(_ protection: String, of url: URL) throws(Failure) {
        #if canImport(Darwin)
            do {
                try FileManager.default.setAttributes(
                    [.protectionKey: FileProtectionType(rawValue: protection)], ofItemAtPath: url.path)
            } catch {
                throw Failure(call: "setProtection", path: url.path, reason: error.localizedDescription)
            }
        #endif
    }

    /// The failure of `call` on `url` (and the extended attribute it was about), with `errno`'s
    /// reason (read first: building the path can overwrite it).
    private static func failure(_ call: String, _ url: URL, attribute: String? = nil) -> Failure {
        let reason = String(cString: strerror(errno)) + (attribute.map { " (extended attribute \($0))" } ?? "")
        return Failure(call: call, path: url.path, reason: reason)
    }
}

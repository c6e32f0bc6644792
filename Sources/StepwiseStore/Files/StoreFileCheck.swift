import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks that a path holds a whole SQLite database before SQLite is let near it.
///
/// SQLite itself reports a zero-length file as an empty database and may *write* to it,
/// and it opens a truncated file happily, failing later with `SQLITE_CORRUPT`. Reading the
/// 100-byte header first turns each of these into a precise ``StoreError`` and guarantees
/// the file is not touched.
///
/// Header layout (https://www.sqlite.org/fileformat.html §1.3): bytes 0-15 are
/// `"SQLite format 3\0"`; 16-17 the page size (big-endian, 1 meaning 65536); 28-31 the
/// database size in pages, valid when bytes 24-27 (change counter) equal 92-95
/// (version-valid-for).
package enum StoreFileCheck {
    /// SQLite's magic header string, NUL included.
    static let magic = Array("SQLite format 3\u{0}".utf8)

    /// What the header says about the file.
    package struct Header: Sendable, Hashable {
        /// Bytes per page.
        package var pageSize: Int
        /// Pages in the main file, when the header's count is valid.
        package var pageCount: Int?
        /// Whether the file is in WAL mode (read/write versions 2).
        package var isWAL: Bool
    }

    /// Throws a ``StoreError`` unless `url` is a regular, non-empty, whole SQLite file.
    @discardableResult
    package static func check(_ url: URL) throws(StoreError) -> Header {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // `fileExists` follows links: a link to nothing, or a loop of links, is not "no file".
            if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                var status = stat()
                let reason = stat(path, &status) == 0 ? "" : " (\(String(cString: strerror(errno))))"
                throw StoreError(
                    path: path,
                    kind: .io(
                        "it is a symbolic link to \(destination) that can't be followed\(reason); point it at the store file"
                    ))
            }
            throw StoreError(path: path, kind: .notFound)
        }
        guard !isDirectory.boolValue else { throw StoreError(path: path, kind: .isDirectory) }
        let size: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw StoreError(path: path, kind: .io("can't read file attributes: \(error.localizedDescription)"))
        }
        guard size > 0 else { throw StoreError(path: path, kind: .emptyFile) }
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            bytes = Array(try handle.read(upToCount: 100) ?? Data())
        } catch {
            throw StoreError(path: path, kind: .io("can't read: \(error.localizedDescription)"))
        }
        guard bytes.count >= magic.count, Array(bytes.prefix(magic.count)) == magic else {
            throw StoreError(path: path, kind: .notSQLite)
        }
        guard bytes.count == 100 else {
            throw StoreError(path: path, kind: .truncated(expectedBytes: 100, actualBytes: size))
        }
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        let changeCounter = bigEndian(bytes, at: 24)
        let validFor = bigEndian(bytes, at: 92)
        let pages = bigEndian(bytes, at: 28)
        let pageCount = (pages > 0 && changeCounter == validFor) ? Int(pages) : nil
        if let pageCount {
            let expected = Int64(pageCount) * Int64(pageSize)
            guard size >= expected else {
                throw StoreError(path: path, kind: .truncated(expectedBytes: expected, actualBytes: size))
            }
        } else if pageSize > 0, size % Int64(pageSize) != 0 {
            // Without a valid page count, a file that isn't a whole number of pages is cut off.
            let expected = (size / Int64(pageSize) + 1) * Int64(pageSize)
            throw StoreError(path: path, kind: .truncated(expectedBytes: expected, actualBytes: size))
        }
        return Header(pageSize: pageSize, pageCount: pageCount, isWAL: bytes[18] == 2 && bytes[19] == 2)
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

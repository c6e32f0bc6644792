import CZlib
import Foundation

/// Inflates raw deflate (RFC 1951: zlib's format with no header or checksum), the
/// compression of Core Data's `Z_MODELCACHE.Z_CONTENT`, through the system's zlib.
///
/// The output is bounded: a few hundred bytes of deflate can claim gigabytes, and the input
/// comes from a store file, which may be damaged or crafted. Past `limit` bytes the inflate
/// stops with ``Failure/tooLarge(limit:)`` instead of growing its buffer.
enum RawDeflate {
    /// Why an input could not be inflated.
    enum Failure: Error, Equatable {
        /// zlib refused the bytes: not deflate, or damaged. `reason` is zlib's message.
        case malformed(String)
        /// The input ends before the deflate stream does (a cut-off copy).
        case truncated
        /// The output would pass `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// zlib's window bits for raw deflate: a negative value means "no zlib header", and 15 is
    /// the largest (32 KB) window, the one any deflate writer may have used.
    private static let rawWindowBits: Int32 = -15
    /// The output is produced this many bytes at a time.
    private static let chunkSize = 64 * 1024

    /// The inflated bytes of `input`, at most `limit` of them.
    ///
    /// - parameters:
    ///   - input: Raw deflate. Bytes after the end of the deflate stream are ignored.
    ///   - limit: The most bytes the output may have.
    static func inflate(_ input: Data, limit: Int) throws(Failure) -> Data {
        guard input.count <= Int(UInt32.max) else { throw .tooLarge(limit: limit) }
        var stream = z_stream()
        let initStatus = inflateInit2_(
            &stream, rawWindowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw .malformed("zlib could not start (status \(initStatus))") }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let result: Result<Data, Failure> = input.withUnsafeBytes { raw in
            // zlib's `next_in` is not const, but inflate never writes through it.
            stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(raw.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                if output.count + produced > limit { return .failure(.tooLarge(limit: limit)) }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    return .success(output)
                case Z_OK:
                    // No input left and no output made: the stream was cut off.
                    if stream.avail_in == 0 && produced == 0 { return .failure(.truncated) }
                case Z_BUF_ERROR:
                    // No progress was possible: with every input byte read, the stream is cut off.
                    if stream.avail_in == 0 { return .failure(.truncated) }
                    return .failure(.malformed("zlib could make no progress"))
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                    return .failure(.malformed(message))
                }
            }
        }
        return try result.get()
    }
}

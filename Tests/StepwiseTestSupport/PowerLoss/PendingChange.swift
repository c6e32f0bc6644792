/// A change to a file's bytes not yet synced: a power loss may drop it, keep it, or (for a
/// write) keep some of its 512-byte sectors and not others.
enum PendingChange: Sendable, Hashable {
    case write(offset: Int64, bytes: [UInt8])
    case truncate(size: Int64)

    /// The size of a disk sector: the unit a torn write keeps or loses.
    static let sectorSize: Int64 = 512

    /// The change cut at sector boundaries (of the file, not of the write), so each piece
    /// lands or not on its own.
    var sectors: [PendingChange] {
        guard case .write(let offset, let bytes) = self else { return [self] }
        var pieces: [PendingChange] = []
        var start = offset
        let end = offset + Int64(bytes.count)
        while start < end {
            let boundary = min(end, (start / Self.sectorSize + 1) * Self.sectorSize)
            let slice = bytes[Int(start - offset)..<Int(boundary - offset)]
            pieces.append(.write(offset: start, bytes: Array(slice)))
            start = boundary
        }
        return pieces
    }

    /// `content` with this change applied; a write past the end fills the gap with zeros.
    func applied(to content: [UInt8]) -> [UInt8] {
        var content = content
        switch self {
        case .write(let offset, let bytes):
            let end = Int(offset) + bytes.count
            if content.count < end { content.append(contentsOf: [UInt8](repeating: 0, count: end - content.count)) }
            content.replaceSubrange(Int(offset)..<end, with: bytes)
        case .truncate(let size):
            let size = Int(size)
            if content.count > size {
                content.removeSubrange(size...)
            } else {
                content.append(contentsOf: [UInt8](repeating: 0, count: size - content.count))
            }
        }
        return content
    }
}

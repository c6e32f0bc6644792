import Foundation

/// `backup.json` in a backup directory: which version the kept store is at.
struct BackupInfo: Codable, Sendable {
    static let fileName = "backup.json"
    var version: String?
    var createdAt: Date

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(self)) ?? Data()
    }

    static func load(from directory: URL) -> BackupInfo? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)) else { return nil }
        return try? decoder.decode(BackupInfo.self, from: data)
    }
}

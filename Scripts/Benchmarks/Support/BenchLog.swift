import Foundation

/// Progress for `Scripts/bench`: stderr only, so stdout holds nothing but the JSON lines.
enum BenchLog {
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    }
}

import Foundation

/// Progress and notes go to standard error, so standard output stays clean for `--json`.
enum StandardError {
    static func print(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

import GRDB

extension StoreError {
    /// Wraps an error thrown while working on the store at `path`.
    ///
    /// GRDB's `DatabaseError` becomes ``Kind/sqlite(code:message:)`` with SQLite's extended
    /// code and message, but without the statement's arguments: they may hold user data.
    /// A `StoreError` passes through unchanged; anything else becomes ``Kind/io(_:)``.
    public init(path: String, wrapping error: any Error) {
        switch error {
        case let error as StoreError:
            self = error
        case let error as DatabaseError:
            self.init(
                path: path,
                kind: .sqlite(code: error.extendedResultCode.rawValue, message: error.message ?? "\(error.resultCode)"))
        default:
            self.init(path: path, kind: .io(String(describing: error)))
        }
    }
}

extension StoreError {
    /// Whether SQLite found the store damaged: `SQLITE_CORRUPT` (11) or `SQLITE_NOTADB` (26),
    /// with any extended code (SQLite keeps the primary code in the low byte). Nothing to retry.
    package var isDamagedStore: Bool {
        guard case .sqlite(let code, _) = kind else { return false }
        return [11, 26].contains(code & 0xFF)
    }
}

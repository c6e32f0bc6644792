extension VersionHistoryError {
    /// The case name (`ambiguousOrder`), for tools: `{"kind": …}` in the CLI's JSON.
    public var caseName: String {
        switch self {
        case .ambiguousOrder: "ambiguousOrder"
        case .historyFileMismatch: "historyFileMismatch"
        }
    }

    /// The history file, when it is the file at fault.
    public var subjectPath: String? {
        switch self {
        case .ambiguousOrder: nil
        case .historyFileMismatch(let file, _, _): file
        }
    }
}

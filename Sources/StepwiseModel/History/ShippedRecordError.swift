/// A shipped record that can't be read or written, or a version that can't be recorded
/// again because its model changed since it shipped.
public struct ShippedRecordError: Error, Sendable, Hashable, ReportableError {
    public enum Kind: Sendable, Hashable {
        /// The file or folder can't be read.
        case unreadable(String)
        /// The file is not a shipped record, or its name doesn't match the version it records.
        case malformed(String)
        /// The record can't be written.
        case unwritable(String)
        /// The version's model differs from its record; recording it again needs `force`.
        case changedSinceShipped(version: String, differences: [ModelDifference])
    }

    /// The record file (or folder) at fault.
    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .unreadable(let reason):
            return "can't read the shipped record \(path): \(reason). Restore it from version control."
        case .malformed(let reason):
            return
                "\(path) is not a readable shipped record: \(reason). Restore it from version control, or record the version again with `force`."
        case .unwritable(let reason):
            return "can't write the shipped record \(path): \(reason). Check that its folder is writable."
        case .changedSinceShipped(let version, let differences):
            let list =
                differences.isEmpty
                ? "its model differs in ways that keep its version hashes (defaults, indexes, user info or layout)."
                : differences.map(\.description).joined(separator: " ")
            return
                "'\(version)' was recorded as shipped in \(path), and its model has changed since: \(list) Stores written by the shipped model keep its old layout: add a new model version for the change instead, or record again with `force` if the record is what is wrong."
        }
    }

    public var caseName: String {
        switch kind {
        case .unreadable: "unreadable"
        case .malformed: "malformed"
        case .unwritable: "unwritable"
        case .changedSinceShipped: "changedSinceShipped"
        }
    }

    public var subjectPath: String? { path }
}

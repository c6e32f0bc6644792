import StepwiseModel

/// An accepted-findings file (``AcceptedFindings``) that can't be read.
public struct AcceptedFindingsError: Error, Sendable, Hashable, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The file can't be read (missing, unreadable).
        case unreadable(String)
        /// The file isn't an accepted-findings file: bad JSON, an unknown kind, a key missing,
        /// an empty reason. The text names the entry and the key.
        case malformed(String)
    }

    /// The file at fault.
    public var path: String
    public var kind: Kind

    /// An error about the file at `path`.
    ///
    /// - parameters:
    ///   - path: The accepted-findings file.
    ///   - kind: What went wrong.
    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .unreadable(let reason):
            return "can't read the accepted findings \(path): \(reason). Check the path, or leave the option out."
        case .malformed(let reason):
            return
                "\(path) is not an accepted-findings file: \(reason). Each entry needs \"kind\" (a finding kind), \"version\" (a version name, or null) and a non-empty \"reason\"; \"entity\" and \"property\" are optional: {\"accepted\": [{\"kind\": \"duplicateVersion\", \"version\": \"Model 8\", \"reason\": \"…\"}]}."
        }
    }

    package var caseName: String {
        switch kind {
        case .unreadable: "unreadable"
        case .malformed: "malformed"
        }
    }

    public var errorDescription: String? { description }

    package var subjectPath: String? { path }
}

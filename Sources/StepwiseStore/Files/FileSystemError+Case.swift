extension FileSystemError {
    /// The failed call (`write`, `fsync`, `rename`…), for tools: `{"kind": …}` in the CLI's JSON.
    public var caseName: String { operation }

    /// The path the call failed on.
    public var subjectPath: String? { path }
}

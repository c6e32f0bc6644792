extension FileSystemError {
    /// The failed call (`write`, `fsync`, `rename`…), for tools: `{"kind": …}` in the CLI's JSON.
    package var caseName: String { operation }

    /// The path the call failed on.
    package var subjectPath: String? { path }
}

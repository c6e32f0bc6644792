extension StoreAccessError {
    /// The kind's case name (`upgradeRunning`), for tools: `{"kind": …}` in the CLI's JSON.
    package var caseName: String {
        switch kind {
        case .upgradeRunning: "upgradeRunning"
        case .needsUpgrade: "needsUpgrade"
        case .fileSystem: "fileSystem"
        }
    }

    public var errorDescription: String? { description }

    /// The store concerned.
    package var subjectPath: String? { storePath }
}

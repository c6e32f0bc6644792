extension StoreAccessError {
    /// The kind's case name (`upgradeRunning`), for tools: `{"kind": …}` in the CLI's JSON.
    public var caseName: String {
        switch kind {
        case .upgradeRunning: "upgradeRunning"
        case .needsUpgrade: "needsUpgrade"
        case .fileSystem: "fileSystem"
        }
    }

    /// The store concerned.
    public var subjectPath: String? { storePath }
}

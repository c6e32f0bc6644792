/// Progress of one migration step, for progress bars and logs.
public enum StepProgress: Sendable, Hashable {
    /// A pass started for an entity mapping; `total` source rows (when known).
    case passStarted(pass: Int, entityMapping: String, total: Int?)
    /// Rows done so far in the running pass of an entity mapping.
    case rows(pass: Int, entityMapping: String, done: Int)
    /// Validation (pass 3) started.
    case validating
}

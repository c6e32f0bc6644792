import ArgumentParser

/// `--lock-timeout SECONDS`, shared by the commands that take the store's upgrade lock
/// (`upgrade`, `rollback`).
struct LockOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long to wait for another upgrade of the same store, or for processes holding it, in seconds.",
            valueName: "seconds"))
    var lockTimeout: Double = 60

    /// ``lockTimeout`` as ``UpgradeOptions/lockTimeout`` takes it.
    var duration: Duration { .milliseconds(Int64((lockTimeout * 1000).rounded())) }

    func validate() throws {
        guard lockTimeout >= 0, lockTimeout.isFinite else {
            throw ValidationError("--lock-timeout must be a number of seconds, 0 or more.")
        }
    }
}

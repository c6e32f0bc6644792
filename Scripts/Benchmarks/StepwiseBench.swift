import ArgumentParser
import CSQLiteSettings

/// `stepwise-bench`: measures one migration step's speed and memory on a generated store.
///
/// Not a product of the package: run it from a checkout with
/// `swift run -c release stepwise-bench memory-step --rows 100000`, or through
/// `Scripts/memory-check` and `Scripts/bench-step`.
@main
struct StepwiseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stepwise-bench",
        abstract: "Measure a migration step's throughput and peak memory on a generated store.",
        discussion: """
            The source store is at the "Bench" model (Item: name, value, createdAt, note, tag; \
            Tag: label) and the step goes to "Bench 2" (name split into firstName and lastName, \
            value renamed amount, isArchived added). Seeded stores are cached in --dir by row count.

            Peak memory is the process's VmHWM from /proc/self/status; `seed` and `step` are \
            separate commands so that `/usr/bin/time -v stepwise-bench step …` measures the step alone.

            `bench` and `bench-run` are Scripts/bench's (issue 12): Stepwise against SQLite-speed \
            baselines on Recipes stores, one JSON line per scenario.
            """,
        subcommands: [
            SeedCommand.self, StepCommand.self, MemoryStepCommand.self, SetBasedStepCommand.self, UpgradeCommand.self,
            BenchCommand.self, BenchRunCommand.self, MatrixRunCommand.self,
            CrashTestCommand.self, CrashUpgradeCommand.self, PowerLossCommand.self,
        ]
    )

    /// Turns SQLite's memory statistics off before any connection, as `stepwise` does, so
    /// that the matrix's lanes run as they do in the CLI; then runs the command.
    static func main() {
        _ = stepwise_sqlite_disable_memory_statistics()
        main(nil)
    }
}

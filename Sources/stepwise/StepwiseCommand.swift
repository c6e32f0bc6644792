import ArgumentParser

/// `stepwise`: inspect, create and upgrade Core Data-layout SQLite stores.
@main
struct StepwiseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stepwise",
        abstract: "Inspect, create and upgrade Core Data-layout SQLite stores across model versions.",
        discussion: """
            Stepwise reads the models Xcode keeps in .xcdatamodeld bundles and the stores Core Data \
            writes (Z_METADATA, Z_PRIMARYKEY, Z<ENTITY> tables). It never writes to a store it inspects.

            Start with `stepwise demo`, then `stepwise inspect STORE --models BUNDLE`, `stepwise plan` and \
            `stepwise upgrade`.

            Errors go to standard error, with a non-zero exit status. With --json, standard output holds one JSON \
            object: the result, or {"error": {...}} naming the failed step, mapping, entity, property and row.
            """,
        version: StepwiseVersion.current,
        subcommands: [
            DemoCommand.self, InspectCommand.self, CreateCommand.self, SchemaCommand.self, DiffCommand.self,
            MigrateStepCommand.self, PlanCommand.self, UpgradeCommand.self, RollbackCommand.self,
            MatrixCommand.self, ConvertCommand.self, SamplesCommand.self,
        ]
    )
}

enum StepwiseVersion {
    static let current = "0.1.0"
}

import ArgumentParser
import StepwiseModel
import StepwiseStore

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the SQLite DDL Core Data uses for a model version.",
        discussion:
            "The statements create the Z<ENTITY> tables, indexes, Z_PRIMARYKEY and Z_METADATA, as `stepwise create` runs them."
    )

    @OptionGroup var model: ModelOptions

    func run() throws {
        let bundle = try model.loadBundle()
        let version = try model.selectedVersion(in: bundle)
        let layout = try StoreLayout(model: version)
        print("-- Model version '\(version.name)' from \(bundle.url.lastPathComponent)")
        for statement in layout.createStatements {
            print(statement + ";")
        }
    }
}

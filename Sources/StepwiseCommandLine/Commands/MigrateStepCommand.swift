import ArgumentParser
import Foundation
import StepwiseMapping
import StepwiseModel

struct MigrateStepCommand<Tool: StepwiseTool>: ParsableCommand, JSONReportingCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "migrate-step",
            abstract: "Run one migration step from SOURCE into a new DEST store (for debugging a step).",
            discussion: """
                Never modifies SOURCE: the step reads a private copy (with its -wal). The mapping is \
                the step's .xcmappingmodel beside the bundle or its mapping file in --mappings (default: \
                <bundle name>.mappings beside the bundle) or, when there is none, inferred. --infer \
                infers it anyway, to compare Core Data's lightweight migration with the written mapping.

                Policies named by mapping files must be registered in code: this tool knows the \
                policies its StepwiseTool registers (the stock stepwise: the Recipes demo's). \
                To run your own, build your own tool (see StepwiseTool in StepwiseCommandLine).

                Example:
                  \(ToolName.current) migrate-step Old.sqlite New.sqlite --models Versions/Recipes.xcdatamodeld \\
                    --from Recipes --to "Recipes 2"
                """
        )
    }

    @Argument(help: ArgumentHelp("The store to migrate (left untouched).", valueName: "source"), completion: .file())
    var source: String

    @Argument(
        help: ArgumentHelp("Where to write the migrated store; must not exist.", valueName: "dest"), completion: .file()
    )
    var destination: String

    @OptionGroup var bundleOptions: BundleOptions

    @Option(name: .long, help: ArgumentHelp("The source version's name.", valueName: "version"))
    var from: String

    @Option(name: .long, help: ArgumentHelp("The destination version's name.", valueName: "version"))
    var to: String

    @OptionGroup var mappingOptions: MappingOptions

    @Flag(name: .long, help: "Infer the mapping even when a mapping model or file covers the step.")
    var infer = false

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let bundle = try bundleOptions.load()
        let sourceModel = try bundle.version(named: from)
        let destinationModel = try bundle.version(named: to)
        let mappingModels = infer ? [] : try mappingOptions.load(for: bundle).mappingModels(from: from, to: to)
        let step = MigrationStep(
            from: sourceModel, to: destinationModel, mappingModels: mappingModels,
            policies: Tool.policies)
        let report = try step.run(source: URL(fileURLWithPath: source), destination: URL(fileURLWithPath: destination))
        if jsonOption.json {
            try JSONOutput.print(report)
            return
        }
        print(
            "Migrated \(source) (\(report.from)) → \(destination) (\(report.to)), \(report.kind) mapping, \(TextFormat.objects(report.objects, rows: report.rows)) in \(String(format: "%.2f", report.seconds)) s"
        )
        for mapping in report.entityMappings {
            let how = mapping.setBased ? "set-based SQL" : "row by row"
            print("  \(mapping.name): \(mapping.instances) instances, \(mapping.links) links (\(how))")
        }
    }
}

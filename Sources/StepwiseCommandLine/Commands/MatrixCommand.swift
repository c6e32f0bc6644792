import ArgumentParser
import Foundation
import StepwiseMatrix
import StepwiseModel

/// `stepwise matrix`: ``UpgradeMatrix`` from the command line.
struct MatrixCommand<Tool: StepwiseTool>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "matrix",
            abstract: "Check every upgrade path of a model history on seeded stores.",
            discussion: """
                For every version of the bundle and every later version a plan reaches from it, \
                creates a seeded store at the first (every entity gets --rows rows of generated data \
                with edge cases: empty and Unicode text, NaN and infinities, integer extremes, \
                distant dates, empty and multi-page blobs), upgrades it with `\(ToolName.current) upgrade`'s \
                upgrader to the second, and checks the result: the target version's metadata, \
                integrity_check and every key and join row, the row counts and values of entities \
                copied one for one, that no entity both versions have lost all its rows (unless an \
                entity mapping with no destination, or --allow-drop, declares it), and, when the \
                plan has several steps, that stopping at every version gives the same objects.

                After the table, each pair lists what no check covered: entities holding rows that \
                aren't copied one for one (made by a policy, say) and attributes whose values \
                weren't compared.

                Prints a table of ✓ and ✗ with the time of each pair, then the first failure of each \
                ✗, naming the entity, the seeded row (Z_PK) and the property. Exits with status 1 \
                when any pair fails. The same --seed gives the same stores, so a failure reproduces.                 With --json: {"pairs": [{from, to, ok, seconds, error, unchecked}], "failures": n}.

                Policies named by mapping files must be registered in code: this tool knows the \
                policies its StepwiseTool registers (the stock stepwise: the Recipes demo's). In \
                code, or to run it in CI, use UpgradeMatrix from StepwiseMatrix in a Swift Testing test.

                Examples:
                  \(ToolName.current) matrix --models Versions/Recipes.xcdatamodeld
                  \(ToolName.current) matrix --models Model.xcdatamodeld --rows 100 --seed 7 --json
                """
        )
    }

    @OptionGroup var bundleOptions: BundleOptions

    @OptionGroup var mappingOptions: MappingOptions

    @Option(name: .long, help: ArgumentHelp("Rows per entity of each seeded store.", valueName: "n"))
    var rows = UpgradeMatrix.defaultRows

    @Option(name: .long, help: ArgumentHelp("The seeded stores' seed.", valueName: "n"))
    var seed = UpgradeMatrix.defaultSeed

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A property left out of the path comparison, as Entity.property (repeatable): one a policy fills with a fresh random value.",
            valueName: "property"))
    var ignore: [String] = []

    @Option(
        name: .customLong("allow-drop"),
        help: ArgumentHelp(
            "An entity whose rows an upgrade may drop although both versions have it (repeatable): a drop declared here instead of by an entity mapping with no destination.",
            valueName: "entity"))
    var allowDrop: [String] = []

    @OptionGroup var jsonOption: JSONOption

    func validate() throws {
        guard rows >= 0 else { throw ValidationError("--rows must be 0 or more.") }
        for property in ignore where property.split(separator: ".").count != 2 {
            throw ValidationError("--ignore takes Entity.property, not '\(property)'.")
        }
    }

    func run() throws {
        try CommandFailureReporter.run(json: jsonOption.json, execute)
    }

    private func execute() throws {
        let matrix = try UpgradeMatrix(
            bundleAt: bundleOptions.url, mappingsAt: mappingOptions.mappings.map { URL(fileURLWithPath: $0) },
            policies: Tool.policies, ignoring: Set(ignore), allowingDrops: Set(allowDrop))
        var outcomes: [MatrixOutcome] = []
        for (index, pair) in matrix.cases.enumerated() {
            let started = Date()
            var outcome = MatrixOutcome(from: pair.from, to: pair.to, ok: true, seconds: 0)
            do {
                outcome.unchecked = try matrix.check(pair, rows: RowCounts(default: rows), seed: seed).unchecked
            } catch {
                outcome.ok = false
                outcome.error = "\(error)"
            }
            outcome.seconds = Date().timeIntervalSince(started)
            outcomes.append(outcome)
            StandardError.print(
                "[\(index + 1)/\(matrix.cases.count)] \(pair) \(outcome.ok ? "✓" : "✗") \(String(format: "%.2f", outcome.seconds)) s"
            )
        }
        let failures = outcomes.filter { !$0.ok }.count
        if jsonOption.json {
            try JSONOutput.print(MatrixReport(pairs: outcomes, failures: failures, unreachable: matrix.unreachable))
        } else {
            MatrixTable.lines(
                versions: matrix.history.names, outcomes: outcomes, unreachable: matrix.unreachable, rows: rows,
                seed: seed
            ).forEach { print($0) }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

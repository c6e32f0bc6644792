import ArgumentParser
import Foundation
import StepwiseMatrix
import StepwiseModel

/// `stepwise matrix`: ``UpgradeMatrix`` from the command line.
struct MatrixCommand<Tool: StepwiseTool>: ParsableCommand, JSONReportingCommand {
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
                quick_check and every key and join row, the row counts and values of entities \
                copied one for one, that no entity both versions have lost all its rows (unless an \
                entity mapping with no destination, or --allow-drop, declares it), and, when the \
                plan has several steps, that stopping at every version gives the same objects.

                After the table, each pair lists what no check covered: entities holding rows that \
                aren't copied one for one (made by a policy, say) and attributes whose values \
                weren't compared.

                Prints a table of ✓ and ✗ with the time of each pair, then the first failure of each \
                ✗, naming the entity, the seeded row (Z_PK) and the property. Exits with status 1 \
                when any pair fails. The same --seed gives the same stores, so a failure reproduces. \
                With --json: {"pairs": [{from, to, ok, seconds, error, unchecked}], "failures": n, \
                "unreachable": [...], "seeding": {...}}.

                Seeded data holds whatever the model allows. When a mapping or policy relies on \
                what your real data always holds, say so, and the seeded stores hold it too: \
                --rows Entity=n (rows of one entity; a plain --rows n sets the others), --every \
                Entity.relationship (set in every row: a to-one always set, a to-many never empty), \
                --unique Entity.attribute (no two rows share a value), --values \
                Entity.attribute=a,b,c (every row holds one of these values). Each option repeats; \
                --seeding FILE reads the same from JSON: {"defaultRows": n, "rows": {"Entity": n}, \
                "every": [...], "unique": [...], "values": {"Entity.attribute": [...]}}, and the \
                options add to it. A constraint applies to the versions that have its entity and \
                property; one that no version has is an error.

                A policy that writes rows of other entities declares them \
                (EntityMigrationPolicy.writesOtherEntities): their values are left to the \
                policy's own checks and listed as unchecked, "written by" the policy.

                Policies named by mapping files must be registered in code: this tool knows the \
                policies its StepwiseTool registers (the stock stepwise: the Recipes demo's). In \
                code, or to run it in CI, use UpgradeMatrix from StepwiseMatrix in a Swift Testing test.

                Examples:
                  \(ToolName.current) matrix --models Versions/Recipes.xcdatamodeld
                  \(ToolName.current) matrix --models Model.xcdatamodeld --rows 100 --seed 7 --json
                  \(ToolName.current) matrix --models Shop.xcdatamodeld --every Order.customer --unique Order.number
                  \(ToolName.current) matrix --models Shop.xcdatamodeld --rows Order=60 --values Order.status=open,shipped
                  \(ToolName.current) matrix --models Shop.xcdatamodeld --seeding seeding.json
                """
        )
    }

    @OptionGroup var bundleOptions: BundleOptions

    @OptionGroup var mappingOptions: MappingOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Rows per entity of each seeded store (default \(UpgradeMatrix.defaultRows)), or of one entity as Entity=n (repeatable).",
            valueName: "n|Entity=n"))
    var rows: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A relationship set in every seeded row, as Entity.relationship (repeatable): a to-one never nil, a to-many never empty.",
            valueName: "relationship"))
    var every: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An attribute no two seeded rows share a value of, as Entity.attribute (repeatable).",
            valueName: "attribute"))
    var unique: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An attribute whose seeded values come from a list, as Entity.attribute=a,b,c (repeatable).",
            valueName: "attribute=values"))
    var values: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seeding constraints as JSON: {\"defaultRows\", \"rows\", \"every\", \"unique\", \"values\"}; the options above add to it.",
            valueName: "file"))
    var seeding: String?

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

    @Option(
        name: .long,
        help: ArgumentHelp(
            "First versions checked at once, each on its own thread (default: the machine's cores).",
            valueName: "n"))
    var jobs: Int?

    @OptionGroup var jsonOption: JSONOption

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes 1 or more, not \(jobs).") }
        _ = try constraints(adding: SeedingConstraints())
        for property in ignore where property.split(separator: ".").count != 2 {
            throw ValidationError("--ignore takes Entity.property, not '\(property)'.")
        }
    }

    /// `base` (the --seeding file's constraints, or none) with the options' constraints added.
    private func constraints(adding base: SeedingConstraints) throws -> SeedingConstraints {
        var seeding = base
        for value in rows {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard let count = Int(parts.last ?? ""), count >= 0, parts.count == 1 || !parts[0].isEmpty else {
                throw ValidationError("--rows takes a number of rows (0 or more) or Entity=n, not '\(value)'.")
            }
            if parts.count == 1 { seeding.rows.defaultCount = count } else { seeding.rows.counts[parts[0]] = count }
        }
        func property(_ value: String, _ option: String, _ kind: String) throws -> String {
            guard value.split(separator: ".", omittingEmptySubsequences: false).count == 2,
                !value.hasPrefix("."), !value.hasSuffix(".")
            else { throw ValidationError("\(option) takes Entity.\(kind), not '\(value)'.") }
            return value
        }
        for value in every { seeding.every.insert(try property(value, "--every", "relationship")) }
        for value in unique { seeding.unique.insert(try property(value, "--unique", "attribute")) }
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ValidationError("--values takes Entity.attribute=a,b,c, not '\(value)'.")
            }
            seeding.values[try property(parts[0], "--values", "attribute")] = parts[1]
                .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return seeding
    }

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let matrix = try UpgradeMatrix(
            bundleAt: try bundleOptions.single(), mappingsAt: mappingOptions.mappings.map { URL(fileURLWithPath: $0) },
            policies: Tool.policies, ignoring: Set(ignore), allowingDrops: Set(allowDrop))
        let base = try seeding.map { try SeedingConstraints(contentsOf: URL(fileURLWithPath: $0)) }
        let constraints = try constraints(adding: base ?? SeedingConstraints())
        try matrix.validate(constraints)
        // One session for every pair: each version is seeded once, and the path stopping at
        // each version is carried on from one pair to the next. Pairs of different first
        // versions share nothing else, so `--jobs` of them run at once.
        let session = try matrix.session(seeding: constraints, seed: seed)
        let progress = MatrixProgress(total: matrix.cases.count)
        let outcomes = session.check(
            matrix.cases, concurrency: jobs ?? ProcessInfo.processInfo.activeProcessorCount
        ) { progress.report($0) }.map(MatrixOutcome.init)
        let failures = outcomes.filter { !$0.ok }.count
        if jsonOption.json {
            try JSONOutput.print(
                MatrixReport(
                    pairs: outcomes, failures: failures, unreachable: matrix.unreachable, seeding: constraints))
        } else {
            MatrixTable.lines(
                versions: matrix.history.names, outcomes: outcomes, unreachable: matrix.unreachable,
                rows: constraints.rows.defaultCount, seed: seed
            ).forEach { print($0) }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

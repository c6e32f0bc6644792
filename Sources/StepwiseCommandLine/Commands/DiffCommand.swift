import ArgumentParser
import Foundation
import StepwiseMapping
import StepwiseModel

struct DiffCommand: ParsableCommand, JSONReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what a migration step between two model versions does, and the data it drops.",
        discussion: """
            With no mapping files for the step, infers the mapping Core Data's lightweight \
            migration would use between two versions of a bundle, plus lossless type widenings \
            (Integer 16 → 32 → 64, integer → Double, Float → Double, scalar → String). With \
            mapping files for the step (.xcmappingmodel beside the bundle, or in --mappings), \
            describes those; --inferred describes the inferred mapping anyway. Prints per entity \
            and property what is kept, renamed, added, removed or widened, and which entities \
            change parent.

            Dropped data is marked: a removed entity ("rows dropped"), a removed attribute \
            ("values dropped"), a removed relationship whose inverse isn't kept ("links \
            dropped"), and an entity that an explicit mapping leaves out although both versions \
            have it ("left out of the mapping"). `\(ToolName.current) plan STORE` counts them in a store.

            When the step can't be inferred, prints every reason with a fix and exits with status 1: \
            write an explicit mapping model for that step.

            Markers: = unchanged, ~ changed or renamed, + added, - removed or left out.

            Example:
              \(ToolName.current) diff --models Moody.xcdatamodeld --from Moody --to "Moody 2"
              \(ToolName.current) diff --models Versions/Recipes.xcdatamodeld --from "Recipes 3" --json

            With --json, prints {"inferable": true, "mapping": "inferred" or "explicit", \
            "mappingFiles", "from", "to", "entities": [...]} (each entity and property with \
            "dropped": null or the reason) or {"inferable": false, "from", "to", "problems": \
            [{"entity", "property", "reason", "message", "fix"}]}.
            """
    )

    @OptionGroup var bundleOptions: BundleOptions

    @OptionGroup var mappingOptions: MappingOptions

    @Option(name: .long, help: ArgumentHelp("The source version's name, e.g. 'Moody'.", valueName: "name"))
    var from: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The destination version's name. Defaults to the version after --from, which needs the versions' order.",
            valueName: "name"))
    var to: String?

    @Flag(name: .long, help: "Describe the inferred mapping even when the step has mapping files.")
    var inferred = false

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let bundle = try bundleOptions.load()
        let source = try bundle.version(named: from)
        let destination = try destinationVersion(in: bundle)
        let explicit =
            inferred
            ? []
            : try mappingOptions.load(for: bundle).steps[MappingDirectory.StepKey(source.name, destination.name)] ?? []
        if !explicit.isEmpty {
            // Several mapping models for one step run in turn; together they are the step's mapping.
            let combined = MappingModel(
                from: source.name, to: destination.name, entityMappings: explicit.flatMap(\.entityMappings))
            let diff = MappingDiff(combined, from: source, to: destination)
            if jsonOption.json {
                try JSONOutput.print(
                    InferableOutput(diff, mapping: "explicit", mappingFiles: explicit.compactMap(\.origin)))
            } else {
                print("Explicit mapping: \(explicit.map(TextFormat.mappingModel).joined(separator: ", "))")
                print(diff)
            }
            return
        }
        let mapping: MappingModel
        do {
            mapping = try MappingInference.inferMapping(from: source, to: destination)
        } catch {
            guard case .notInferable(let problems) = error.kind else { throw error }
            try report(problems, from: source.name, to: destination.name)
            throw ExitCode.failure
        }
        let diff = MappingDiff(mapping, from: source, to: destination)
        if jsonOption.json {
            try JSONOutput.print(InferableOutput(diff, mapping: "inferred", mappingFiles: []))
        } else {
            print(diff)
        }
    }

    private func report(_ problems: [InferenceProblem], from: String, to: String) throws {
        if jsonOption.json {
            try JSONOutput.print(NotInferableOutput(from: from, to: to, problems: problems))
            return
        }
        print("\(from) → \(to): can't be inferred")
        for problem in problems {
            print("  - \(problem.place): \(problem.message).")
            print("    Fix: \(problem.fix)")
        }
        print("Write an explicit mapping model for this step.")
    }

    private func destinationVersion(in bundle: ModelBundle) throws -> ObjectModel {
        if let to { return try bundle.version(named: to) }
        // "The version after --from" is the only part of diff that needs the order: ordered as
        // an upgrade orders it, mapping models included, or its problem thrown.
        let names = try bundle.orderedByMappings(at: mappingOptions.mappings.map { URL(fileURLWithPath: $0) })
            .orderedHistory().names
        guard let index = names.firstIndex(of: from), index + 1 < names.count else {
            throw ValidationError("'\(from)' is the newest version of \(bundle.url.lastPathComponent); pass --to NAME.")
        }
        return try bundle.version(named: names[index + 1])
    }
}

/// `stepwise diff --json` when the mapping is inferable.
private struct InferableOutput: Encodable {
    let inferable = true
    /// `inferred`, or `explicit` when the step's mapping files were described.
    let mapping: String
    /// The files of an explicit step's mapping models.
    let mappingFiles: [MappingOrigin]
    let from: String
    let to: String
    let entities: [EntityDiff]

    init(_ diff: MappingDiff, mapping: String, mappingFiles: [MappingOrigin]) {
        self.mapping = mapping
        self.mappingFiles = mappingFiles
        from = diff.from
        to = diff.to
        entities = diff.entities
    }
}

/// `stepwise diff --json` when it isn't.
private struct NotInferableOutput: Encodable {
    let inferable = false
    let from: String
    let to: String
    let problems: [InferenceProblem]
}

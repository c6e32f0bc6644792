import ArgumentParser
import Foundation
import Stepwise

/// `stepwise check`: ``HistoryCheck`` as a CI gate. Generic over the tool, so that mappings'
/// policies are checked against `Tool.policies` when the tool knows the team's policies.
struct CheckCommand<Tool: StepwiseTool>: ParsableCommand, JSONReportingCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "check",
            abstract: "Check a model history for what would break upgrades: a CI gate.",
            discussion: """
                Reads the bundle and its mapping models (the .xcmappingmodel folders beside it and the \
                mapping folder) and prints one line per finding, each with a fix. Nothing is written.

                The first line is the versions' order and how it was found ("Order: CyfaceModel, 2, …, \
                13 — natural order of the names within each stem; 'CyfaceModel' first as the bundle's \
                name", or "from Model.history"); a history file is needed only when nothing in the \
                bundle orders two versions, and then the order is an error finding naming them.

                Errors (exit status 1): a shipped version edited since its record \
                (shippedVersionEdited); versions whose order can't be told (ambiguousOrder); an old version with no path to \
                the current one, naming the missing step and the mapping file to add (noPath); a \
                mapping file or .xcmappingmodel that fits no pair of versions or names entities or \
                properties they lack (staleMapping), or can't be read at all (invalidMapping); a \
                mapping's policy this tool doesn't register (unregisteredPolicy; not checked by the \
                stock stepwise, which knows only the demo's policies).

                Warnings (exit status 0): two versions with equal entity hashes, which are \
                interchangeable for stores as Core Data sees them (duplicateVersion); an inferred step \
                that drops an entity's rows, an attribute's values or a relationship's links \
                (dropsData); an inferred step that matches a property through a renaming identifier \
                other properties carry too (sharedRenamingIdentifier). Information: a current version \
                not recorded as shipped (currentVersionNotShipped). Only errors fail the check.

                Accepting a finding: a finding the team has looked at and keeps (two shipped \
                versions that share every hash, say) goes in <Name>.accepted-findings.json beside \
                the bundle, or the file given with --accept, with its kind, version and a reason: \
                {"accepted": [{"kind": "duplicateVersion", "version": "Model 8", "reason": "…"}]} \
                ("entity" and "property" narrow an entry; "version" is null for a finding without \
                one). An accepted finding is still listed, as "accepted", with its reason, and \
                fails nothing. An entry that matches no finding is a warning (staleAcceptance): \
                remove it.

                With --json: {"errors": n, "warnings": n, "accepted": n, "order": {"versions", \
                "foundBy", "file", "clues", "description"} or null, "findings": [{"severity", \
                "kind", "version", "entity", "property", "message", "fix", "acceptedBecause"}]}; \
                errors and warnings count the findings not accepted.

                Examples, in CI:
                  \(ToolName.current) check --models Model.xcdatamodeld
                  \(ToolName.current) check --models Model.xcdatamodeld --accept ci/accepted-findings.json
                """
        )
    }

    @OptionGroup var bundleOptions: BundleOptions

    @OptionGroup var mappingOptions: MappingOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The accepted findings, each with a reason (default: <Name>.accepted-findings.json beside the bundle, when there is one).",
            valueName: "file"))
    var accept: String?

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let report = try HistoryCheck(
            bundleAt: try bundleOptions.single(), mappingsAt: mappingOptions.mappings.map { URL(fileURLWithPath: $0) },
            policies: Tool.checksPolicies ? Tool.policies : nil,
            acceptedFindingsAt: accept.map { URL(fileURLWithPath: $0) }
        ).run()
        if jsonOption.json {
            try JSONOutput.print(report)
        } else {
            // What every other finding was checked against (paths and steps go by the order).
            if let order = report.order { print("Order: \(order)") }
            report.findings.forEach { print($0) }
            let infos = report.findings.count - report.errors - report.warnings - report.accepted
            let accepted = report.accepted > 0 ? ", \(report.accepted) accepted" : ""
            print(
                "\(bundleOptions.models.first ?? ""): \(Self.count(report.errors, "error")), \(Self.count(report.warnings, "warning")), \(infos) info\(accepted)."
            )
            if !Tool.checksPolicies {
                StandardError.print(
                    "Note: policies not checked: \(ToolName.current) knows only the demo's. Run check from your own StepwiseTool, or HistoryCheck in a test, to check yours."
                )
            }
        }
        if !report.passes { throw ExitCode(1) }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

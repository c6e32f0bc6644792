import ArgumentParser
import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// `stepwise plan`. Generic over the tool like `upgrade`, so that the plan can check the
/// tool's policies the way the upgrade does (`Tool.policies`).
struct PlanCommand<Tool: StepwiseTool>: ParsableCommand, JSONReportingCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "plan",
            abstract: "Explain how a store would be upgraded: its version, and each step to the target.",
            discussion: """
                Identifies the store's version (reading a private copy), then plans the path to the \
                bundle's current version (or --to) that drops the least (a path that drops nothing \
                always wins), then with the fewest explicit (heavyweight) steps: explicit mappings from \
                the mapping folder, in any direction, and inferred steps between consecutive versions. A \
                store matched by its own model cache joins the history at the version its cached model \
                differs least from, when that keeps more than the step straight to the target; the plan \
                says which version and why. Consecutive inferred steps whose mappings compose exactly run as one pass, shown \
                as "inferred, one pass via" the versions they skip. Each explicit step names its mapping \
                files (JSON or .xcmappingmodel) and how each was bound to the step's versions: by its \
                model paths, its embedded model copies, or the one pair its entity mappings fit. Nothing \
                is migrated.

                Dropped data: under each step, what it drops, counted in the store: rows of an \
                entity no mapping carries (removed from the model, or left out of an explicit \
                mapping), non-null values of a removed attribute, links of a removed relationship. A \
                count that depends on earlier steps' policies is taken when the step runs. JSON: a \
                "drops" array of {step, from, to, entity, property, kind, reason, count, declared}.

                Missing policies: a step whose mapping names a policy this tool doesn't register is \
                marked "needs the policy …", naming the policy, the mapping model and the entity \
                mapping; the whole plan is printed, then the command fails (exit status 1), as \
                `\(ToolName.current) upgrade` would refuse the plan before touching the store. JSON: a \
                "missingPolicies" array of {step, from, to, policy, mappingModel, entityMapping, file}, \
                and "error".

                Order: the versions' order the path goes by, and how it was found ("Order: Recipes, …, \
                Recipes 4 — natural order of the names", or "from Model.history"). Without a history \
                file it is worked out from the bundle: the names' natural order within each stem, the \
                bundle's own name as the first version, the current version as the last, mapping \
                models (source before destination) and renaming identifiers. A plan is refused only \
                when these leave two versions' order open, naming them. JSON: "order": {"versions", \
                "foundBy", "file", "clues", "description"}.

                Path: how an upgrade would write the new store. "in one transaction on the store" \
                when every step changes only the schema (no copy, as Core Data's lightweight \
                migration); "on a copy, then swapped in" otherwise, with the reason: a backup is \
                kept, a step rewrites rows or has a stage, the store has rows in its -wal, or it keeps \
                values in external files. JSON: "path" ("oneTransaction" or "copyAndSwap") and \
                "copyReason". Under each step, whether it may change only the schema (altered in place: \
                the store, or on the copy path the output of the step before it, so a chain that \
                rebuilds, then only alters, copies the store once) or rewrites rows, and why. JSON: \
                "rowRewrites", per step, null for a step that changes only the schema.

                Formats: text (default), json, dot (Graphviz) and mermaid draw the version graph with the \
                plan's steps highlighted.
                """
        )
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, dot, mermaid
    }

    @Argument(help: ArgumentHelp("The store to plan for (never written).", valueName: "store"), completion: .file())
    var store: String

    @OptionGroup var bundleOptions: BundleOptions

    @OptionGroup var mappingOptions: MappingOptions

    @Option(
        name: .long, help: ArgumentHelp("The target version (default: the bundle's current one).", valueName: "version")
    )
    var to: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Plan to drop the store's entities that no version of the given models has, instead of refusing them."))
    var dropUnknownEntities = false

    @Option(name: .long, help: "Output format: text, json, dot or mermaid.")
    var format: Format = .text

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { format == .json }

    func run() throws {
        // The plan comes from the phase `upgrade` runs (Upgrader.plan(forStoreAt:)), with the
        // same refusals: a store newer than the target, a staged step. An unregistered policy is
        // refused too, but only once the whole plan is shown, its steps marked.
        // It reads a private copy of the store, its -wal included; the store is never opened.
        var options = UpgradeOptions(targetVersion: to)
        options.dropsUnknownEntities = dropUnknownEntities
        let upgrader = try bundleOptions.upgrader(
            mappings: mappingOptions, policies: Tool.policies, options: options)
        let prepared = try upgrader.plan(forStoreAt: URL(fileURLWithPath: store), refusingUnregisteredPolicies: false)
        let (identification, plan, drops) = (prepared.identification, prepared.plan, prepared.drops)
        let missing = prepared.missingPolicies
        let version = prepared.version
        let target = plan.to
        switch format {
        case .text:
            print("\(store) is at '\(version)' (matched by \(identification.matchedBy?.rawValue ?? "?")).")
            switch upgrader.history.order {
            case .success(let order): print("Order: \(order)")
            // Only a store at the target gets this far without an order: no path is needed.
            case .failure: print("Order: can't be told, and isn't needed: the store is at the target.")
            }
            if identification.matchedBy == .shippedRecord {
                // The store predates an in-place edit of its version: say why step 1 exists.
                for note in identification.notes { print("Note: \(note).") }
            }
            if identification.matchedBy == .modelCache {
                // Its version is gone from the bundle: say where step 1's source model comes from.
                print(
                    "No version of the bundle wrote it: the upgrade starts from the store's own model cache (Z_MODELCACHE), whose hashes match its metadata, as Core Data's does."
                )
            }
            if let join = plan.modelCacheJoin {
                // Which version the cached model joins the history at, and why.
                print("Note: \(join).")
            }
            if plan.steps.isEmpty {
                print("It is up to date with '\(target)': nothing to do.")
            }
            for (index, step) in plan.steps.enumerated() {
                let models = step.mappingModels.map(TextFormat.mappingModel).joined(separator: ", ")
                let policies = Set(step.mappingModels.flatMap(\.entityMappings).compactMap(\.policyName)).sorted()
                let policyText = policies.isEmpty ? "" : "; policies \(policies.joined(separator: ", "))"
                let via = step.via.isEmpty ? "" : ", one pass via \(step.via.joined(separator: ", "))"
                print(
                    "  \(index + 1). \(step.from) → \(step.to)  \(step.kind.rawValue)\(via) (\(models)\(policyText))")
                if index < prepared.rowRewrites.count {
                    // From the models: the store's own schema has the last word when the step runs.
                    print("       \(prepared.rowRewrites[index] ?? "may change only the schema: altered in place")")
                }
                for policy in missing where policy.stepIndex == index {
                    print(
                        "       needs the policy '\(policy.policy)' (entity mapping \(policy.entityMapping) of \(policy.mappingModel)), which \(ToolName.current) doesn't register"
                    )
                }
                for drop in drops[index] where drop.count != 0 {
                    let later = drop.count == nil ? ", counted when the step runs" : ""
                    print("       drops \(drop)\(later)")
                }
            }
            if !plan.steps.isEmpty {
                print("\(plan.steps.count) step(s) to '\(target)', \(plan.explicitStepCount) explicit.")
            }
            if let path = prepared.path {
                print("Path: \(path)" + (prepared.copyReason.map { " (\($0))" } ?? ""))
            }
            if drops.joined().contains(where: \.losesUndeclaredData) {
                print(
                    "Some steps drop data no mapping declares (listed under them). `\(ToolName.current) upgrade --strict` refuses them; a mapping that carries the data, or an entity mapping with no destination, settles each."
                )
            }
        case .json:
            try JSONOutput.print(
                PlanReport(
                    store: store, from: plan.from, to: plan.to, matchedBy: identification.matchedBy?.rawValue,
                    fromModelCache: identification.matchedBy == .modelCache, modelCacheJoin: plan.modelCacheJoin,
                    upToDate: plan.steps.isEmpty, order: knownOrder(upgrader),
                    path: prepared.path, copyReason: prepared.copyReason, rowRewrites: prepared.rowRewrites,
                    steps: plan.steps,
                    drops: zip(plan.steps.indices, drops).flatMap { index, stepDrops in
                        stepDrops.map { PlanReport.Drop(step: index + 1, of: plan.steps[index], $0) }
                    },
                    missingPolicies: missing.map { PlanReport.Missing($0, of: plan.steps[$0.stepIndex]) },
                    // One JSON object: the plan, and the error the command then fails with.
                    error: missing.first.map { CommandFailureReporter.report($0.error) }))
            if let first = missing.first { throw ExitCode(CommandExitStatus(for: first.error).rawValue) }
        case .dot, .mermaid:
            var planner = upgrader.planner
            planner.modelCache = identification.matchedBy == .modelCache ? identification.version : nil
            print(try graph(plan, planner: planner, history: upgrader.history.versions))
        }
        // As `upgrade` would: the plan can't run without the policy. The error names the first.
        if let first = missing.first { throw first.error }
    }

    /// The order the plan went by; nil when it can't be told, which only a store at the target
    /// gets this far with.
    private func knownOrder(_ upgrader: Upgrader) -> VersionOrder? {
        if case .success(let order) = upgrader.history.order { return order }
        return nil
    }

    /// The version graph, with the plan's steps highlighted. A merged step highlights the
    /// inferred edges it runs in one pass.
    private func graph(_ plan: UpgradePlan, planner: UpgradePlanner, history: VersionHistory) throws -> String {
        let planned = Set(
            plan.steps.flatMap { step in
                zip(step.versions, step.versions.dropFirst()).map { "\($0)\u{0}\($1)" }
            })
        // The edges from the store's cached model exist only for this store: to the target and
        // to the versions it differs least from.
        let edges = planner.edges() + planner.modelCacheEdges(from: plan.from, to: plan.to)
        let nodes = history.versions + planner.shipped + [planner.modelCache].compactMap { $0 }
        func id(_ name: String) -> String {
            if name == planner.modelCache?.name { return "cache" }
            // A version as shipped ("Recipes 2 (as shipped)") is a node beside its edited version.
            if let edited = ShippedVersion.versionName(asShipped: name) { return "s\(history.index(of: edited) ?? 0)" }
            return "v\(history.index(of: name) ?? 0)"
        }
        if format == .dot {
            var lines = ["digraph plan {", "  rankdir=LR;"]
            for version in nodes {
                let shape = version.name == plan.from || version.name == plan.to ? "doublecircle" : "circle"
                lines.append("  \(id(version.name)) [label=\"\(version.name)\", shape=\(shape)];")
            }
            for edge in edges {
                let style = planned.contains("\(edge.from)\u{0}\(edge.to)") ? ", penwidth=3" : ""
                let dash = edge.kind == .inferred ? ", style=dashed" : ""
                lines.append("  \(id(edge.from)) -> \(id(edge.to)) [label=\"\(edge.kind.rawValue)\"\(dash)\(style)];")
            }
            return (lines + ["}"]).joined(separator: "\n")
        }
        var lines = ["graph LR"]
        for version in nodes { lines.append("  \(id(version.name))[\"\(version.name)\"]") }
        for edge in edges {
            let arrow =
                planned.contains("\(edge.from)\u{0}\(edge.to)") ? "==>" : (edge.kind == .inferred ? "-.->" : "-->")
            lines.append("  \(id(edge.from)) \(arrow)|\(edge.kind.rawValue)| \(id(edge.to))")
        }
        return lines.joined(separator: "\n")
    }
}

private struct PlanReport: Encodable {
    var store: String
    var from: String
    var to: String
    var matchedBy: String?
    /// Whether the plan starts from the store's own model cache (`Z_MODELCACHE`): no version of
    /// the bundle wrote the store, and its cached model's hashes match its metadata.
    var fromModelCache: Bool
    /// Where a plan from the store's model cache joins the history (`ModelCacheJoin`): the
    /// version the cached model differs least from, the differences, the route and why; absent
    /// for any other plan.
    var modelCacheJoin: ModelCacheJoin?
    var upToDate: Bool
    /// The versions' order and how it was found; null when it can't be told (the store is then
    /// at the target, or the plan would have been refused).
    var order: VersionOrder?
    /// How an upgrade would write the new store, and why a copy; absent when up to date.
    var path: UpgradePath?
    var copyReason: String?
    /// Per step, why it rewrites rows; null for a step that changes only the schema (altered in
    /// place). Empty when up to date.
    var rowRewrites: [String?]
    var steps: [PlannedStep]
    /// What the steps drop, counted in the store (`count` null when it can't be counted
    /// before the step runs).
    var drops: [Drop]
    /// The policies steps need that the tool doesn't register; empty when there are none.
    var missingPolicies: [Missing]
    /// The error the command fails with when a policy is missing; absent otherwise.
    var error: JSONFailure?

    /// One ``PreparedUpgrade/MissingPolicy``, with its step.
    struct Missing: Encodable {
        /// The step, 1-based.
        var step: Int
        var from: String
        var to: String
        var policy: String
        var mappingModel: String
        var entityMapping: String
        var file: String?

        init(_ missing: PreparedUpgrade.MissingPolicy, of planned: PlannedStep) {
            step = missing.stepIndex + 1
            (from, to) = (planned.from, planned.to)
            (policy, mappingModel, entityMapping, file) =
                (missing.policy, missing.mappingModel, missing.entityMapping, missing.file)
        }
    }

    /// One ``DroppedData`` of one step.
    struct Drop: Encodable {
        /// The step, 1-based.
        var step: Int
        var from: String
        var to: String
        var entity: String
        var property: String?
        var kind: DroppedData.Kind
        var reason: DroppedData.Reason
        var count: Int?
        var declared: Bool

        init(step: Int, of planned: PlannedStep, _ drop: DroppedData) {
            self.step = step
            from = planned.from
            to = planned.to
            entity = drop.entity
            property = drop.property
            kind = drop.kind
            reason = drop.reason
            count = drop.count
            declared = drop.isDeclared
        }

        private enum CodingKeys: String, CodingKey {
            case step, from, to, entity, property, kind, reason, count, declared
        }

        /// Every key, absent values as `null`.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeEveryKey([
                .step: step, .from: from, .to: to, .entity: entity, .property: property, .kind: kind, .reason: reason,
                .count: count, .declared: declared,
            ])
        }
    }
}

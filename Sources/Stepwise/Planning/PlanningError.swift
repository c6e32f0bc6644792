import StepwiseMapping
import StepwiseModel

/// A plan that can't be made, naming the versions involved and what would fix it.
public struct PlanningError: Error, Sendable, ReportableError {
    public enum Kind: Sendable {
        /// A version name the history doesn't have.
        case unknownVersion(String, available: [String])
        /// No chain of mappings leads from `from` to `to`. `gap` is the first consecutive pair
        /// on the way that has neither a mapping file nor an inferable mapping, with the
        /// reasons inference gave.
        case noPath(from: String, to: String, gap: (from: String, to: String)?, problems: [InferenceProblem])
        /// The store is at a version later than the target, and no mapping leads back from it:
        /// a store written by a newer build is never migrated down by inference.
        case laterThanTarget(storeVersion: String, target: String)
        /// A mapping on the path names a policy the upgrader has no registration for: found
        /// while planning, before any step runs.
        case unregisteredPolicy(name: String, mappingModel: String, entityMapping: String)
        /// Two ``/StepwiseMapping/MigrationStage``s were given for the same step.
        case duplicateStage(from: String, to: String)
    }

    public var kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .unknownVersion(let name, let available):
            return "no model version named '\(name)'. Available: \(available.joined(separator: ", "))."
        case .laterThanTarget(let storeVersion, let target):
            return """
                the store is at '\(storeVersion)', later than the target '\(target)'. Stepwise never infers a \
                downgrade: upgrade to '\(storeVersion)' or later, or add a mapping file '\(storeVersion) to \(target).json' \
                (source "\(storeVersion)", destination "\(target)") to go back on purpose.
                """
        case .unregisteredPolicy(let name, let mappingModel, let entityMapping):
            return """
                the mapping model '\(mappingModel)' names the policy '\(name)' for its entity mapping \
                '\(entityMapping)', and no policy is registered under that name. Register it with \
                PolicyRegistry.register("\(name)") { … } in the registry given to the Upgrader. Nothing was changed.
                """
        case .duplicateStage(let from, let to):
            return
                "two migration stages were given for the step '\(from)' → '\(to)'. Give one stage per step, with both handlers in it if needed. Nothing was changed."
        case .noPath(let from, let to, let gap, let problems):
            guard let gap else {
                return "no chain of mappings leads from '\(from)' to '\(to)'. Add a mapping file for the missing step."
            }
            let reasons = problems.map { "  - \($0)" }.joined(separator: "\n")
            return """
                no chain of mappings leads from '\(from)' to '\(to)': the step '\(gap.from)' → '\(gap.to)' has no \
                mapping file and can't be inferred:
                \(reasons)
                Add a mapping file '\(gap.from) to \(gap.to).json' (source "\(gap.from)", destination "\(gap.to)") \
                to the bundle's .mappings folder.
                """
        }
    }
}

extension PlanningError {
    /// The kind's case name (`unknownVersion`), for tools: `{"kind": …}` in the CLI's JSON.
    package var caseName: String {
        switch kind {
        case .unknownVersion: "unknownVersion"
        case .noPath: "noPath"
        case .laterThanTarget: "laterThanTarget"
        case .unregisteredPolicy: "unregisteredPolicy"
        case .duplicateStage: "duplicateStage"
        }
    }

    public var errorDescription: String? { description }

    /// The file the error is about.
    package var subjectPath: String? { nil }
}

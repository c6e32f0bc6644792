import Stepwise
import StepwiseMapping

/// What the policies of a plan declare they write in other entities
/// (``/StepwiseMapping/EntityMigrationPolicy/writesOtherEntities``): the values a matrix leaves
/// to the policies' own checks.
struct PolicyWrites {
    /// For each entity (by name in its step's destination version): the attributes declared
    /// written, each with the policy that declares it; `""` stands for the entity's rows.
    private(set) var declared: [String: [String: String]] = [:]

    /// The declarations of every policy named by an entity mapping of `step`.
    init(step: PlannedStep, policies: PolicyRegistry) {
        self.init(steps: [step], policies: policies)
    }

    /// The declarations of every policy named by an entity mapping of the plan's steps.
    init(steps: [PlannedStep], policies: PolicyRegistry) {
        let names = Set(steps.flatMap(\.mappingModels).flatMap(\.entityMappings).compactMap(\.policyName))
        for name in names.sorted() {
            guard let policy = policies.makePolicy(named: name) else { continue }
            for (entity, attributes) in policy.writesOtherEntities {
                if attributes.isEmpty { declared[entity, default: [:]][""] = name }
                for attribute in attributes { declared[entity, default: [:]][attribute] = name }
            }
        }
    }

    /// Whether a policy declares it inserts or deletes rows of `entity`.
    func writesRows(of entity: String) -> Bool {
        declared[entity]?[""] != nil
    }

    /// The attributes of `entity` a policy declares it writes.
    func attributes(of entity: String) -> Set<String> {
        Set((declared[entity] ?? [:]).keys.filter { !$0.isEmpty })
    }

    /// The policy that declares it writes `attribute` of `entity` (nil: its rows), if one does.
    func policy(writing attribute: String?, of entity: String) -> String? {
        declared[entity]?[attribute ?? ""] ?? (attribute == nil ? nil : declared[entity]?[""])
    }
}

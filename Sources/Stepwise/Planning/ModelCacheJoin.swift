import StepwiseMapping
import StepwiseModel

/// Where a plan from a store's cached model joins the history: the version the cached model
/// differs least from, and why the plan goes there first, or doesn't.
///
/// A store matched by its own model cache (``StoreIdentification/MatchKind/modelCache``) was
/// written by a model no version of the bundle has: most often a version edited in place after
/// it shipped. The step straight from the cached model to the target, which Core Data would
/// infer, can't follow what the history renames one version at a time (each renaming
/// identifier names the version before, not the cached model) and drops it. So the planner
/// also offers a step to the version the cached model differs least from, by name
/// (``/StepwiseModel/ModelDifference``), and from there the history's own steps; the path that
/// drops the least wins (`UpgradePlanner`).
///
/// ```swift
/// let prepared = try upgrader.plan(forStoreAt: storeURL)
/// prepared.plan.modelCacheJoin?.description
/// // "the store's cached model differs least from 'Notes 2' (1 difference: Note.pinned was
/// //  added (Boolean, optional)), so the plan joins the history there: the step straight to
/// //  'Notes 4' would drop Note.body (removed from the model)"
/// ```
public struct ModelCacheJoin: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// Which way the plan leaves the cached model.
    public enum Route: String, Sendable, Hashable, Codable {
        /// The plan's first step goes to ``ModelCacheJoin/version``, then follows the history.
        case throughVersion
        /// ``ModelCacheJoin/version`` is the target: the plan's one step goes there.
        case versionIsTarget
        /// The plan goes straight to the target: the way through ``ModelCacheJoin/version``
        /// drops no less and takes more steps.
        case straightToTarget
        /// The plan goes straight to the target: no path leads on from
        /// ``ModelCacheJoin/version`` (a version after the target, with no mapping back).
        case noPathFromVersion
    }

    /// The version the cached model differs least from, among those a mapping can be inferred
    /// to from it.
    public var version: String
    /// How ``version`` differs from the cached model, by name: "Note.pinned was added
    /// (Boolean, optional).".
    public var differences: [ModelDifference]
    /// The plan's target.
    public var target: String
    /// Which way the plan goes.
    public var route: Route
    /// What the one inferred step straight from the cached model to the target would drop that
    /// the plan doesn't, uncounted; empty unless the plan goes through ``version`` to keep it.
    public var droppedGoingStraight: [DroppedData]

    /// Where a plan from a cached model joins the history.
    ///
    /// - parameters:
    ///   - version: The version the cached model differs least from.
    ///   - differences: How that version differs from the cached model.
    ///   - target: The plan's target.
    ///   - route: Which way the plan goes.
    ///   - droppedGoingStraight: What the step straight to the target would drop that the plan
    ///     doesn't (none by default).
    public init(
        version: String, differences: [ModelDifference], target: String, route: Route,
        droppedGoingStraight: [DroppedData] = []
    ) {
        self.version = version
        self.differences = differences
        self.target = target
        self.route = route
        self.droppedGoingStraight = droppedGoingStraight
    }

    /// "the store's cached model differs least from 'Notes 2' (1 difference: …), so the plan
    /// joins the history there", then why when the step straight to the target would drop more,
    /// or why the plan doesn't join there.
    public var description: String {
        let nearest = "the store's cached model differs least from '\(version)'"
        switch route {
        case .throughVersion:
            let kept =
                droppedGoingStraight.isEmpty
                ? ""
                : ": the step straight to '\(target)' would drop "
                    + droppedGoingStraight.map { "\($0.place) (\($0.reason.explanation))" }.joined(separator: ", ")
            return "\(nearest) (\(differenceList)), so the plan joins the history there\(kept)"
        case .versionIsTarget:
            return "\(nearest), the target (\(differenceList))"
        case .straightToTarget:
            return
                "\(nearest) (\(differenceList)), but the plan goes straight to '\(target)': the way through '\(version)' drops no less and takes more steps"
        case .noPathFromVersion:
            return
                "\(nearest) (\(differenceList)), but the plan goes straight to '\(target)': no path leads from '\(version)' to '\(target)'"
        }
    }

    /// "1 difference: Note.pinned was added (Boolean, optional)", the first three named.
    private var differenceList: String {
        let count = differences.count == 1 ? "1 difference" : "\(differences.count) differences"
        guard !differences.isEmpty else { return count }
        var named = differences.prefix(3).map { difference in
            // Each is a sentence; here they are clauses of one.
            difference.description.hasSuffix(".") ? String(difference.description.dropLast()) : difference.description
        }
        if differences.count > 3 { named.append("and \(differences.count - 3) more") }
        return "\(count): \(named.joined(separator: "; "))"
    }

    private enum CodingKeys: String, CodingKey {
        case version, differences, target, route, droppedGoingStraight, description
    }

    /// Every field, the differences as their sentences, and ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .version: version, .differences: differences.map(\.description), .target: target, .route: route,
            .droppedGoingStraight: droppedGoingStraight, .description: description,
        ])
    }
}

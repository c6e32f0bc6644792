import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel

/// Every upgrade path of a model history, each checked on a seeded store: the test an app
/// team adds to CI so that no version its users may still have is left untested.
///
/// ```swift
/// import StepwiseMatrix
/// import Testing
///
/// let matrix = Result { try UpgradeMatrix(bundleAt: modelURL, policies: myPolicies) }
///
/// @Test(arguments: try matrix.get().cases)
/// func upgrades(_ pair: UpgradeMatrix.Pair) throws {
///     try matrix.get().check(pair)
/// }
/// ```
///
/// ``cases`` holds every pair of a version and a later one that the planner can reach from it
/// (with the same mappings, inference and merging as ``Upgrader``), and for each version
/// edited since it shipped (``shipped``), its recorded model, `"Recipes 2 (as shipped)"`, to the
/// newest version. ``check(_:rows:seed:)``
/// creates a ``SeededStore`` at the pair's first version, upgrades it with ``Upgrader`` to the
/// second, and checks what must hold whatever the data:
///
/// 1. **Metadata**: ``VersionRegistry`` identifies the result as the target version, by hash,
///    or as a version with the same hashes: such versions are interchangeable for stores (a
///    store of the older one may be taken for the newer one), so a pair of them passes.
/// 2. **Consistency**: ``StoreConsistency``: `quick_check` (pages and records; an index
///    renamed in place is checked against its table by the step itself), no dangling to-one
///    key or join-table row, one-to-ones that point back.
/// 3. **Row counts**: an entity that every step copies one for one (see below) has as many
///    rows after as before, through renames.
/// 4. **Values**: such an entity's attributes that every step maps by a plain `$source.name`
///    of the same type hold the same values, compared row by row in `Z_PK` order, byte for
///    byte (`"é"` and `"e\u{301}"` differ).
/// 5. **No entity emptied**: an entity both versions have, which the seeded store fills, still
///    has rows after the upgrade, unless an entity mapping with no destination (or
///    ``allowedDrops``) declares the drop. This catches an entity an explicit mapping leaves out.
/// 6. **Path independence**: when the plan has several steps, a second copy is upgraded
///    stopping at every version (``UpgradePlanner/mergesInferredSteps`` off, one call per
///    step), and both results must hold the same objects: every attribute of every entity,
///    and relationships compared by the related objects' attributes; primary keys, `Z_OPT`
///    and row order don't count.
///
/// An entity is *copied* by a step when one mapping reads it, that mapping is a copy or
/// transform without filter and without policy, and no other mapping makes the same
/// destination entity. A policy elsewhere in the step that inserts rows into such an entity,
/// or rewrites its values, would be reported as a row-count or value failure, unless it
/// declares what it writes (``/StepwiseMapping/EntityMigrationPolicy/writesOtherEntities``):
/// those values are then left to the policy's own checks and listed in
/// ``PairResult/unchecked`` as `"Customer.orderCount (written by OrderPolicy)"`.
///
/// Seeded stores hold whatever the model allows. What the app's data always holds beyond that
/// (every order has a customer, unique order numbers, a status from a list) is said with
/// ``SeedingConstraints`` and ``check(_:seeding:seed:)``.
///
/// The checks are written for the data a seeded store holds; a mapping or policy that only
/// works with particular data (a policy that parses a string in a fixed format) fails on it,
/// and that failure is worth reading: an app's users have such data too.
///
/// Each ``check(_:rows:seed:)`` starts from nothing. To check many pairs, a ``Session``
/// (``session(rows:seed:)``) seeds each version once and carries the path stopping at each
/// version from one pair to the next, with the same outcome for every pair:
///
/// ```swift
/// let session = Result { try matrix.get().session(rows: 100) }
///
/// @Test(arguments: try matrix.get().cases)
/// func upgrades(_ pair: UpgradeMatrix.Pair) throws {
///     try session.get().check(pair)
/// }
/// ```
///
/// ## Topics
/// - ``cases``
/// - ``check(_:rows:seed:)``
/// - ``check(_:seeding:seed:)``
/// - ``session(rows:seed:)``
/// - ``session(seeding:seed:)``
/// - ``Session``
/// - ``validate(_:)``
/// - ``SeedingConstraints``
/// - ``Pair``
/// - ``PairResult``
/// - ``UpgradeMatrixFailure``
public struct UpgradeMatrix: Sendable {
    /// Rows per concrete entity of a seeded store, unless ``check(_:rows:seed:)`` is told otherwise.
    public static let defaultRows = 20
    /// The seed of a seeded store, unless ``check(_:rows:seed:)`` is told otherwise.
    public static let defaultSeed: UInt64 = 1

    /// The known versions, oldest first.
    public var history: VersionHistory { modelHistory.versions }
    /// The records of versions as they shipped (`stepwise ship`).
    public var shipped: [ShippedVersion] { modelHistory.shipped }
    /// The shipped models of versions edited since, each named `"<Version> (as shipped)"`
    /// (``/StepwiseModel/ShippedVersion/asShippedVersions(_:in:)``): the matrix seeds a store
    /// from each and upgrades it to the newest version.
    public var asShipped: [ObjectModel] { modelHistory.asShipped }
    /// Explicit mapping models by step; any other step is inferred where it can be.
    public var mappings: [MappingDirectory.StepKey: [MappingModel]] { modelHistory.mappings }
    /// The entity migration policies that mapping models name.
    public let policies: PolicyRegistry
    /// Custom work around particular steps (Core Data's staged migration).
    public let stages: [MigrationStage]
    /// Properties (`"Entity.property"`) left out of the path-independence comparison: those a
    /// policy fills with values that differ on every run, such as a fresh `UUID()`.
    public let ignoredProperties: Set<String>
    /// Entities (by name) whose rows an upgrade may drop although both versions of a pair
    /// have them: drops declared here rather than by an entity mapping with no destination.
    public let allowedDrops: Set<String>
    /// Every pair of a version and a later one the planner reaches from it, oldest first.
    public let cases: [Pair]
    /// The pairs of a version and a later one that no plan reaches (a step that can't be
    /// inferred and has no mapping file); ``check(_:rows:seed:)`` fails on them.
    public let unreachable: [Pair]
    /// The plan of each of ``cases``, made once while finding them.
    let casePlans: [Pair: UpgradePlan]
    /// The history every planner and ``Upgrader`` of this matrix is made from: one value, so
    /// that the inferred mapping of each pair of versions is worked out once for the whole
    /// matrix rather than once per upgrade.
    let modelHistory: ModelHistory

    /// A matrix for a history given in code.
    ///
    /// - parameters:
    ///   - history: The model versions, oldest first.
    ///   - mappings: Explicit mapping models by step (``MappingDirectory/steps``).
    ///   - shipped: The records of versions as they shipped.
    ///   - policies: The policies the mappings name.
    ///   - stages: Custom work around particular steps, as given to ``Upgrader``.
    ///   - ignoredProperties: `"Entity.property"` names left out of the path comparison.
    ///   - allowedDrops: Entities whose rows may be dropped although both ends of a pair have
    ///     them (see ``allowedDrops``).
    /// - throws: What ``/Stepwise/ModelHistory/init(versions:mappings:shipped:)`` throws: a
    ///   shipped record whose model can't be read, which ``Upgrader`` would refuse too.
    public init(
        history: VersionHistory, mappings: [MappingDirectory.StepKey: [MappingModel]] = [:],
        shipped: [ShippedVersion] = [], policies: PolicyRegistry = PolicyRegistry(), stages: [MigrationStage] = [],
        ignoring ignoredProperties: Set<String> = [], allowingDrops allowedDrops: Set<String> = []
    ) throws {
        self.init(
            modelHistory: try ModelHistory(versions: history, mappings: mappings, shipped: shipped), policies: policies,
            stages: stages, ignoring: ignoredProperties, allowingDrops: allowedDrops)
    }

    private init(
        modelHistory: ModelHistory, policies: PolicyRegistry, stages: [MigrationStage],
        ignoring ignoredProperties: Set<String>, allowingDrops allowedDrops: Set<String>
    ) {
        self.modelHistory = modelHistory
        self.policies = policies
        self.stages = stages
        self.ignoredProperties = ignoredProperties
        self.allowedDrops = allowedDrops
        let planner = modelHistory.planner(stepsKeptApart: Set(stages.map(\.step)))
        var pairs: [Pair] = []
        let names = modelHistory.versions.names
        for (index, from) in names.enumerated() {
            for to in names.dropFirst(index + 1) { pairs.append(Pair(from: from, to: to)) }
        }
        // A store from each version as shipped, to the newest: the path its users take.
        if let latest = names.last {
            pairs += modelHistory.asShipped.map { Pair(from: $0.name, to: latest) }
        }
        var cases: [Pair] = []
        var unreachable: [Pair] = []
        var plans: [Pair: UpgradePlan] = [:]
        for pair in pairs {
            if let plan = try? planner.plan(from: pair.from, to: pair.to) {
                cases.append(pair)
                plans[pair] = plan
            } else {
                unreachable.append(pair)
            }
        }
        self.cases = cases
        self.unreachable = unreachable
        self.casePlans = plans
    }

    /// A matrix for an `.xcdatamodeld` bundle, its mapping files and its shipped records
    /// (`<Name>.shipped/`), read as ``Upgrader/init(bundleAt:mappingsAt:policies:stages:options:)``
    /// reads them.
    ///
    /// - parameters:
    ///   - bundleAt: The model bundle.
    ///   - mappingsAt: The folder of mapping files; defaults to `<Name>.mappings` beside the
    ///     bundle, and may be missing when every step can be inferred.
    /// - throws: What ``/Stepwise/ModelHistory/init(bundleAt:mappingsAt:)`` throws, and
    ///   ``/StepwiseModel/ModelError/Kind/ambiguousOrder(_:reason:)`` (or a history file's
    ///   mismatch) when the versions' order can't be told: every pair is planned.
    public init(
        bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil, policies: PolicyRegistry = PolicyRegistry(),
        stages: [MigrationStage] = [], ignoring ignoredProperties: Set<String> = [],
        allowingDrops allowedDrops: Set<String> = []
    ) throws {
        // Read as the upgrader reads it, with the same errors.
        let modelHistory = try ModelHistory(bundleAt: bundleURL, mappingsAt: mappingsURL)
        // Every pair of versions is planned, and a plan needs the order: its problem is thrown
        // here rather than reported as every pair unreachable.
        _ = try modelHistory.order.get()
        self.init(
            modelHistory: modelHistory, policies: policies, stages: stages, ignoring: ignoredProperties,
            allowingDrops: allowedDrops)
    }

    /// The planner ``Upgrader`` uses for these mappings and stages.
    package var planner: UpgradePlanner {
        modelHistory.planner(stepsKeptApart: Set(stages.map(\.step)))
    }

    /// The same planner without merging: one step per pair of versions it passes.
    var unmergedPlanner: UpgradePlanner {
        var planner = planner
        planner.mergesInferredSteps = false
        return planner
    }

    /// An upgrader to `target` made from the matrix's one ``modelHistory``, with the options an
    /// app's upgrader has by default: the matrix tests what users run.
    ///
    /// Its verification stays at `.quick`, an app's default: every store the matrix upgrades is
    /// checked afterwards by ``checkResult(_:target:layout:pair:path:checked:)`` (pages, keys,
    /// derived values, contents), so the matrix tests what users run.
    func upgrader(to target: String) -> Upgrader {
        Upgrader(
            history: modelHistory, policies: policies, stages: stages,
            options: UpgradeOptions(targetVersion: target, lockTimeout: .seconds(30)))
    }
}

import GRDB
import Logging
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// What an upgrade of one store will do, decided before anything runs: which version wrote
/// the store, the plan to the target, and what each step drops.
///
/// ``Upgrader/upgradeIfNeeded(storeAt:)``, ``Upgrader/plan(forStoreAt:)`` and `stepwise plan`
/// all decide it through the same phase, so a plan shown is the plan that runs.
public struct PreparedUpgrade: Sendable {
    /// How the store was identified.
    public var identification: StoreIdentification
    /// The path from the store's version to the target; no steps when it is there already.
    public var plan: UpgradePlan
    /// What each step of ``plan`` drops, counted in the store where it can be (nil counts are
    /// known only once the step has run); empty when the drops weren't counted.
    public var drops: [[DroppedData]]
    /// The policies the plan's mapping models name that the upgrader has no registration for,
    /// in step order. Always empty when planning refuses them
    /// (``Upgrader/plan(forStoreAt:)``); listed by
    /// ``Upgrader/plan(forStoreAt:refusingUnregisteredPolicies:)`` when it doesn't.
    public var missingPolicies: [MissingPolicy] = []
    /// The path an upgrade of the store would take (``UpgradePath``), told before any step runs;
    /// nil when it is up to date, and for a plan an upgrade makes for itself. The step's own
    /// schema has the last word: a step found to rewrite rows when it runs takes the copy path.
    public var path: UpgradePath?
    /// Why ``path`` is the copy path; nil otherwise.
    public var copyReason: String?
    /// Why each step of ``plan`` rewrites rows ("has a stage (app code)", "rewrites rows"), in
    /// step order; nil for a step that changes only the schema, which alters the store in place
    /// on ``UpgradePath/oneTransaction``, and on the copy path the previous step's output (a
    /// chain that rebuilds, then only alters, copies the store once). Empty when ``path`` is nil.
    public var rowRewrites: [String?] = []

    /// A policy named by an entity mapping on the plan, with no registration.
    public struct MissingPolicy: Sendable, Hashable, Codable {
        /// The step whose mapping names it: its index in ``UpgradePlan/steps`` (0 for the first).
        public var stepIndex: Int
        /// The policy's name, as the mapping gives it.
        public var policy: String
        /// The mapping model's name.
        public var mappingModel: String
        /// The entity mapping that names the policy.
        public var entityMapping: String
        /// The file the mapping model was read from; nil for a mapping written in code.
        public var file: String?

        /// The error ``Upgrader/plan(forStoreAt:)`` and an upgrade throw for it.
        public var error: UpgradeError {
            UpgradeError(.unregisteredPolicy(name: policy, mappingModel: mappingModel, entityMapping: entityMapping))
        }
    }

    /// The version that wrote the store.
    public var version: String { plan.from }
    /// Whether the store is at the target already.
    public var isUpToDate: Bool { plan.steps.isEmpty }
}

/// The phase that identifies a store and plans its upgrade, refusing what must not run:
/// a store the registry can't place, a store newer than the target, a path that doesn't
/// exist, and a plan naming a policy that isn't registered. It only reads, through the
/// connection it is given: the upgrade passes the immutable original or its checkpointed
/// copy, and ``Upgrader/plan(forStoreAt:)`` a private snapshot.
struct UpgradePreparation {
    var history: ModelHistory
    /// The upgrader's planner: its stages' steps kept apart.
    var planner: UpgradePlanner
    var policies: PolicyRegistry
    var target: String
    /// The store's path, for errors.
    var storePath: String
    var logger: Logger
    /// Whether entities no version of the history has are dropped (``UpgradeOptions/dropsUnknownEntities``)
    /// rather than refused.
    var dropsUnknownEntities = false

    /// Identifies the store and plans its upgrade.
    ///
    /// - parameters:
    ///   - db: The store, or a copy of it, read only.
    ///   - countingDrops: Whether to count what each step drops in the store.
    ///   - refusingUnregisteredPolicies: Whether a policy the plan needs and the upgrader lacks
    ///     is thrown (an upgrade, the default) or listed in ``PreparedUpgrade/missingPolicies``
    ///     (`stepwise plan`, which shows the whole path first).
    func prepare(_ db: Database, countingDrops: Bool, refusingUnregisteredPolicies: Bool = true) throws
        -> PreparedUpgrade
    {
        let (identification, version) = try identify(db)
        let modelCache = identification.matchedBy == .modelCache ? version : nil
        if let modelCache, !dropsUnknownEntities { try refuseUnknownEntities(of: modelCache) }
        let plan = try planner.startingFrom(modelCache: modelCache).plan(from: version.name, to: target)
        let missing = Self.missingPolicies(of: plan, in: policies)
        if refusingUnregisteredPolicies, let first = missing.first { throw first.error }
        try checkLayouts(of: plan)
        let drops = countingDrops ? try countDrops(of: plan, in: db) : []
        logger.debug("planned", metadata: ["from": "\(plan.from)", "to": "\(plan.to)", "steps": "\(plan.steps.count)"])
        var prepared = PreparedUpgrade(identification: identification, plan: plan, drops: drops)
        prepared.missingPolicies = missing
        return prepared
    }

    /// The store's version, or the registry's error (newer than known, no match,
    /// inconsistent), or ``UpgradeError/Kind/laterThanTarget(storeVersion:target:)``, or the
    /// order's problem (``ModelHistory/order``) for a store not at the target.
    private func identify(_ db: Database) throws -> (StoreIdentification, ObjectModel) {
        let identification: StoreIdentification
        do {
            identification = try history.registry(logger: logger).identify(db, path: storePath)
        } catch let error as UpgradeError {
            // A store no version matches may hold another model's entities: name them, and
            // the missing model, rather than the closest version.
            // The registry calls a store with the latest version's tables plus others "newer";
            // those others may as well be another model's: unless the metadata names a later
            // version of this model, name the entities and both explanations.
            var namesALaterVersion = false
            if case .newerThanKnownVersions(let name?, _, _) = error.kind {
                namesALaterVersion = history.versions.namesALaterVersion(name)
            }
            switch error.kind {
            case .noMatchingVersion,
                .newerThanKnownVersions where !namesALaterVersion:
                let metadata = try StoreMetadata.read(from: db, path: storePath)
                let known = history.knownEntityNames
                let unknown = metadata.versionHashes.keys.filter { !known.contains($0) }.sorted()
                // Without the store's model cache there is nothing to drop them by: the registry's
                // own error says why the cache wasn't used. A store none of whose entities the
                // history knows is another app's: the registry's closest version says more.
                if !unknown.isEmpty, unknown.count < metadata.versionHashes.count, !dropsUnknownEntities {
                    throw UpgradeError(
                        path: storePath,
                        kind: .unknownEntities(entities: unknown, tables: unknown.map(StoreLayout.tableName(ofRoot:))))
                }
                throw error
            default:
                throw error
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: storePath, wrapping: error)
        }
        guard let version = identification.version else {
            throw UpgradeError(path: storePath, kind: .inconsistent(problem: identification.problem ?? ""))
        }
        if version.name != target, case .failure(let problem) = history.order {
            // Identifying the store needed no order; a path from its version to the target
            // does, and a guess could run steps backwards. Nothing has been written.
            throw problem
        }
        let versions = history.versions
        if let index = versions.index(of: version.name), let targetIndex = versions.index(of: target),
            index > targetIndex, !history.mappings.keys.contains(where: { $0.source == version.name })
        {
            // A later version than the target with no mapping written to go back: the store was
            // written by a newer build. Never "migrate" it down by inference.
            throw UpgradeError(.laterThanTarget(storeVersion: version.name, target: target))
        }
        return (identification, version)
    }

    /// Refuses a store whose own model (its cache, when no version matched it) holds entities
    /// that no version of the history has, naming them and their tables.
    ///
    /// Core Data, given the merged model of all the app's models, keeps every entity of such a
    /// store; given one of them alone, its migration would drop the others' tables without a
    /// word. A store matched by a version of the history has exactly that version's entities,
    /// so only a store matched by its cache can hold unknown ones. An entity some version had
    /// (by name or renaming identifier) is a removal the history made, and is dropped and named
    /// as any removal.
    private func refuseUnknownEntities(of model: ObjectModel) throws {
        let known = history.knownEntityNames
        let unknown = model.entities.filter { !known.contains($0.name) }
        guard !unknown.isEmpty else { return }
        let layout = try? StoreLayout(model: model)
        let tables = Set(unknown.compactMap { layout?.entity(named: $0.name)?.tableName }).sorted()
        throw UpgradeError(
            path: storePath, kind: .unknownEntities(entities: unknown.map(\.name).sorted(), tables: tables))
    }

    /// Refuses a plan that names a policy `policies` has no registration for, before step 1
    /// runs: the step that needs it may come after minutes of earlier steps. It is a planning
    /// error, not a step's: no step ran.
    static func checkPolicies(of plan: UpgradePlan, in policies: PolicyRegistry) throws {
        if let first = missingPolicies(of: plan, in: policies).first { throw first.error }
    }

    /// Each entity mapping of the plan that names a policy `policies` lacks, in step order.
    static func missingPolicies(of plan: UpgradePlan, in policies: PolicyRegistry) -> [PreparedUpgrade.MissingPolicy] {
        plan.steps.enumerated().flatMap { index, step in
            policies.unregisteredPolicies(in: step.mappingModels).map { name, model, mapping in
                PreparedUpgrade.MissingPolicy(
                    stepIndex: index, policy: name, mappingModel: model.name, entityMapping: mapping.name,
                    file: model.origin?.path)
            }
        }
    }

    /// Refuses a plan through a version Core Data's layout can't hold (an entity named like one
    /// of Core Data's tables, two names differing only by case), before anything is written: the
    /// registry lays out only the versions it compares with the store, and a step would find out
    /// only once its work folder exists.
    private func checkLayouts(of plan: UpgradePlan) throws {
        guard !plan.steps.isEmpty else { return }
        for step in plan.steps {
            try history.layouts.checkLayout(of: step.destination)
        }
    }

    /// ``UpgradePlan/drops(countedIn:)``, with a failure reported against the store.
    private func countDrops(of plan: UpgradePlan, in db: Database) throws -> [[DroppedData]] {
        do {
            return try plan.drops(countedIn: db)
        } catch {
            throw StoreError(path: storePath, wrapping: error)
        }
    }
}

import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore

extension UpgradeMatrix {
    /// Seeds a store at `pair.from`, upgrades it to `pair.to` and checks the result; see
    /// ``UpgradeMatrix`` for the checks. Everything happens in a temporary directory, deleted
    /// on return.
    ///
    /// - parameters:
    ///   - pair: One of ``cases``.
    ///   - rows: Rows per concrete entity of the seeded store (``defaultRows`` by default).
    ///   - seed: The seeded store's seed (``defaultSeed`` by default): the same seed gives the
    ///     same store, so a failure reproduces.
    /// - returns: What was checked.
    /// - throws: ``UpgradeMatrixFailure`` naming the pair, the check, and where it can the
    ///   entity, the seeded store's row and the property.
    @discardableResult
    public func check(
        _ pair: Pair, rows: RowCounts = RowCounts(default: UpgradeMatrix.defaultRows),
        seed: UInt64 = UpgradeMatrix.defaultSeed
    ) throws -> PairResult {
        try check(pair, seeding: SeedingConstraints(rows: rows), seed: seed)
    }

    /// Seeds a store at `pair.from` holding what `seeding` asks for, upgrades it to `pair.to`
    /// and checks the result, as ``check(_:rows:seed:)`` does.
    ///
    /// - parameters:
    ///   - pair: One of ``cases``.
    ///   - seeding: Rows per entity and what the data always holds (``SeedingConstraints``).
    ///     Only the constraints whose entity and property `pair.from` has apply
    ///     (``SeedingConstraints/restricted(to:)``); ``validate(_:)`` checks that each applies
    ///     somewhere.
    ///   - seed: The seeded store's seed (``defaultSeed`` by default).
    /// - returns: What was checked.
    /// - throws: ``UpgradeMatrixFailure``, as ``check(_:rows:seed:)``.
    @discardableResult
    public func check(_ pair: Pair, seeding: SeedingConstraints, seed: UInt64 = UpgradeMatrix.defaultSeed) throws
        -> PairResult
    {
        let started = Date()
        // A pair may start from a version as shipped ("Recipes 2 (as shipped)").
        guard let source = planningHistory.version(named: pair.from), let target = history.version(named: pair.to)
        else {
            throw UpgradeMatrixFailure(
                pair: pair, check: .plan,
                detail: "the history has no such version (\(history.names.joined(separator: ", ")))")
        }
        let plan: UpgradePlan
        let unmerged: UpgradePlan
        do {
            plan = try planner.plan(from: pair.from, to: pair.to)
            unmerged = try unmergedPlanner.plan(from: pair.from, to: pair.to)
        } catch {
            throw UpgradeMatrixFailure(pair: pair, check: .plan, detail: "\(error)")
        }
        let directory = try TemporaryDirectory(prefix: "stepwise-matrix")
        let seededURL = directory.path("Seeded.sqlite")
        let seeded: SeededStore
        do {
            seeded = try SeededStore.create(
                at: seededURL, model: source, seed: seed, seeding: seeding.restricted(to: source))
        } catch {
            throw UpgradeMatrixFailure(pair: pair, check: .seeding, detail: "\(error)")
        }

        let direct = try copy(seededURL, into: directory.path("direct"))
        let reports = try upgrade(direct, stoppingAt: [pair.to], pair: pair)
        try checkResult(direct, target: target, pair: pair, path: nil)
        let copied = CopiedEntity.entities(through: plan, history: planningHistory, policies: policies)
        let values = try compare(
            copied, seeded: seededURL, upgraded: direct, source: source, target: target, pair: pair)
        if let report = reports.first {
            try checkNoEntityEmptied(
                seeded: seededURL, upgraded: direct, source: source, target: target, report: report, pair: pair)
        }
        let unchecked = try uncovered(
            copied: copied, upgraded: direct, target: target,
            writes: PolicyWrites(steps: plan.steps, policies: policies))

        var paths = 1
        if unmerged.steps.count > 1 {
            let stops = unmerged.steps.map(\.to)
            let stepwise = try copy(seededURL, into: directory.path("stepwise"))
            try upgrade(stepwise, stoppingAt: stops, pair: pair)
            let path = "stopping at \(stops.dropLast().joined(separator: ", "))"
            try checkResult(stepwise, target: target, pair: pair, path: path)
            try compareContents(
                direct, stepwise, path: path, copied: copied, seeded: seeded, target: target, pair: pair)
            paths = 2
        }
        return PairResult(
            pair: pair, steps: plan.steps.map { "\($0.from) → \($0.to) (\($0.kind.rawValue))" },
            seededRows: seeded.totalRows, copiedEntities: copied.map(\.source), valuesCompared: values,
            pathsCompared: paths, seconds: Date().timeIntervalSince(started), unchecked: unchecked)
    }

    // MARK: - Upgrades

    /// Copies the seeded store (and a `-wal`, should there be one) into a new folder.
    private func copy(_ store: URL, into folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent("Store.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: store.path + suffix), to: URL(fileURLWithPath: destination.path + suffix))
        }
        return destination
    }

    /// Upgrades the store to each version of `stops` in turn, one ``Upgrader`` call each;
    /// returns their reports.
    @discardableResult
    private func upgrade(_ store: URL, stoppingAt stops: [String], pair: Pair) throws -> [UpgradeReport] {
        var reports: [UpgradeReport] = []
        for stop in stops {
            do {
                reports.append(try upgrader(to: stop).upgradeIfNeededSynchronously(storeAt: store))
            } catch {
                let mappingError = (error as? UpgradeError)?.mappingError
                // A row named by step 1 is a row of the seeded store; a later step's isn't.
                var firstStep = false
                if case .stepFailed(let index, _, _, _, _)? = (error as? UpgradeError)?.kind {
                    firstStep = index == 1 && stop == stops.first
                }
                let via = stops.count > 1 ? " (upgrading to '\(stop)', stopping at each version)" : ""
                throw UpgradeMatrixFailure(
                    pair: pair, check: .upgrade, entity: mappingError?.entity,
                    sourcePrimaryKey: firstStep ? mappingError?.sourcePrimaryKey : nil,
                    property: mappingError?.property, detail: "\(error)\(via)")
            }
        }
        return reports
    }

    /// The metadata and consistency checks of an upgraded store.
    private func checkResult(_ store: URL, target: ObjectModel, pair: Pair, path: String?) throws {
        let via = path.map { " (\($0))" } ?? ""
        let identification: StoreIdentification
        do {
            identification = try VersionRegistry(history: history).identify(storeAt: store)
        } catch {
            throw UpgradeMatrixFailure(pair: pair, check: .metadata, detail: "\(error)\(via)")
        }
        // Versions with equal hashes are interchangeable for stores (HistoryCheck's
        // duplicateVersion warning): the result may be taken for the other one.
        let sameHashes = identification.version.map { $0.entityVersionHashes == target.entityVersionHashes } ?? false
        guard identification.matchedBy == .hash, identification.version?.name == target.name || sameHashes else {
            let found = identification.version.map {
                "'\($0.name)' (matched by \(identification.matchedBy?.rawValue ?? "?"))"
            }
            throw UpgradeMatrixFailure(
                pair: pair, check: .metadata,
                detail:
                    "the upgraded store is identified as \(found ?? identification.problem ?? "no version"), not '\(target.name)'\(via)"
            )
        }
        let problems = try StoreConsistency.problems(inStoreAt: store, model: target)
        if let problem = problems.first {
            throw UpgradeMatrixFailure(
                pair: pair, check: .consistency, entity: problem.entity, property: problem.property,
                detail: "\(problem.reason)\(problem.primaryKey.map { " (upgraded store's Z_PK \($0))" } ?? "")\(via)")
        }
    }
}

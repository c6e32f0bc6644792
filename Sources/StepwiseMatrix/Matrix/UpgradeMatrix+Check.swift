import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore

extension UpgradeMatrix {
    /// Seeds a store at `pair.from`, upgrades it to `pair.to` and checks the result; see
    /// ``UpgradeMatrix`` for the checks. Everything happens in a temporary directory, deleted
    /// on return. To check many pairs, a ``Session`` shares the work they have in common.
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
        try session(seeding: seeding, seed: seed).check(pair)
    }

    // MARK: - Upgrades

    /// Copies the seeded store (and a `-wal`, should there be one) into a new folder.
    func copy(_ store: URL, into folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent("Store.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: store.path + suffix), to: URL(fileURLWithPath: destination.path + suffix))
        }
        return destination
    }

    /// The seeded store's own copy in a new folder, where an upgrade can start from it: a clone
    /// where the file system can make one (`FileSystem.copyFile`), else a copy. Not a second
    /// name (a hard link): an upgrade whose steps change only the schema alters the store itself
    /// in one transaction, and would write the seeded bytes that later pairs start from. Copies
    /// a `-wal` with frames too. ``SeededFile`` still checks afterwards that the seeded file
    /// wasn't written.
    func workingCopy(of store: URL, into folder: URL) throws -> URL {
        let wal = (try? FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? NSNumber) ?? nil
        guard wal.map({ $0.int64Value == 0 }) ?? true else { return try copy(store, into: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent("Store.sqlite")
        do {
            // Scratch: a matrix's store needs no sync (the matrix deletes it, and a crash with it).
            try FileSystem().copyFile(store, to: destination, site: "matrix.copy", syncing: nil)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            return try copy(store, into: folder)
        }
        return destination
    }

    /// Upgrades the store to each version of `stops` after the first `done` in turn, one
    /// ``Upgrader`` call each (`counting` runs before each); returns their reports. The store
    /// is at `stops[done - 1]` already (the seeded one when `done` is 0).
    @discardableResult
    func upgrade(
        _ store: URL, stoppingAt stops: [String], from done: Int = 0, pair: Pair, counting: () -> Void = {}
    ) throws -> [UpgradeReport] {
        var reports: [UpgradeReport] = []
        for (index, stop) in stops.enumerated().dropFirst(done) {
            counting()
            do {
                reports.append(try upgrader(to: stop).upgradeIfNeededSynchronously(storeAt: store))
            } catch {
                let mappingError = (error as? UpgradeError)?.mappingError
                // A row named by step 1 is a row of the seeded store; a later step's isn't.
                var firstStep = false
                if case .stepFailed(let step, _, _, _, _)? = (error as? UpgradeError)?.kind {
                    firstStep = step == 1 && index == 0
                }
                let via = stops.count > 1 ? " (upgrading to '\(stop)', stopping at each version)" : ""
                // The upgrade's own message says its work is kept for the next upgrade to
                // resume: true of an app's store, not of the matrix's, whose folders go with the
                // pair. Say so instead.
                var detail = "\(error)"
                if var upgradeError = error as? UpgradeError, upgradeError.leftoverWorkDirectory != nil {
                    upgradeError.leftoverWorkDirectory = nil
                    detail =
                        "\(upgradeError) (the matrix deletes the pair's stores and work folders; rerun the pair to look at them)"
                }
                throw UpgradeMatrixFailure(
                    pair: pair, check: .upgrade, entity: mappingError?.entity,
                    sourcePrimaryKey: firstStep ? mappingError?.sourcePrimaryKey : nil,
                    property: mappingError?.property, detail: detail + via)
            }
        }
        return reports
    }

    /// The metadata and consistency checks of an upgraded store; `layout` is the target's.
    ///
    /// - parameter checked: A store of the same version that passed these checks, to which
    ///   this one is compared next (``compareContents(_:_:path:copied:seeded:target:layout:pair:identicalRows:)``).
    ///   When SQLite finds their rows identical, keys and join rows included, this store's keys
    ///   can't fail where the checked store's passed, and aren't checked again; its pages are.
    /// - returns: Whether SQLite found the rows identical to `checked`'s (false for "can't
    ///   tell", and when `checked` is nil).
    @discardableResult
    func checkResult(
        _ store: URL, target: ObjectModel, layout: StoreLayout, pair: Pair, path: String?, checked: URL? = nil
    ) throws -> Bool {
        let via = path.map { " (\($0))" } ?? ""
        let identification: StoreIdentification
        do {
            // The store is this check's own file: read in place, read-only, rather than through
            // `identify(storeAt:)`, whose private snapshot copies the whole store first.
            let queue = try ReadOnlyStore.openQueue(at: store)
            defer { try? queue.close() }
            identification = try queue.read { db in
                try modelHistory.registry().identify(db, path: store.path)
            }
        } catch {
            throw UpgradeMatrixFailure(pair: pair, check: .metadata, detail: "\(error)\(via)")
        }
        // Versions with equal hashes are interchangeable for stores (HistoryCheck's
        // duplicateVersion warning): the result may be taken for the other one.
        let isTarget =
            identification.version.map {
                $0.name == target.name || $0.entityVersionHashes == target.entityVersionHashes
            } ?? false
        guard identification.matchedBy == .hash, isTarget else {
            let found = identification.version.map {
                "'\($0.name)' (matched by \(identification.matchedBy?.rawValue ?? "?"))"
            }
            throw UpgradeMatrixFailure(
                pair: pair, check: .metadata,
                detail:
                    "the upgraded store is identified as \(found ?? identification.problem ?? "no version"), not '\(target.name)'\(via)"
            )
        }
        var identical = false
        // `quick_check`, not `integrity_check`: what the second adds, each index's entries
        // against its table's rows (and UNIQUE, which indexes enforce), only SQLite's own
        // statements write, and SQLite keeps them matching on every write; checking it again
        // re-checks SQLite, on every store, at a sixth of the matrix's CPU. Stepwise's one
        // hand edit of the schema, an index renamed in place, checks its tables with
        // `integrity_check` in the step itself (`InPlaceIndexes`), so real upgrades get that
        // check too. Pages and records, what a torn or lost write would break, are still read.
        let problems = try StoreConsistency.problems(inStoreAt: store, layout: layout, fullPageCheck: false) {
            guard let checked else { return false }
            identical = try IdenticalRows.storesAreIdentical(
                checked, store, layout: layout, ignoring: pathComparisonIgnores(layout))
            return identical
        }
        if let problem = problems.first {
            throw UpgradeMatrixFailure(
                pair: pair, check: .consistency, entity: problem.entity, property: problem.property,
                detail: "\(problem.reason)\(problem.primaryKey.map { " (upgraded store's Z_PK \($0))" } ?? "")\(via)")
        }
        return identical
    }
}

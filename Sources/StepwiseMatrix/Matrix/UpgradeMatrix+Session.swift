import Foundation
import Stepwise
import StepwiseModel
import StepwiseStore

extension UpgradeMatrix {
    /// Checks pairs of one matrix with one seeding and seed, sharing the work pairs have in
    /// common: what `stepwise matrix` uses, and what a test checking many pairs should use.
    ///
    /// ```swift
    /// let session = try matrix.session(rows: 1_000)
    /// for pair in matrix.cases {
    ///     try session.check(pair)
    /// }
    /// ```
    ///
    /// Each check is the one ``UpgradeMatrix/check(_:seeding:seed:)`` makes, on the same
    /// bytes; what is shared is only work whose result doesn't depend on the pair:
    ///
    /// - **Seeded stores.** Each version's store is seeded once (the same seed gives the same
    ///   bytes), and every pair that starts from it upgrades a second name of the file (a hard
    ///   link) rather than a copy: ``Upgrader`` never writes the store it upgrades before its
    ///   swap, and the swap only renames. The session checks after each upgrade that the
    ///   seeded file wasn't written, and fails the pair if it was.
    /// - **The path stopping at each version.** Its result for `A → D` is the store upgraded
    ///   from `A`'s seeded store to `B`, then `C`, then `D`, one ``Upgrader`` call each; the
    ///   result for `A → C` is the same store one call earlier. The session keeps the last such
    ///   store of each first version and carries it one stop further for the next pair that
    ///   extends its stops, instead of starting again from the seeded store. A pair with one
    ///   step keeps its upgraded store as that path's first stop.
    /// - **Plans and layouts**, by pair and by version; and the inferred mapping of each pair
    ///   of versions, which every planner and ``Upgrader`` of the matrix shares through its
    ///   one ``/Stepwise/ModelHistory``.
    ///
    /// Checked in ``UpgradeMatrix/cases`` order (each first version's pairs by later version),
    /// a pair costs one upgrade all at once and one more step of the path; checked in another
    /// order, the results are the same and less is shared.
    ///
    /// The stores live in a temporary directory, removed when the session is released: a
    /// session kept in a `static let` lives until the process ends, and its directory with it.
    /// Disk use is about two stores per version; memory doesn't grow with the pairs checked
    /// or the rows seeded.
    ///
    /// **Concurrency.** What a pair shares with others it shares with the pairs of the same
    /// first version only (its seeded store and its path), so pairs of different first
    /// versions are independent: checks of the same first version run one at a time, whatever
    /// thread calls them, and others may run at once. ``check(_:concurrency:onResult:)`` checks
    /// many pairs that way, one first version per thread.
    ///
    /// ## Topics
    /// - ``check(_:)``
    /// - ``check(_:concurrency:onResult:)``
    /// - ``seededVersions``
    /// - ``upgradeCalls``
    package final class Session: @unchecked Sendable {
        /// The matrix whose pairs this session checks.
        package let matrix: UpgradeMatrix
        /// Rows per entity and what the data holds, for every seeded store.
        package let seeding: SeedingConstraints
        /// The seed of every seeded store.
        package let seed: UInt64

        /// Guards the lanes, caches and counters below; never held while a pair is checked.
        private let lock = NSLock()
        private let directory: TemporaryDirectory
        private var lanes: [String: Lane] = [:]
        private var planCache: [Pair: (plan: UpgradePlan, unmerged: UpgradePlan)] = [:]
        private var layoutCache: [String: StoreLayout] = [:]
        private var seededNames: [String] = []
        private var upgrades = 0

        /// What the pairs of one first version share: its seeded store and its path stopping
        /// at each version. `lock` runs their checks one at a time; the other properties are
        /// only read and written with it held.
        private final class Lane: @unchecked Sendable {
            let lock = NSLock()
            /// The folder name's number: the version's place in the history (then the
            /// versions as shipped), so that lanes never share a folder.
            let number: Int
            var seeded: SeededStore?
            /// The seeded store's main file when it was seeded.
            var seededFile: SeededFile?
            var path: SteppedPath?

            init(number: Int) {
                self.number = number
            }
        }

        /// A seeded store's main file as `stat` describes it: what a write would change.
        private struct SeededFile: Equatable {
            var size: Int64
            var modified: Date?

            init(_ url: URL) throws {
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
                modified = attributes[.modificationDate] as? Date
            }
        }

        /// A store upgraded from a version's seeded store by one ``Upgrader`` call per stop.
        private struct SteppedPath {
            var stops: [String]
            var store: URL
        }

        init(matrix: UpgradeMatrix, seeding: SeedingConstraints, seed: UInt64) throws {
            self.matrix = matrix
            self.seeding = seeding
            self.seed = seed
            // What a matrix killed mid-run left behind: it couldn't remove its own folders.
            AbandonedWorkFolders.removeAbandoned()
            directory = try TemporaryDirectory(prefix: "stepwise-matrix")
        }

        /// The versions whose stores this session seeded, in the order it seeded them: each
        /// once, however many pairs start from it.
        package var seededVersions: [String] {
            lock.withLock { seededNames }
        }

        /// The ``Upgrader`` calls this session made, over every pair it checked.
        package var upgradeCalls: Int {
            lock.withLock { upgrades }
        }

        /// Checks one pair as ``UpgradeMatrix/check(_:seeding:seed:)`` does, with this
        /// session's seeding and seed, reusing the stores earlier checks left.
        ///
        /// - parameter pair: One of the matrix's ``UpgradeMatrix/cases``.
        /// - returns: What was checked; its ``PairResult/seconds`` count only the work this
        ///   call did (seeding `pair.from`'s store, if no pair seeded it before).
        /// - throws: ``UpgradeMatrixFailure``, as ``UpgradeMatrix/check(_:rows:seed:)``.
        @discardableResult
        package func check(_ pair: Pair) throws -> PairResult {
            let lane = self.lane(of: pair.from)
            return try lane.lock.withLock { try check(pair, in: lane) }
        }

        /// The lane of the pairs starting from `version`, made the first time.
        private func lane(of version: String) -> Lane {
            lock.withLock {
                if let lane = lanes[version] { return lane }
                let names = matrix.history.names + matrix.asShipped.map(\.name)
                let lane = Lane(number: names.firstIndex(of: version) ?? names.count + lanes.count)
                lanes[version] = lane
                return lane
            }
        }

        private func check(_ pair: Pair, in lane: Lane) throws -> PairResult {
            let started = Date()
            // A pair may start from a version as shipped ("Recipes 2 (as shipped)").
            guard let source = matrix.modelHistory.version(named: pair.from),
                let target = matrix.history.version(named: pair.to)
            else {
                throw UpgradeMatrixFailure(
                    pair: pair, check: .plan,
                    detail: "the history has no such version (\(matrix.history.names.joined(separator: ", ")))")
            }
            let (plan, unmerged) = try plans(of: pair)
            let seeded = try seededStore(of: source, in: lane, pair: pair)
            let layouts = try (source: layout(of: source), target: layout(of: target))

            // The pair's own stores, removed on return (not before: ARC may release a value
            // after its last use).
            let work = try TemporaryDirectory(prefix: "stepwise-matrix-pair")
            defer { withExtendedLifetime(work) {} }
            let direct = try matrix.workingCopy(of: seeded.url, into: work.path("direct"))
            let reports = try upgrade(direct, stoppingAt: [pair.to], pair: pair)
            try checkUnwritten(seeded, in: lane, pair: pair)
            try matrix.checkResult(direct, target: target, layout: layouts.target, pair: pair, path: nil)
            let copied = CopiedEntity.entities(through: plan, policies: matrix.policies)
            let values = try matrix.compare(
                copied, seeded: seeded.url, upgraded: direct, layouts: layouts, pair: pair)
            if let report = reports.first {
                try matrix.checkNoEntityEmptied(
                    seeded: seeded.url, upgraded: direct, source: source, target: target, layouts: layouts,
                    report: report, pair: pair)
            }
            let unchecked = try matrix.uncovered(
                copied: copied, upgraded: direct, target: target, layout: layouts.target,
                writes: PolicyWrites(steps: plan.steps, policies: matrix.policies))

            var pathsCompared = 1
            let stops = unmerged.steps.map(\.to)
            if stops.count > 1 {
                let stepwise = try steppedStore(in: lane, stoppingAt: stops, seeded: seeded.url, pair: pair)
                try checkUnwritten(seeded, in: lane, pair: pair)
                let path = "stopping at \(stops.dropLast().joined(separator: ", "))"
                // Checked after the direct store, whose rows it most often repeats exactly.
                let identical = try matrix.checkResult(
                    stepwise, target: target, layout: layouts.target, pair: pair, path: path, checked: direct)
                try matrix.compareContents(
                    direct, stepwise, path: path, copied: copied, seeded: seeded, target: target,
                    layout: layouts.target, pair: pair, identicalRows: identical)
                pathsCompared = 2
            } else if lane.path == nil {
                // One call to `pair.to` is also the first stop of the path stopping at each
                // version: a later pair whose path starts there carries this store on.
                // The pair is done with its store: it moves rather than being copied.
                let folder = pathFolder(of: lane)
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let kept = folder.appendingPathComponent(direct.lastPathComponent)
                try FileManager.default.moveItem(at: direct, to: kept)
                lane.path = SteppedPath(stops: [pair.to], store: kept)
            }
            return PairResult(
                pair: pair, steps: plan.steps.map { "\($0.from) → \($0.to) (\($0.kind.rawValue))" },
                seededRows: seeded.totalRows, copiedEntities: copied.map(\.source), valuesCompared: values,
                pathsCompared: pathsCompared, seconds: Date().timeIntervalSince(started), unchecked: unchecked)
        }

        // MARK: - Shared work

        /// The plan all at once and the plan stopping at each version, made once per pair.
        private func plans(of pair: Pair) throws -> (plan: UpgradePlan, unmerged: UpgradePlan) {
            if let known = lock.withLock({ planCache[pair] }) { return known }
            let made: (plan: UpgradePlan, unmerged: UpgradePlan)
            do {
                let plan = try matrix.casePlans[pair] ?? matrix.planner.plan(from: pair.from, to: pair.to)
                made = (plan, try matrix.unmergedPlanner.plan(from: pair.from, to: pair.to))
            } catch {
                throw UpgradeMatrixFailure(pair: pair, check: .plan, detail: "\(error)")
            }
            lock.withLock { planCache[pair] = made }
            return made
        }

        /// The layout of a version of the history (or a version as shipped), made once.
        private func layout(of version: ObjectModel) throws -> StoreLayout {
            if let known = lock.withLock({ layoutCache[version.name] }) { return known }
            let layout = try StoreLayout(model: version)
            lock.withLock { layoutCache[version.name] = layout }
            return layout
        }

        /// The version's seeded store, seeded the first time a pair starts from it. Pairs
        /// copy it before they write; it is never opened for writing again.
        private func seededStore(of version: ObjectModel, in lane: Lane, pair: Pair) throws -> SeededStore {
            if let store = lane.seeded { return store }
            let folder = directory.path("seeded-\(lane.number)")
            do {
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let store = try SeededStore.create(
                    at: folder.appendingPathComponent("Seeded.sqlite"), model: version, seed: seed,
                    seeding: seeding.restricted(to: version))
                // Kept only once its file is recorded: a pair must never start from a store
                // `checkUnwritten` can't check.
                let file = try SeededFile(store.url)
                lane.seeded = store
                lane.seededFile = file
                lock.withLock { seededNames.append(version.name) }
                return store
            } catch {
                // A failed generation leaves a partial store behind; the next pair tries afresh.
                try? FileManager.default.removeItem(at: folder)
                throw UpgradeMatrixFailure(pair: pair, check: .seeding, detail: "\(error)")
            }
        }

        /// Fails the pair, and drops the seeded store so the next pair seeds it afresh, when an
        /// upgrade that started from a second name of the store (``UpgradeMatrix/workingCopy(of:into:)``)
        /// wrote to it: ``Upgrader`` promises that nothing touches the original before its
        /// swap, and later pairs must start from the seeded bytes.
        private func checkUnwritten(_ seeded: SeededStore, in lane: Lane, pair: Pair) throws {
            guard let recorded = lane.seededFile, try SeededFile(seeded.url) != recorded else { return }
            lane.seeded = nil
            lane.seededFile = nil
            lane.path = nil
            throw UpgradeMatrixFailure(
                pair: pair, check: .upgrade,
                detail:
                    "the upgrade wrote to the store it upgraded before its swap: the seeded store's size or modification time changed"
            )
        }

        /// The lane's seeded store upgraded by one call per stop: the kept path carried on when
        /// `stops` extends its stops, else a fresh link to the seeded store. The result is kept
        /// for the next pair.
        private func steppedStore(in lane: Lane, stoppingAt stops: [String], seeded: URL, pair: Pair) throws -> URL {
            let kept = lane.path
            lane.path = nil
            var done = 0
            let store: URL
            if let kept, kept.stops.count <= stops.count, stops.starts(with: kept.stops) {
                store = kept.store
                done = kept.stops.count
            } else {
                let folder = pathFolder(of: lane)
                try? FileManager.default.removeItem(at: folder)
                store = try matrix.workingCopy(of: seeded, into: folder)
            }
            do {
                try upgrade(store, stoppingAt: stops, from: done, pair: pair)
            } catch {
                // An upgrade that failed may leave its work directory beside the store.
                try? FileManager.default.removeItem(at: pathFolder(of: lane))
                throw error
            }
            lane.path = SteppedPath(stops: stops, store: store)
            return store
        }

        private func pathFolder(of lane: Lane) -> URL {
            directory.path("path-\(lane.number)")
        }

        /// ``UpgradeMatrix/upgrade(_:stoppingAt:from:pair:)``, counted.
        @discardableResult
        private func upgrade(_ store: URL, stoppingAt stops: [String], from done: Int = 0, pair: Pair) throws
            -> [UpgradeReport]
        {
            try matrix.upgrade(store, stoppingAt: stops, from: done, pair: pair) { lock.withLock { upgrades += 1 } }
        }
    }

    /// A session checking pairs of this matrix with one seeding and seed, sharing seeded
    /// stores and upgrades between them (``Session``).
    ///
    /// - parameters:
    ///   - seeding: Rows per entity and what the data always holds, as
    ///     ``check(_:seeding:seed:)`` takes them.
    ///   - seed: The seeded stores' seed (``defaultSeed`` by default).
    package func session(seeding: SeedingConstraints, seed: UInt64 = UpgradeMatrix.defaultSeed) throws -> Session {
        try Session(matrix: self, seeding: seeding, seed: seed)
    }

    /// A session checking pairs of this matrix with `rows` rows per entity (``Session``).
    package func session(
        rows: RowCounts = RowCounts(default: UpgradeMatrix.defaultRows), seed: UInt64 = UpgradeMatrix.defaultSeed
    ) throws -> Session {
        try Session(matrix: self, seeding: SeedingConstraints(rows: rows), seed: seed)
    }
}

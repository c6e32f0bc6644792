import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// Every file-system call an upgrade makes (its *site*), in turn, crashes or fails. After
/// each: the store path holds the old or the new store, byte-identical before the commit
/// point; the next call always ends with the store fully upgraded, keeping the checkpoints it
/// can trust.
@Suite("upgradeIfNeeded: a crash or an error at every file-system call")
struct UpgradeFaultInjectionTests {
    /// One call of one site: the `occurrence`-th time the upgrade reaches `site`.
    struct SiteCall: Hashable, CustomStringConvertible, Sendable {
        var site: String
        var occurrence: Int
        /// The kind of sync made there; nil for any other call.
        var syncKind: SyncKind? = nil
        var description: String { "\(site)#\(occurrence)" }
    }

    /// The upgrades whose calls are enumerated; together they reach every site of a
    /// successful upgrade.
    enum Scenario: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Recipes 1 → 4: two written steps (row by row), one altered in place.
        case recipes
        /// Events 1 → 2: one step of two mapping models.
        case events
        /// University 1 → 4: step 1 altered in place (it reads the store itself, which has
        /// nothing in a `-wal`, and copies it into its own folder), then two written steps.
        case university
        /// University 1 → 4 from a store with rows in its `-wal`: the run copies the store, and
        /// step 1, altered in place, takes that copy into its own folder.
        case universityFromWAL
        /// Events from a store with rows in its `-wal`, with a `willMigrate` stage (the step
        /// makes its own private copy), keeping a backup over an older one.
        case eventsFromWALWithStageAndBackup

        var description: String { rawValue }

        func makeFixture() throws -> UpgradeFixture {
            switch self {
            case .recipes: return try UpgradeFixture("Recipes")
            case .university: return try UpgradeFixture("University")
            case .universityFromWAL: return try .universityWithRowInWAL()
            case .eventsFromWALWithStageAndBackup: return try .eventsWithRowInWALAndOlderBackup()
            case .events: return try UpgradeFixture("Events")
            }
        }

        func upgrader(_ fixture: UpgradeFixture, fileSystem: FileSystem = FileSystem()) throws -> Upgrader {
            guard self == .eventsFromWALWithStageAndBackup else {
                return try fixture.upgrader(fileSystem: fileSystem)
            }
            let stage = MigrationStage(
                from: "Events", to: "Events 2",
                willMigrate: { db, _ in
                    try db.execute(sql: #"UPDATE "ZEVENT" SET "ZTIMESTAMP" = "ZTIMESTAMP""#)
                })
            return try fixture.upgrader(
                keepBackup: true, stages: [stage],
                fileSystem: fileSystem)
        }

        /// The count that proves the content arrived.
        func checkContent(_ fixture: UpgradeFixture, _ call: SiteCall) throws {
            switch self {
            case .recipes: #expect(try fixture.count("ZRECIPE") == 4, "\(call)")
            case .events: #expect(try fixture.count("ZTIMESTAMPEVENT") == EventsSeed.timeStamps.count, "\(call)")
            case .university:
                #expect(try fixture.count("ZUNIVERSITY") == UniversitySeed.universities.count, "\(call)")
            case .universityFromWAL:
                #expect(try fixture.count("ZUNIVERSITY") == UniversitySeed.universities.count + 1, "\(call)")
            case .eventsFromWALWithStageAndBackup:
                #expect(try fixture.count("ZTIMESTAMPEVENT") == EventsSeed.timeStamps.count + 1, "\(call)")
            }
        }

        /// The site calls of a successful upgrade, in order.
        func siteCalls() throws -> [SiteCall] {
            let fixture = try makeFixture()
            let recorder = UpgradeRecorder()
            _ = try upgrader(fixture, fileSystem: recorder.fileSystem()).upgradeIfNeededSynchronously(
                storeAt: fixture.store)
            var seen: [String: Int] = [:]
            return zip(recorder.sites, recorder.operations).map { site, operation in
                defer { seen[site, default: 0] += 1 }
                return SiteCall(site: site, occurrence: seen[site, default: 0], syncKind: operation.syncKind)
            }
        }
    }

    /// Every site call of every scenario, computed once so the cases below run in parallel.
    static let calls: [Scenario: [SiteCall]] = Dictionary(
        uniqueKeysWithValues: Scenario.allCases.map { ($0, (try? $0.siteCalls()) ?? []) })
    static let crashCases = Scenario.allCases.flatMap { scenario in (calls[scenario] ?? []).map { (scenario, $0) } }
    static let errorCases = (calls[.eventsFromWALWithStageAndBackup] ?? []).map(\.self)

    /// Seam sites that a successful upgrade never reaches: error paths and recovery, each
    /// exercised by the test named beside it.
    static let errorPathSites: Set<String> = [
        "recovery.remove-copying",  // a crash at copy.* (crashAtEverySite)
        "recovery.remove-damaged",  // UpgradeFailureTests / a damaged incoming store
        "recovery.remove-stale",  // UpgradeFailureTests.changedStoreStartsOver
        "recovery.remove-unjournaled",  // UpgradeFailureTests.staleWorkDirectoryIsCleanedUp
        "step.remove-failed", "step.remove-output",  // UpgradeFailureTests.policyFailureThenResume
        "step.remove-unfinished", "work.prune",  // resume after a crash in a step (crashAtEverySite)
        "swap.back.rename", "swap.back.sync-store-directory", "swap.back.sync-outgoing",  // a damaged incoming store
        "swap.in.stray", "swap.in.stray-sync-outgoing",  // a companion appearing mid-swap
        "verify.remove-failed",  // StoreVerificationTests via a failed verification
        "work.remove-after-error", "work.remove-stale", "work.remove-up-to-date",  // refusals, races
        "rollback.mkdir", "rollback.remove-work-directory", "rollback.sync-store-directory",
        "rollback.sync-work-directory",
        "rollback.take-backup",  // UpgradeBackupTests.rollbackCrashAtEverySite
        "discard.remove-work-directory",  // UpgradeDiscardTests.crashWhileDiscarding
        "demo.remove-store",  // `stepwise demo` clearing its own folder, outside an upgrade
        "access.shared",  // StoreAccess, outside an upgrade (StoreAccessTests)
        "snapshot.mkdir", "snapshot.copy",  // StoreSnapshot, outside an upgrade (stepwise inspect, plan)
        "create.remove-after-error",  // StoreCreator's cleanup, outside an upgrade
        "matrix.copy",  // UpgradeMatrix's working copy of a seeded store, outside an upgrade
        "swap.remove-stale",  // UpgradeFailureTests.storeWrittenDuringTheUpgradeIsNotSwappedOut
        "model-cache.write",  // ModelCacheUpgradeTests: only an upgrade from a store's cached model
        // Only a store with external files: ExternalDataFaultInjectionTests faults every call.
        "external.keep.mkdir", "external.keep.link", "external.keep.copy", "external.keep.sync",
        "external.remove-unreferenced", "external.sync-folder", "rollback.external.mkdir",
        "rollback.external.rename", "rollback.external.sync",
    ]
    /// Sites of a step path no sample's upgrade takes: a step that rebuilds only what it maps
    /// (every sample's explicit step names a policy, which rebuilds the whole store). Faults
    /// at each are injected by PartialRebuildFaultTests (StepwiseMappingTests).
    static let partialRebuildSites: Set<String> = [
        "step.partial-copy", "step.partial-take-source", "step.partial-sync", "step.partial-sync-source-directory",
    ]
    /// Best-effort cleanup on the way out of a step (`try?`): a fault there is ignored by
    /// design, and whatever stays behind is in a step folder the runner deletes.
    static let bestEffortSites: Set<String> = ["step.remove-output"]
    /// Calls after the work directory is gone: the store on disk is the new one, and a fault
    /// there (the durable sync failing) only tells the app so.
    static let afterCleanupSites: Set<String> = ["cleanup.sync-store-directory"]
    /// `site:` labels in the sources that name an error, not a seam call.
    static let errorLabels: Set<String> = ["checksum.open", "checksum.read", "journal.encode", "lock.flock"]

    @Test("every seam site in the sources is reached by a scenario or listed as an error path")
    func everySiteIsEnumerated() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var declared: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /site: "([a-z]+\.[a-z.-]+)["\\]/) { declared.insert(String(match.1)) }
        }
        #expect(declared.count > 40)
        let reached = Set(Self.calls.values.joined().map(\.site))
        let unexplained = declared.subtracting(Self.errorLabels).filter { site in
            !Self.errorPathSites.contains(site) && !Self.partialRebuildSites.contains(site)
                && !reached.contains { $0.hasPrefix(site) }
        }
        #expect(unexplained.isEmpty, "sites neither reached nor listed: \(unexplained.sorted())")
        for scenario in Scenario.allCases { #expect((Self.calls[scenario] ?? []).count > 30, "\(scenario)") }
    }

    @Test("the sites cover the copy, every step, verification, the swap, the backup and the cleanup")
    func sitesCoverEveryPhase() {
        let sites = Set(Self.calls.values.joined().map(\.site))
        for expected in [
            "lock.open", "work.mkdir", "copy.file", "copy.file-wal", "copy.sync", "journal.write", "journal.rename",
            "journal.sync-directory", "step.mkdir", "step.private-copy", "step.in-place-copy", "step.sync",
            "step.remove-previous", "swap.incoming.rename", "swap.out.link", "swap.out.rename-wal",
            "swap.out.sync-store-directory", "swap.in.rename", "swap.in.sync-store-directory", "backup.rename",
            "backup.remove-previous", "cleanup.remove-work-directory",
        ] {
            #expect(sites.contains(expected), "no call of \(expected)")
        }
    }

    @Test("a crash at each call: the store is old or new, and the next call finishes", arguments: crashCases)
    func crashAtEverySite(scenario: Scenario, call: SiteCall) throws {
        try check(scenario, call, fault: .crash)
    }

    @Test(
        "EIO, ENOSPC and EACCES at each call: a typed error, then the next call finishes",
        arguments: errorCases, [EIO, ENOSPC, EACCES])
    func errorAtEverySite(call: SiteCall, code: Int32) throws {
        try check(.eventsFromWALWithStageAndBackup, call, fault: .error(code))
    }

    /// Injects `fault` at `call`, then checks the store is old or new and the next call finishes.
    func check(_ scenario: Scenario, _ call: SiteCall, fault: FileSystem.Fault) throws {
        let fixture = try scenario.makeFixture()
        let before = StoreBytes(fixture.store)
        let recorder = UpgradeRecorder()
        let faulty = try scenario.upgrader(
            fixture, fileSystem: recorder.fileSystem(faultAt: call.site, occurrence: call.occurrence, fault: fault))
        do {
            _ = try faulty.upgradeIfNeededSynchronously(storeAt: fixture.store)
            if Self.bestEffortSites.contains(call.site) {
                #expect(try fixture.version() == fixture.latest, "\(call)")
                try scenario.checkContent(fixture, call)
                return
            }
            Issue.record("\(call): the fault was never reached")
            return
        } catch let crash as SimulatedCrash {
            guard case .crash = fault else { throw crash }
            #expect(crash.site == call.site)
        } catch let error as UpgradeError {
            guard case .error = fault else { throw error }
            #expect(error.site == call.site, "\(call): the error names \(error.site ?? "no site")")
            #expect(error.storePath == fixture.files.store.path)
        }
        let journal = UpgradeJournal.load(from: fixture.files.workDirectory)
        let committed =
            [.swappingOut, .swappingIn, .swapped].contains(journal?.state) || Self.afterCleanupSites.contains(call.site)
        if !committed {
            #expect(StoreBytes(fixture.store) == before, "\(call): the store changed before the commit point")
        }
        let resumable = committed ? 0 : (journal?.completed.count ?? 0)
        // Whatever the point, the store's path holds a whole store: the old one or the new one.
        let version = try fixture.version()
        #expect(
            version == fixture.history.versions[0].name || version == fixture.latest,
            "\(call): the store reads as \(version ?? "nothing")")

        let report = try scenario.upgrader(fixture).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(try fixture.version() == fixture.latest, "\(call): not upgraded after recovery")
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path), "\(call): work left")
        if !committed && !report.upToDate {
            // Never start over needlessly: every step the journal had completed is kept.
            #expect(report.steps.filter(\.resumed).count == resumable, "\(call): checkpoints were redone")
        }
        try scenario.checkContent(fixture, call)
        if scenario == .eventsFromWALWithStageAndBackup {
            // The backup is the store as it was, WAL included.
            let kept = fixture.files.backupDirectory.appendingPathComponent("Store.sqlite")
            let keptBytes = StoreBytes(kept, suffixes: ["", "-wal"]).files
            #expect(keptBytes[""] == before.files[""], "\(call): the backup's main file isn't the original's")
            #expect(keptBytes["-wal"] == before.files["-wal"], "\(call): the backup's -wal isn't the original's")
        }
    }
}

import Foundation
import StepwiseTesting
import Testing

@testable import Stepwise

/// Every file-system call an upgrade makes (its *site*), in turn, crashes or fails. After
/// each: the store path holds the old or the new store, byte-identical before the commit
/// point; the next call always ends with
/// the store fully upgraded, keeping the checkpoints it can trust.
@Suite("upgradeIfNeeded: a crash or an error at every file-system call")
struct UpgradeFaultInjectionTests {
    /// One call of one site: the `occurrence`-th time the upgrade reaches `site`.
    struct SiteCall: Hashable, CustomStringConvertible {
        var site: String
        var occurrence: Int
        var description: String { "\(site)#\(occurrence)" }
    }

    /// The site calls of a successful upgrade of the sample, in order.
    static func siteCalls(_ sampleName: String) throws -> [SiteCall] {
        let fixture = try UpgradeFixture(sampleName)
        let recorder = UpgradeRecorder()
        _ = try fixture.upgrader(fileSystem: recorder.fileSystem()).upgradeIfNeeded(storeAt: fixture.store)
        var seen: [String: Int] = [:]
        return recorder.sites.map { site in
            defer { seen[site, default: 0] += 1 }
            return SiteCall(site: site, occurrence: seen[site, default: 0])
        }
    }

    @Test("the sites cover the copy, every step, verification, the swap and the cleanup")
    func sitesCoverEveryPhase() throws {
        let sites = Set(try Self.siteCalls("Recipes").map(\.site))
        for expected in [
            "lock.open", "work.mkdir", "copy.file", "copy.sync", "journal.write", "journal.rename",
            "journal.sync-directory", "step.mkdir", "step.sync", "step.remove-previous", "swap.incoming.rename",
            "swap.out.link", "swap.out.sync-store-directory", "swap.in.rename", "swap.in.sync-store-directory",
            "cleanup.remove-work-directory",
        ] {
            #expect(sites.contains(expected), "no call of \(expected)")
        }
    }

    /// Every site call of both samples, computed once (one recorded upgrade each) so the
    /// cases below can run in parallel.
    static let recipesCalls = (try? siteCalls("Recipes")) ?? []
    static let eventsCalls = (try? siteCalls("Events")) ?? []
    static let crashCases = recipesCalls.map { ("Recipes", $0) } + eventsCalls.map { ("Events", $0) }

    @Test("every sample's upgrade reaches more than 30 file-system calls")
    func siteListsAreComplete() {
        #expect(Self.recipesCalls.count > 30)
        #expect(Self.eventsCalls.count > 30)
    }

    @Test("a crash at each call: the store is old or new, and the next call finishes", arguments: crashCases)
    func crashAtEverySite(sampleName: String, call: SiteCall) throws {
        try check(sampleName, call, fault: .crash)
    }

    @Test(
        "EIO, ENOSPC and EACCES at each call: a typed error, then the next call finishes",
        arguments: eventsCalls, [EIO, ENOSPC, EACCES])
    func errorAtEverySite(call: SiteCall, code: Int32) throws {
        try check("Events", call, fault: .error(code))
    }

    private func check(_ sampleName: String, _ call: SiteCall, fault: FileSystem.Fault) throws {
        let fixture = try UpgradeFixture(sampleName)
        let before = StoreBytes(fixture.store)
        let recorder = UpgradeRecorder()
        let faulty = try fixture.upgrader(
            fileSystem: recorder.fileSystem(faultAt: call.site, occurrence: call.occurrence, fault: fault))
        do {
            _ = try faulty.upgradeIfNeeded(storeAt: fixture.store)
            Issue.record("\(call): the fault was never reached")
            return
        } catch let crash as SimulatedCrash {
            guard case .crash = fault else { throw crash }
            #expect(crash.site == call.site)
        } catch let error as UpgradeError {
            guard case .error = fault else { throw error }
            #expect(error.site == call.site, "\(call): the error names \(error.site ?? "no site")")
        }
        let journal = UpgradeJournal.load(from: fixture.files.workDirectory)
        let committed = [.swappingOut, .swappingIn, .swapped].contains(journal?.state)
        if !committed {
            #expect(StoreBytes(fixture.store) == before, "\(call): the store changed before the commit point")
        }
        let resumable = committed ? 0 : (journal?.completed.count ?? 0)
        // Whatever the point, the store's path holds a whole store: the old one or the new one.
        let version = try fixture.version()
        #expect(
            version == fixture.history.versions[0].name || version == fixture.latest,
            "\(call): the store reads as \(version ?? "nothing")")

        let report = try fixture.upgrader().upgradeIfNeeded(storeAt: fixture.store)
        #expect(try fixture.version() == fixture.latest, "\(call): not upgraded after recovery")
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path), "\(call): work left")
        if !committed && !report.upToDate {
            // Never start over needlessly: every step the journal had completed is kept.
            #expect(report.steps.filter(\.resumed).count == resumable, "\(call): checkpoints were redone")
        }
        switch sampleName {
        case "Recipes": #expect(try fixture.count("ZRECIPE") == 4, "\(call)")
        default: #expect(try fixture.count("ZTIMESTAMPEVENT") == EventsSeed.timeStamps.count, "\(call)")
        }
    }
}

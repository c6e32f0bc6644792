import Foundation
import GRDB
import StepwiseStore
import Testing

@testable import Stepwise

/// The fault-injection suite's check (``UpgradeFaultInjectionTests``) on a store with external
/// files: a crash or an error at every file-system call of an upgrade that drops external
/// values (keeping a backup), and at every call of the rollback after it. After each fault
/// every external reference of the store in place resolves to a file, and the next call ends
/// with the right files.
@Suite("upgradeIfNeeded and rollback: a crash or an error at every call, with external files")
struct ExternalDataFaultInjectionTests {
    typealias SiteCall = UpgradeFaultInjectionTests.SiteCall

    /// Numbers each site's calls in the order they were made.
    static func numbered(_ sites: [String]) -> [SiteCall] {
        var seen: [String: Int] = [:]
        return sites.map { site in
            defer { seen[site, default: 0] += 1 }
            return SiteCall(site: site, occurrence: seen[site, default: 0])
        }
    }

    static let upgradeCalls: [SiteCall] = {
        guard let fixture = try? ExternalDataFixture() else { return [] }
        let recorder = UpgradeRecorder()
        _ = try? fixture.upgrader(fileSystem: recorder.fileSystem()).upgradeIfNeededSynchronously(
            storeAt: fixture.store)
        return numbered(recorder.sites)
    }()

    static let rollbackCalls: [SiteCall] = {
        guard let fixture = try? ExternalDataFixture(),
            (try? fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)) != nil
        else { return [] }
        try? FileManager.default.removeItem(at: fixture.folder.file(named: ExternalDataFixture.fileA))
        let recorder = UpgradeRecorder()
        _ = try? Upgrader.rollback(storeAt: fixture.store, options: rollbackOptions(recorder.fileSystem()))
        return numbered(recorder.sites)
    }()

    static func rollbackOptions(_ fileSystem: FileSystem = FileSystem()) -> UpgradeOptions {
        var options = UpgradeOptions(lockTimeout: .seconds(30))
        options.fileSystem = fileSystem
        return options
    }

    @Test("The upgrade reaches the external-data sites, after the swap")
    func sitesAreReached() {
        let sites = Self.upgradeCalls.map(\.site)
        for expected in [
            "external.keep.mkdir", "external.keep.link", "external.keep.sync",
            "external.remove-unreferenced", "external.sync-folder",
        ] {
            #expect(sites.contains(expected), "no call of \(expected)")
        }
        let rollbackSites = Self.rollbackCalls.map(\.site)
        for expected in ["rollback.external.rename", "rollback.external.sync"] {
            #expect(rollbackSites.contains(expected), "no call of \(expected)")
        }
    }

    @Test(
        "A crash or EIO at each call of the upgrade: references resolve, and the next call ends with file A only",
        arguments: upgradeCalls, [FileSystem.Fault.crash, .error(EIO)])
    func faultDuringTheUpgrade(call: SiteCall, fault: FileSystem.Fault) throws {
        let fixture = try ExternalDataFixture()
        let recorder = UpgradeRecorder()
        do {
            _ = try fixture.upgrader(
                fileSystem: recorder.fileSystem(faultAt: call.site, occurrence: call.occurrence, fault: fault)
            ).upgradeIfNeededSynchronously(storeAt: fixture.store)
            Issue.record("\(call): the fault was never reached")
        } catch is SimulatedCrash {
        } catch is UpgradeError {
        }
        #expect(try fixture.references().dangling == [], "\(call): a reference to nothing after the fault")
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.to == "Photos 2" || report.upToDate, "\(call)")
        #expect(try fixture.fileNames() == [ExternalDataFixture.fileA], "\(call)")
        #expect(try fixture.references().all == [ExternalDataFixture.fileA], "\(call)")
        #expect(try fixture.references().dangling == [], "\(call)")
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path), "\(call): work left")
    }

    @Test(
        "A crash or EIO at each call of the rollback: references resolve, and the next rollback restores every file",
        arguments: rollbackCalls, [FileSystem.Fault.crash, .error(EIO)])
    func faultDuringTheRollback(call: SiteCall, fault: FileSystem.Fault) throws {
        let fixture = try ExternalDataFixture()
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        try FileManager.default.removeItem(at: fixture.folder.file(named: ExternalDataFixture.fileA))
        let recorder = UpgradeRecorder()
        do {
            _ = try Upgrader.rollback(
                storeAt: fixture.store,
                options: Self.rollbackOptions(
                    recorder.fileSystem(faultAt: call.site, occurrence: call.occurrence, fault: fault)))
            Issue.record("\(call): the fault was never reached")
        } catch is SimulatedCrash {
        } catch is UpgradeError {
        } catch is FileSystemError {
        }
        // Until the backup's files are back, the upgraded store is in place, and the test
        // deleted its file A without clearing the row: A alone may dangle. Once they are back
        // (before the old store moves in), nothing does.
        let dangling = try fixture.references().dangling
        #expect(dangling == [] || dangling == [ExternalDataFixture.fileA], "\(call)")
        // After the work folder is gone the rollback is complete on disk: nothing to finish.
        let version =
            UpgradeFaultInjectionTests.afterCleanupSites.contains(call.site)
            ? nil : try Upgrader.rollback(storeAt: fixture.store, options: Self.rollbackOptions())
        #expect(version == "Photos" || version == nil, "\(call)")
        #expect(
            try fixture.fileNames()
                == [ExternalDataFixture.fileA, ExternalDataFixture.fileB, ExternalDataFixture.fileC].sorted(),
            "\(call)")
        #expect(try fixture.references().dangling == [], "\(call)")
    }
}

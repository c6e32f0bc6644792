import Foundation
import StepwiseMapping
import StepwiseStore
import Testing

@testable import Stepwise

/// A failed upgrade names the work folder it kept for a resume, and
/// `Upgrader.discardInterruptedUpgrade(storeAt:)` deletes it without touching the store, or
/// finishes a swap already past its commit point.
@Suite("upgradeIfNeeded: the work folder a failure leaves")
struct UpgradeDiscardTests {
    @Test("a failed step's error names the kept folder; discarding it leaves the store byte-identical")
    func failedStepThenDiscard() throws {
        let fixture = try UpgradeFixture("Recipes")
        let before = StoreBytes(fixture.store)
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader(policies: UpgradeFailureTests.policies(failingAt: 1))
                .upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        let workDirectory = fixture.files.workDirectory
        #expect(error.leftoverWorkDirectory?.standardizedFileURL == workDirectory.standardizedFileURL)
        #expect((error.leftoverBytes ?? 0) > 0)
        #expect(error.description.contains(workDirectory.path))
        #expect(error.description.contains("Upgrader.discardInterruptedUpgrade(storeAt:)"))
        #expect(error.localizedDescription == error.description)

        let outcome = try Upgrader.discardInterruptedUpgrade(storeAt: fixture.store)
        guard case .discarded(let bytes) = outcome else {
            Issue.record("expected .discarded, got \(outcome)")
            return
        }
        #expect(bytes == error.leftoverBytes)
        #expect(!FileManager.default.fileExists(atPath: workDirectory.path))
        #expect(StoreBytes(fixture.store) == before)
        #expect(try Upgrader.discardInterruptedUpgrade(storeAt: fixture.store) == .nothingToDiscard)

        // The next upgrade starts over, from step 1.
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.resumed) == [false, false, false])
    }

    @Test("an error that kept nothing names no folder")
    func nothingKept() throws {
        let fixture = try UpgradeFixture("Recipes")
        let held = try UpgradeLock(files: fixture.files, timeout: 1, fileSystem: FileSystem())
        defer { withExtendedLifetime(held) {} }
        let waiting = try Upgrader(history: fixture.history, options: UpgradeOptions(lockTimeout: .milliseconds(200)))
        let error = try #require(throws: UpgradeError.self) {
            try waiting.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .lockTimeout = error.kind else {
            Issue.record("expected lockTimeout, got \(error)")
            return
        }
        #expect(error.leftoverWorkDirectory == nil)
        #expect(!error.description.contains("discardInterruptedUpgrade"))
    }

    @Test("past the commit point, discarding finishes the swap instead")
    func discardFinishesASwap() throws {
        let fixture = try UpgradeFixture("Recipes")
        var crashing = try fixture.upgrader()
        crashing.options.fileSystem = UpgradeRecorder().fileSystem(faultAt: "swap.in.rename")
        #expect(throws: SimulatedCrash.self) { try crashing.upgradeIfNeededSynchronously(storeAt: fixture.store) }
        let outcome = try Upgrader.discardInterruptedUpgrade(storeAt: fixture.store)
        #expect(outcome == .finishedSwap(version: fixture.latest))
        #expect(try fixture.version() == fixture.latest)
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
    }

    @Test("a crash or an error while discarding leaves the store as it was, and discarding again finishes")
    func crashWhileDiscarding() throws {
        for fault in [FileSystem.Fault.crash, .error(EIO)] {
            let fixture = try UpgradeFixture("Recipes")
            let before = StoreBytes(fixture.store)
            _ = try? fixture.upgrader(policies: UpgradeFailureTests.policies(failingAt: 1))
                .upgradeIfNeededSynchronously(storeAt: fixture.store)
            var options = UpgradeOptions()
            options.fileSystem = UpgradeRecorder().fileSystem(faultAt: "discard.remove-work-directory", fault: fault)
            let error = #expect(throws: (any Error).self) {
                try Upgrader.discardInterruptedUpgrade(storeAt: fixture.store, options: options)
            }
            if case .crash = fault {
                #expect((error as? SimulatedCrash)?.site == "discard.remove-work-directory")
            } else {
                let upgradeError = try #require(error as? UpgradeError)
                #expect(upgradeError.site == "discard.remove-work-directory")
            }
            #expect(StoreBytes(fixture.store) == before)
            #expect(try Upgrader.discardInterruptedUpgrade(storeAt: fixture.store) != .nothingToDiscard)
            #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
            #expect(StoreBytes(fixture.store) == before)
        }
    }
}

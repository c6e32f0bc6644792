import Foundation
import StepwiseStore
import Testing

@testable import Stepwise

/// The pre-flight free-space estimate: a copy of the store and one step's output, where a
/// clone of the store (APFS) costs only what folding its `-wal` rewrites.
@Suite("UpgradeSpaceEstimate")
struct UpgradeSpaceEstimateTests {
    @Test("A full copy counts the store twice, plus the margin")
    func fullCopy() {
        let estimate = UpgradeSpaceEstimate(mainFileBytes: 40_000_000, companionBytes: 2_000_000, copyIsClone: false)
        #expect(estimate.copyBytes == 42_000_000)
        #expect(estimate.stepOutputBytes == 42_000_000)
        #expect(estimate.neededBytes == 84_000_000 + UpgradeSpaceEstimate.marginBytes)
    }

    @Test("A clone counts only the -wal and -journal for the copy")
    func clone() {
        let estimate = UpgradeSpaceEstimate(mainFileBytes: 40_000_000, companionBytes: 2_000_000, copyIsClone: true)
        #expect(estimate.copyBytes == 2_000_000)
        #expect(estimate.neededBytes == 44_000_000 + UpgradeSpaceEstimate.marginBytes)
        let checkpointed = UpgradeSpaceEstimate(mainFileBytes: 40_000_000, companionBytes: 0, copyIsClone: true)
        #expect(checkpointed.neededBytes == 40_000_000 + UpgradeSpaceEstimate.marginBytes)
    }

    @Test("A store's files give the estimate; Linux never counts a clone")
    func fromFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stepwise-space-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Store.sqlite")
        try Data(count: 8192).write(to: store)
        try Data(count: 4096).write(to: URL(fileURLWithPath: store.path + "-wal"))
        try Data(count: 32768).write(to: URL(fileURLWithPath: store.path + "-shm"))
        let estimate = UpgradeSpaceEstimate(StoreGeneration(mainFile: store), in: directory, fileSystem: FileSystem())
        #expect(estimate.mainFileBytes == 8192)
        #expect(estimate.companionBytes == 4096)  // the -shm is never copied
        #if os(Linux)
            #expect(!estimate.copyIsClone)
        #endif
    }
}

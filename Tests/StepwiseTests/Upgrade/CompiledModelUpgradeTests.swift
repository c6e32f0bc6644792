import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// `Upgrader(bundleAt:)` takes what an app ships, the compiled `.momd`, as it takes the source
/// `.xcdatamodeld`.
@Suite("Upgrader on a compiled .momd", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CompiledModelUpgradeTests {
    /// Upgrades a copy of CoreDataPlus's `SampleModel3_V1.sqlite` (12 users, version
    /// `SampleModel3`) to `SampleModel3_v3` with the bundle at `bundlePath`.
    private static func upgrade(with bundlePath: String, in directory: TemporaryDirectory) throws
        -> (report: UpgradeReport, metadata: StoreMetadata, users: [String])
    {
        let corpus = try Corpus.required()
        let store = try corpus.copyStore(CompiledCorpusModel.sampleModel3Store, to: directory.url)
        let upgrader = try Upgrader(
            bundleAt: corpus.url(bundlePath), options: UpgradeOptions(targetVersion: "SampleModel3_v3"))
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        let queue = try DatabaseQueue(path: store.path)
        return try queue.read { db in
            (
                report, try StoreMetadata.read(from: db, path: store.path),
                try String.fetchAll(db, sql: #"SELECT "ZNAME" FROM "ZUSER" ORDER BY "Z_PK""#)
            )
        }
    }

    @Test("The .momd upgrades SampleModel3_V1.sqlite as the .xcdatamodeld does")
    func momdUpgradesLikeTheSourceBundle() throws {
        let pair = CompiledCorpusModel.all[1]
        let fromSource = try Self.upgrade(with: pair.sourcePath, in: TemporaryDirectory())
        let fromCompiled = try Self.upgrade(with: pair.compiledPath, in: TemporaryDirectory())

        #expect(fromCompiled.report.outcome == .upgraded)
        #expect(fromCompiled.report.from == "SampleModel3")
        #expect(fromCompiled.report.to == "SampleModel3_v3")
        #expect(fromCompiled.report.steps.count == fromSource.report.steps.count)
        #expect(fromCompiled.metadata.versionHashes == fromSource.metadata.versionHashes)
        #expect(fromCompiled.metadata.versionIdentifiers == ["3"])
        #expect(fromCompiled.users.count == 12)
        #expect(fromCompiled.users == fromSource.users)
    }

    @Test("The .momd's current version is the target by default: SampleModel3_V1.sqlite is up to date")
    func currentVersionComesFromVersionInfo() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let store = try corpus.copyStore(CompiledCorpusModel.sampleModel3Store, to: directory.url)
        let upgrader = try Upgrader(bundleAt: corpus.url(CompiledCorpusModel.all[1].compiledPath))
        #expect(upgrader.targetVersion == "SampleModel3")
        #expect(try upgrader.upgradeIfNeededSynchronously(storeAt: store).upToDate)
    }

    @Test("The launch call reads the .momd's VersionInfo.plist: up to date at its current version, upgraded to another")
    func launchCallOnTheMomd() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let store = try corpus.copyStore(CompiledCorpusModel.sampleModel3Store, to: directory.url)
        let bundle = corpus.url(CompiledCorpusModel.all[1].compiledPath)
        let current = try Upgrader.upgradeIfNeededSynchronously(storeAt: store, bundleAt: bundle)
        #expect(current.outcome == .upToDate)
        #expect(current.to == "SampleModel3")
        let upgraded = try Upgrader.upgradeIfNeededSynchronously(
            storeAt: store, bundleAt: bundle, options: UpgradeOptions(targetVersion: "SampleModel3_v3"))
        #expect(upgraded.outcome == .upgraded)
        #expect(upgraded.from == "SampleModel3")
        let again = try Upgrader.upgradeIfNeededSynchronously(
            storeAt: store, bundleAt: bundle, options: UpgradeOptions(targetVersion: "SampleModel3_v3"))
        #expect(again.outcome == .upToDate)
    }
}

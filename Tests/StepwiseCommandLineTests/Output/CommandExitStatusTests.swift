import ArgumentParser
import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import StepwiseCommandLine

/// The exit status says what the caller should do (issue 45): each kind of failure gets its
/// own code, `sysexits` where one fits.
@Suite("Exit statuses by what to do next")
struct ExitStatusTests {
    /// One error of each kind, and the status it exits with.
    static let errors: [(String, any Error & Sendable, CommandExitStatus)] = [
        ("usage", ValidationError("--models is missing"), .usage),
        ("cancelled", CancellationError(), .cancelled),
        ("unreadable model", ModelError(path: "M.xcdatamodeld", kind: .emptyBundle), .badInput),
        ("mapping", MappingError(.unknownFunction("f:")), .badInput),
        ("no path", UpgradeError(.noPath(from: "A", to: "B", gap: nil, problems: [])), .badInput),
        (
            "unregistered policy",
            UpgradeError(.unregisteredPolicy(name: "P", mappingModel: "A to B", entityMapping: "Item")), .badInput
        ),
        (
            "newer store",
            UpgradeError(.newerThanKnownVersions(storeVersionName: nil, latest: "B", differences: [])),
            .unknownStoreVersion
        ),
        ("unknown store", UpgradeError(.noMatchingVersion(closest: nil, differences: [])), .unknownStoreVersion),
        ("later than target", UpgradeError(.laterThanTarget(storeVersion: "B", target: "A")), .unknownStoreVersion),
        ("not a store", StoreError(path: "x", kind: .notSQLite), .notAStore),
        ("missing store", StoreError(path: "x", kind: .notFound), .notAStore),
        ("damaged store", StoreError(path: "x", kind: .sqlite(code: 11, message: "malformed")), .notAStore),
        ("store in use", UpgradeError(.storeInUse(processIDs: [7], seconds: 1, bareConnection: false)), .busy),
        ("lock timeout", UpgradeError(.lockTimeout(seconds: 1)), .busy),
        ("upgrade running", UpgradeError(.upgradeRunning(seconds: 1)), .busy),
        ("SQLite busy", StoreError(path: "x", kind: .sqlite(code: 5, message: "database is locked")), .busy),
        ("disk full", UpgradeError(.insufficientSpace(neededBytes: 10, availableBytes: 1)), .ioError),
        ("SQLite full", StoreError(path: "x", kind: .sqlite(code: 13, message: "full")), .ioError),
        ("I/O", StoreError(path: "x", kind: .io("EIO")), .ioError),
        (
            "file system", UpgradeError(.fileSystem(operation: "rename", path: "x", reason: "EIO")), .ioError
        ),
        (
            "a step stopped by its mapping",
            UpgradeError(
                .stepFailed(
                    index: 0, count: 1, from: "A", to: "B",
                    underlying: StoreError(path: "x", kind: .invalidValue(entity: "E", property: "p", reason: "nil")))),
            .badInput
        ),
        (
            "a step stopped by a full disk",
            UpgradeError(
                .stepFailed(
                    index: 0, count: 1, from: "A", to: "B",
                    underlying: StoreError(path: "x", kind: .sqlite(code: 13, message: "full")))),
            .ioError
        ),
        (
            "a cancelled step",
            UpgradeError(.stepFailed(index: 0, count: 1, from: "A", to: "B", underlying: CancellationError())),
            .cancelled
        ),
        ("anything else", CommandFailure("no store at x"), .failure),
    ]

    @Test(arguments: errors.indices)
    func eachKindHasItsStatus(_ index: Int) {
        let (name, error, status) = Self.errors[index]
        #expect(CommandExitStatus(for: error) == status, "\(name)")
    }

    @Test func theCodesAreDistinctAndFollowSysexits() {
        #expect(Set(CommandExitStatus.allCases.map(\.rawValue)).count == CommandExitStatus.allCases.count)
        #expect(CommandExitStatus.usage.rawValue == 64)
        #expect(CommandExitStatus.badInput.rawValue == 65)
        #expect(CommandExitStatus.notAStore.rawValue == 66)
        #expect(CommandExitStatus.ioError.rawValue == 74)
        #expect(CommandExitStatus.busy.rawValue == 75)
    }

    /// The executable exits with each status a script can meet without another process (busy is
    /// `StoreAccessTests.cliReportsTheWait`).
    @Test func theExecutableExitsWithEachStatus() throws {
        let fixture = try RecipesStoreFixture()
        let runner = try CommandRunner()
        #expect(try runner.run(["upgrade"]).status == 64)

        let notAStore = fixture.directory.path("notes.txt")
        try Data("not a store".utf8).write(to: notAStore)
        #expect(try runner.run(["upgrade", notAStore.path, "--models", fixture.bundle.path]).status == 66)

        // A store of a version the bundle doesn't have: newer than this build.
        let newer = fixture.directory.path("Newer.sqlite")
        try StoreCreator.createStore(
            at: newer,
            model: ObjectModel("Recipes 9") { Entity("Gadget") { Attribute("name", .string) } })
        let unknown = try runner.run(["upgrade", newer.path, "--models", fixture.bundle.path])
        #expect(unknown.status == 3, "\(unknown.standardError)")

        // A bundle whose version can't be read.
        let contents = fixture.bundle.appendingPathComponent("Recipes 2.xcdatamodel/contents")
        try Data("<model".utf8).write(to: contents)
        let bad = try runner.run(["plan", fixture.store.path, "--models", fixture.bundle.path])
        #expect(bad.status == 65, "\(bad.standardError)")

        // Up to date is success.
        let fresh = try RecipesStoreFixture(version: "Recipes 4")
        #expect(try runner.run(fresh.upgradeArguments()).status == 0)
    }
}

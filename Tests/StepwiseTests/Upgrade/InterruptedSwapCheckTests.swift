import Foundation
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// Recovery past the commit point never deletes the only complete copy of the data: when a
/// file the journal's swap needs is missing, it throws ``UpgradeError/Kind/interruptedSwapMissingFile(state:missing:workDirectory:)``
/// and leaves every file where it is, unless the store's path provably holds the new store.
@Suite("recovery: an interrupted swap with a file missing")
struct InterruptedSwapCheckTests {
    /// Where an interrupted upgrade (University, whose store has a row in its `-wal`) stops.
    enum Interruption: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Journal `swappingOut`, nothing moved yet (a crash at the move out's first link).
        case beforeMoveOut
        /// Journal `swappingIn`, the old generation in `outgoing/`, the new store still in `incoming/`.
        case beforeMoveIn
        /// Journal `swappingIn`, the new main file moved in (a crash at the sync after it).
        case afterMoveIn
        /// Journal `swapped`, the cleanup not done.
        case beforeCleanup

        var description: String { rawValue }

        var site: String {
            switch self {
            case .beforeMoveOut: "swap.out.link"
            case .beforeMoveIn: "swap.in.rename"
            case .afterMoveIn: "swap.in.sync-store-directory"
            case .beforeCleanup: "cleanup.remove-work-directory"
            }
        }

        var state: UpgradeJournal.State {
            switch self {
            case .beforeMoveOut: .swappingOut
            case .beforeMoveIn, .afterMoveIn: .swappingIn
            case .beforeCleanup: .swapped
            }
        }
    }

    /// A fixture whose upgrade was interrupted at `interruption`, with the journal checked.
    func interrupted(at interruption: Interruption) throws -> UpgradeFixture {
        let fixture = try UpgradeFixture.universityWithRowInWAL()
        let crashing = try fixture.upgrader(fileSystem: UpgradeRecorder().fileSystem(faultAt: interruption.site))
        #expect(throws: SimulatedCrash.self) { try crashing.upgradeIfNeededSynchronously(storeAt: fixture.store) }
        #expect(UpgradeJournal.load(from: fixture.files.workDirectory)?.state == interruption.state)
        return fixture
    }

    /// Every file under the store's folder, with its bytes.
    func everyFile(_ fixture: UpgradeFixture) throws -> [String: Data] {
        let root = fixture.directory.url.resolvingSymlinksInPath()
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            let resolved = url.resolvingSymlinksInPath().path
            files[String(resolved.dropFirst(root.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    /// Removes `file`, runs the recovery, and checks it threw naming `file` and changed nothing.
    func expectRefusal(_ fixture: UpgradeFixture, removing file: URL, state: UpgradeJournal.State) throws {
        try FileManager.default.removeItem(at: file)
        let before = try everyFile(fixture)
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .interruptedSwapMissingFile(let named, let missing, let work) = error.kind else {
            Issue.record("another error: \(error)")
            return
        }
        #expect(named == state.rawValue)
        #expect(missing.path == file.path)
        #expect(work.path == fixture.files.workDirectory.path)
        #expect(error.storePath == fixture.files.store.path)
        // Not offered for discarding: it may hold the only copy of the data.
        #expect(error.leftoverWorkDirectory == nil)
        #expect(error.failsTheSameWayAgain)
        #expect(error.description.contains(file.path) && error.description.contains("Don't delete"))
        #expect(try everyFile(fixture) == before, "recovery changed files it can't account for")
        // Still refused, still nothing changed: a retry can't clean up either.
        #expect(throws: UpgradeError.self) {
            try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        #expect(try everyFile(fixture) == before)
    }

    var swapOf: (UpgradeFixture) -> GenerationSwap {
        { GenerationSwap(files: $0.files, workDirectory: $0.files.workDirectory, fileSystem: FileSystem()) }
    }

    @Test("the new store gone from incoming/ before the move out: refused, the old store and its -wal kept")
    func incomingMissingBeforeMoveOut() throws {
        let fixture = try interrupted(at: .beforeMoveOut)
        let old = StoreBytes(fixture.store, suffixes: ["", "-wal"])
        try expectRefusal(fixture, removing: swapOf(fixture).incomingFile(nil), state: .swappingOut)
        #expect(StoreBytes(fixture.store, suffixes: ["", "-wal"]) == old)
        #expect(try fixture.version() == fixture.history.versions[0].name)
    }

    @Test("the new store gone from incoming/ before the move in: refused, the old -wal kept in outgoing/")
    func incomingMissingBeforeMoveIn() throws {
        let fixture = try interrupted(at: .beforeMoveIn)
        let swap = swapOf(fixture)
        #expect(FileManager.default.fileExists(atPath: swap.outgoingFile(.wal).path))
        try expectRefusal(fixture, removing: swap.incomingFile(nil), state: .swappingIn)
        #expect(FileManager.default.fileExists(atPath: swap.outgoingFile(.wal).path))
    }

    @Test("the old main file's second name gone from outgoing/ before the move in: refused, not renamed over")
    func outgoingMainFileMissingBeforeMoveIn() throws {
        let fixture = try interrupted(at: .beforeMoveIn)
        let swap = swapOf(fixture)
        let oldMainFile = try Data(contentsOf: fixture.store)
        try expectRefusal(fixture, removing: swap.outgoingFile(nil), state: .swappingIn)
        #expect(try Data(contentsOf: fixture.store) == oldMainFile)
        #expect(FileManager.default.fileExists(atPath: swap.incomingFile(nil).path))
    }

    @Test("the store's main file gone after the swap: refused, outgoing/ not deleted")
    func storeMissingAfterSwap() throws {
        let fixture = try interrupted(at: .beforeCleanup)
        let swap = swapOf(fixture)
        #expect(FileManager.default.fileExists(atPath: swap.outgoingFile(.wal).path))
        try expectRefusal(fixture, removing: fixture.store, state: .swapped)
        #expect(FileManager.default.fileExists(atPath: swap.outgoingFile(nil).path))
        #expect(FileManager.default.fileExists(atPath: swap.outgoingFile(.wal).path))
    }

    @Test(
        "the new store in place, proven by the journal's final checkpoint: recovery finishes",
        arguments: [UpgradeJournal.State.swappingIn, .swappingOut])
    func newStoreInPlaceFinishes(savedState: UpgradeJournal.State) throws {
        let fixture = try interrupted(at: .afterMoveIn)
        var journal = try #require(UpgradeJournal.load(from: fixture.files.workDirectory))
        #expect(!FileManager.default.fileExists(atPath: swapOf(fixture).incomingFile(nil).path))
        // A journal that says less than the files show: the move in happened all the same.
        journal.state = savedState
        try journal.save(in: fixture.files.workDirectory, fileSystem: FileSystem())
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(try fixture.version() == fixture.latest)
        #expect(try fixture.count("ZUNIVERSITY") == UniversitySeed.universities.count + 1)
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
    }

    @Test("a main file at the store's path that isn't the verified new one proves nothing: refused")
    func anotherFileInPlaceIsRefused() throws {
        let fixture = try interrupted(at: .afterMoveIn)
        // The new main file replaced by a copy of itself: same bytes, another file.
        let copy = fixture.directory.path("copy.sqlite")
        try FileManager.default.copyItem(at: fixture.store, to: copy)
        try FileManager.default.removeItem(at: fixture.store)
        try FileManager.default.moveItem(at: copy, to: fixture.store)
        let before = try everyFile(fixture)
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .interruptedSwapMissingFile(_, let missing, _) = error.kind else {
            Issue.record("another error: \(error)")
            return
        }
        #expect(missing.path == swapOf(fixture).incomingFile(nil).path)
        #expect(try everyFile(fixture) == before)
    }
}

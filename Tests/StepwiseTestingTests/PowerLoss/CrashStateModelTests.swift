import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The power-loss model on tiny hand-written traces whose crash states are known: what a
/// sync makes durable, what a torn write can leave, and which directory changes can vanish.
@Suite("Power loss: the crash-state model")
struct CrashStateModelTests {
    static let root = "/s"
    static let initial = CrashState(files: ["/s/a": [1, 1, 1]], directories: ["/s"])

    private func model(_ events: [FileEvent], initial: CrashState = Self.initial) -> CrashStateModel {
        CrashStateModel(root: Self.root, initial: initial, events: events)
    }

    /// Every state `model` can draw in 200 seeds, plus the one with every change lost.
    private func drawnStates(_ model: CrashStateModel) -> Set<CrashState> {
        var states: Set<CrashState> = [model.state()]
        for seed in 0..<200 {
            var random = SplitMix64(seed: UInt64(seed))
            states.insert(model.state(random: &random))
        }
        return states
    }

    @Test("an unsynced write is lost; a synced one stays")
    func unsyncedWriteIsLost() {
        let unsynced = model([.write("/s/a", offset: 0, bytes: [9])])
        #expect(unsynced.state().files["/s/a"] == [1, 1, 1])
        #expect(unsynced.stateKeepingEverything().files["/s/a"] == [9, 1, 1])
        let synced = model([.write("/s/a", offset: 0, bytes: [9]), .sync("/s/a")])
        #expect(synced.state().files["/s/a"] == [9, 1, 1])
        #expect(!synced.hasPendingChanges)
    }

    @Test("a write over two sectors can land half: either sector alone, in any order")
    func tornWriteKeepsWholeSectors() {
        let first = [UInt8](repeating: 7, count: 512)
        let second = [UInt8](repeating: 8, count: 512)
        let torn = model(
            [.write("/s/a", offset: 0, bytes: first + second)],
            initial: CrashState(
                files: ["/s/a": []], directories: ["/s"]))
        let contents = Set(drawnStates(torn).map { $0.files["/s/a"] ?? [] })
        let zeros = [UInt8](repeating: 0, count: 512)
        #expect(contents == [[], first, zeros + second, first + second])
    }

    @Test("a write across a sector boundary tears at the file's boundary, not the write's")
    func tornWriteFollowsFileSectors() {
        let start = CrashState(files: ["/s/a": [UInt8](repeating: 1, count: 1_024)], directories: ["/s"])
        let torn = model([.write("/s/a", offset: 500, bytes: [UInt8](repeating: 9, count: 30))], initial: start)
        let ones = [UInt8](repeating: 1, count: 1_024)
        var head = ones
        head.replaceSubrange(500..<512, with: [UInt8](repeating: 9, count: 12))
        var tail = ones
        tail.replaceSubrange(512..<530, with: [UInt8](repeating: 9, count: 18))
        var both = head
        both.replaceSubrange(512..<530, with: [UInt8](repeating: 9, count: 18))
        let contents = Set(drawnStates(torn).map { $0.files["/s/a"] ?? [] })
        #expect(contents == [ones, head, tail, both])
    }

    @Test("of two overlapping unsynced writes, the earlier may land over the later")
    func reorderedWritesCanLandOutOfOrder() {
        let reordered = model([
            .write("/s/a", offset: 0, bytes: [5, 5, 5]), .write("/s/a", offset: 0, bytes: [6, 6, 6]),
        ])
        let contents = Set(drawnStates(reordered).map { $0.files["/s/a"] ?? [] })
        #expect(contents == [[1, 1, 1], [5, 5, 5], [6, 6, 6]])
    }

    @Test("a new file's name vanishes until its directory is synced, even after the file's own fsync")
    func createNeedsDirectorySync() {
        let created: [FileEvent] = [.create("/s/b"), .write("/s/b", offset: 0, bytes: [4]), .sync("/s/b")]
        #expect(model(created).state().files["/s/b"] == nil)
        #expect(drawnStates(model(created)).contains { $0.files["/s/b"] == [4] })
        #expect(model(created + [.syncDirectory("/s")]).state().files["/s/b"] == [4])
    }

    @Test("an unsynced rename leaves the old name, never neither")
    func renameUndoneLeavesOldName() {
        let renamed = model([.rename("/s/a", "/s/c")])
        #expect(renamed.state().files == ["/s/a": [1, 1, 1]])
        let outcomes = Set(drawnStates(renamed).map { $0.files.keys.sorted() })
        #expect(outcomes == [["/s/a"], ["/s/c"]])
        #expect(model([.rename("/s/a", "/s/c"), .syncDirectory("/s")]).state().files == ["/s/c": [1, 1, 1]])
    }

    @Test("a rename across directories pends until both are synced")
    func renameAcrossDirectoriesNeedsBoth() {
        let start = CrashState(files: ["/s/a": [1]], directories: ["/s", "/s/d"])
        let half = model([.rename("/s/a", "/s/d/a"), .syncDirectory("/s/d")], initial: start)
        #expect(half.state().files == ["/s/a": [1]])
        let both = model([.rename("/s/a", "/s/d/a"), .syncDirectory("/s/d"), .syncDirectory("/s")], initial: start)
        #expect(both.state().files == ["/s/d/a": [1]])
    }

    @Test("a file in a directory whose mkdir was undone is gone with it")
    func fileInUndoneDirectoryIsGone() {
        let nested = model([
            .mkdir("/s/w"), .create("/s/w/f"), .write("/s/w/f", offset: 0, bytes: [3]), .sync("/s/w/f"),
            .syncDirectory("/s/w"),
        ])
        #expect(nested.state() == CrashState(files: ["/s/a": [1, 1, 1]], directories: ["/s"]))
        #expect(nested.stateKeepingEverything().files["/s/w/f"] == [3])
    }

    @Test("an unsynced unlink can be undone; a link keeps both names")
    func unlinkAndLink() {
        #expect(model([.unlink("/s/a")]).state().files["/s/a"] == [1, 1, 1])
        #expect(model([.unlink("/s/a"), .syncDirectory("/s")]).state().files["/s/a"] == nil)
        let linked = model([.link("/s/a", "/s/b"), .syncDirectory("/s")]).state()
        #expect(linked.files == ["/s/a": [1, 1, 1], "/s/b": [1, 1, 1]])
    }

    @Test("an unsynced truncate may be lost; a synced one stays")
    func truncate() {
        #expect(model([.truncate("/s/a", size: 1)]).state().files["/s/a"] == [1, 1, 1])
        #expect(model([.truncate("/s/a", size: 1), .sync("/s/a")]).state().files["/s/a"] == [1])
    }
}

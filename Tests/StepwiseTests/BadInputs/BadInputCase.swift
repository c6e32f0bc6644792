import Foundation
import Testing

@testable import Stepwise

/// One entry of the bad-input catalogue: how to make the bad input, which entry point a user
/// would hit with it, the exact outcome, and what may be left beside the inputs afterwards.
struct BadInputCase: Sendable, CustomTestStringConvertible {
    /// Where the bad input comes from.
    enum Area: String, Sendable {
        case store
        case model
        case mapping
        case environment
        case identifier = "hostile identifier"
        case commandLine = "command line"
    }

    /// What the case needs beyond the package.
    enum Requirement: Sendable {
        case none
        /// `../shared/corpus`: the case runs in the corpus test, skipped visibly without it.
        case corpus
    }

    var area: Area
    var name: String
    var requirement: Requirement
    /// Writes the inputs into the workspace. Everything it writes is an input file.
    var arrange: @Sendable (BadInputWorkspace) throws -> Void
    /// Calls the entry point and returns its result (a report, a command's output…).
    var act: @Sendable (BadInputWorkspace) throws -> (any Sendable)?
    var expected: BadInputExpectation
    var leaves: Leftovers
    /// Where the case is written, so a failure points at its line in the table.
    var sourceLocation: SourceLocation

    init(
        _ area: Area, _ name: String, requires requirement: Requirement = .none,
        arrange: @escaping @Sendable (BadInputWorkspace) throws -> Void,
        act: @escaping @Sendable (BadInputWorkspace) throws -> (any Sendable)?,
        expect expected: BadInputExpectation, leaves: Leftovers = .nothing,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.area = area
        self.name = name
        self.requirement = requirement
        self.arrange = arrange
        self.act = act
        self.expected = expected
        self.leaves = leaves
        self.sourceLocation = sourceLocation
    }

    var testDescription: String { "\(area.rawValue): \(name)" }
}

/// What an entry point may leave in the workspace besides the inputs, which stay
/// byte-identical in every case except a successful upgrade's store.
enum Leftovers: Sendable {
    /// Nothing is added, removed or changed.
    case nothing
    /// Only the upgrade's lock file, `.<store>.stepwise-lock`, empty, and the access lock file
    /// `.<store>.stepwise-access` (empty, once the upgrade got as far as taking it). Neither is
    /// ever deleted, by design: deleting a lock file lets two processes lock two different files.
    case lockFile(store: String)
    /// The lock file, and the work folder `.<store>.stepwise/` whose journal records the
    /// failure: the next call resumes after the last completed step (README, recovery table).
    case lockFileAndFailedRun(store: String)
    /// A successful upgrade: the store's main file and companions change, the lock file is
    /// added, and nothing else (no work folder, no backup) is left.
    case upgradedStore(store: String)

    static let lockFile = Leftovers.lockFile(store: "Store.sqlite")
    static let lockFileAndFailedRun = Leftovers.lockFileAndFailedRun(store: "Store.sqlite")
    static let upgradedStore = Leftovers.upgradedStore(store: "Store.sqlite")

    /// Checks `after` against `before` in the workspace.
    func check(before: FileTree, after: FileTree, in workspace: BadInputWorkspace, at location: SourceLocation) {
        switch self {
        case .nothing:
            #expect(after == before, "\(after.changes(since: before))", sourceLocation: location)
        case .lockFile(let store):
            let lock = ".\(store).stepwise-lock"
            let access = ".\(store).stepwise-access"
            #expect(
                after.entries[access] == nil || after.entries[access] == .file(Data()), "access lock file not empty",
                sourceLocation: location)
            #expect(after.entries[lock] == .file(Data()), "no empty lock file \(lock)", sourceLocation: location)
            let rest = after.filter { $0 != lock && $0 != access }
            #expect(rest == before, "\(rest.changes(since: before))", sourceLocation: location)
        case .lockFileAndFailedRun(let store):
            let lock = ".\(store).stepwise-lock"
            let access = ".\(store).stepwise-access"
            #expect(
                after.entries[access] == nil || after.entries[access] == .file(Data()), "access lock file not empty",
                sourceLocation: location)
            let work = ".\(store).stepwise"
            #expect(after.entries[lock] == .file(Data()), "no empty lock file \(lock)", sourceLocation: location)
            let journal = UpgradeJournal.load(from: workspace.path(work))
            #expect(journal?.state == .failed, "the journal should record the failure", sourceLocation: location)
            #expect(journal?.failure?.isEmpty == false, sourceLocation: location)
            let rest = after.filter { $0 != lock && $0 != access && $0 != work && !$0.hasPrefix(work + "/") }
            #expect(rest == before, "\(rest.changes(since: before))", sourceLocation: location)
        case .upgradedStore(let store):
            let lock = ".\(store).stepwise-lock"
            let access = ".\(store).stepwise-access"
            #expect(
                after.entries[access] == nil || after.entries[access] == .file(Data()), "access lock file not empty",
                sourceLocation: location)
            let storeFiles = Set(["", "-wal", "-shm", "-journal"].map { store + $0 })
            #expect(after.entries[lock] == .file(Data()), "no empty lock file \(lock)", sourceLocation: location)
            #expect(after.entries[".\(store).stepwise"] == nil, "work folder left", sourceLocation: location)
            #expect(after.entries["\(store).stepwise-backup"] == nil, "backup kept", sourceLocation: location)
            let inputs = before.filter { !storeFiles.contains($0) }
            let rest = after.filter { !storeFiles.contains($0) && $0 != lock && $0 != access }
            #expect(rest == inputs, "\(rest.changes(since: inputs))", sourceLocation: location)
        }
    }
}

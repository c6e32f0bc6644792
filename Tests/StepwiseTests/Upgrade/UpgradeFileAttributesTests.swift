import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files an upgrade puts in the store's place keep what the app set on the store besides
/// its bytes (``FileAttributes``): its mode and its extended attributes (here `user.*`, the
/// namespace Linux lets a process set; on Darwin the backup exclusion is one of them).
@Suite("upgradeIfNeeded: the new store keeps the original's mode and extended attributes")
struct UpgradeFileAttributesTests {
    /// Whether the file system under the temporary directory takes `user.*` attributes (tmpfs
    /// before Linux 6.6 doesn't).
    static let userAttributesSupported: Bool = {
        guard let directory = try? TemporaryDirectory(prefix: "stepwise-xattr") else { return false }
        let file = directory.path("probe")
        guard FileManager.default.createFile(atPath: file.path, contents: Data()) else { return false }
        let probe = FileAttributes(mode: 0o600, extended: [.init(name: "user.stepwise.probe", value: [1])])
        return (try? probe.apply(to: file)) != nil
    }()

    static let attribute = FileAttributes.ExtendedAttribute(
        name: "user.stepwise.test", value: Array("exclude from backup".utf8))

    func mode(_ url: URL) -> mode_t? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    @Test("a 0640 store comes back 0640, and so do its backup and the -wal and -shm SQLite makes beside it")
    func modeIsKept() throws {
        let fixture = try UpgradeFixture("Recipes")
        // Neither 0600 (FileCopy's) nor 0644 (SQLite's default under umask 022): only a copy
        // of the original's mode gives it.
        try FileAttributes(mode: 0o640).apply(to: fixture.store)
        _ = try fixture.upgrader(keepBackup: true).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(try fixture.version() == fixture.latest)
        #expect(mode(fixture.store) == 0o640)
        #expect(mode(fixture.files.backupDirectory.appendingPathComponent(fixture.files.name)) == 0o640)

        // The app opens the new store: SQLite gives its -wal and -shm the main file's mode.
        let pool = try DatabasePool(path: fixture.store.path)
        _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZRECIPE") }
        #expect(mode(fixture.files.generation.file(.wal)) == 0o640)
        #expect(mode(fixture.files.generation.file(.shm)) == 0o640)
        try pool.close()

        #expect(try Upgrader.rollback(storeAt: fixture.store) != nil)
        #expect(mode(fixture.store) == 0o640)
    }

    @Test(
        "a user.* attribute on the store is on the upgraded store, its backup, and the store after a rollback",
        .enabled(
            if: userAttributesSupported,
            "the temporary directory's file system takes no user.* extended attributes (tmpfs?): not tested here"))
    func userAttributeIsKept() throws {
        let fixture = try UpgradeFixture("Recipes")
        try FileAttributes(mode: 0o644, extended: [Self.attribute]).apply(to: fixture.store)
        _ = try fixture.upgrader(keepBackup: true).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(try fixture.version() == fixture.latest)
        let upgraded = try FileAttributes.read(from: fixture.store)
        #expect(upgraded.extended == [Self.attribute])
        #expect(upgraded.mode == 0o644)
        let backup = try FileAttributes.read(
            from: fixture.files.backupDirectory.appendingPathComponent(fixture.files.name))
        #expect(backup.extended == [Self.attribute])

        #expect(try Upgrader.rollback(storeAt: fixture.store) != nil)
        #expect(try fixture.version() == fixture.history.versions[0].name)
        let restored = try FileAttributes.read(from: fixture.store)
        #expect(restored.extended == [Self.attribute])
        #expect(restored.mode == 0o644)
    }

    @Test("the attributes are on the new store before the commit point: a crash right after leaves the old store")
    func attributesComeBeforeTheCommitPoint() throws {
        let fixture = try UpgradeFixture("Recipes")
        try FileAttributes(mode: 0o640).apply(to: fixture.store)
        let recorder = UpgradeRecorder()
        _ = try fixture.upgrader(fileSystem: recorder.fileSystem()).upgradeIfNeededSynchronously(storeAt: fixture.store)
        let sites = recorder.sites
        let attributes = try #require(sites.firstIndex(of: "swap.incoming.attributes"))
        let commit = try #require(sites.firstIndex(of: "swap.out.link"))
        #expect(attributes < commit)
        #expect(sites[attributes + 1] == "swap.incoming.attributes.fsync")
    }

    @Test("reading and applying: mode, user.* attributes, nothing of other namespaces")
    func readAndApply() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-attributes")
        let original = directory.path("original")
        let copy = directory.path("copy")
        for file in [original, copy] {
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
        }
        let wanted = FileAttributes(
            mode: 0o604, extended: Self.userAttributesSupported ? [Self.attribute] : [], protection: nil)
        try wanted.apply(to: original)
        try FileAttributes.read(from: original).apply(to: copy)
        #expect(try FileAttributes.read(from: copy) == wanted)
        #expect(FileAttributes.isCopied("user.x"))
        #if os(Linux)
            #expect(!FileAttributes.isCopied("security.selinux"))
            #expect(!FileAttributes.isCopied("system.posix_acl_access"))
        #endif
        let missing = #expect(throws: FileAttributes.Failure.self) {
            try FileAttributes.read(from: directory.path("missing"))
        }
        #expect(missing?.call == "stat")
    }
}

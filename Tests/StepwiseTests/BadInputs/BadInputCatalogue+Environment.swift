import Foundation
import Testing

@testable import Stepwise

/// A folder the upgrade can't write in, and a full disk. Running as root, where `chmod`
/// stops nothing, the `EACCES` a read-only folder gives is injected through the upgrade's
/// file-system seam at the call that would meet it; otherwise the folder really is read-only.
extension BadInputCatalogue {
    static let environment: [BadInputCase] = [
        BadInputCase(
            .environment, "a read-only folder\(rootNote("the lock file's creation"))",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                if !BadInputWorkspace.isRoot { try workspace.makeReadOnly(workspace.url) }
            },
            act: { workspace in
                try workspace.upgradeStore(
                    fileSystem: BadInputWorkspace.isRoot ? .failing(at: "lock.open", with: EACCES) : FileSystem())
            },
            expect: .upgradeError(storePath: "Store.sqlite", site: "lock.open") { _ in
                .fileSystem(operation: "lock", path: ".Store.sqlite.stepwise-lock", errno: EACCES)
            }
        ),
        BadInputCase(
            .environment, "a read-only folder that already holds the lock file\(rootNote("the work folder's mkdir"))",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                // Lock files are never deleted: any earlier upgrade leaves both.
                try Data().write(to: workspace.path(".Store.sqlite.stepwise-lock"))
                try Data().write(to: workspace.path(".Store.sqlite.stepwise-access"))
                if !BadInputWorkspace.isRoot { try workspace.makeReadOnly(workspace.url) }
            },
            act: { workspace in
                try workspace.upgradeStore(
                    fileSystem: BadInputWorkspace.isRoot ? .failing(at: "work.mkdir", with: EACCES) : FileSystem())
            },
            expect: .upgradeError(storePath: "Store.sqlite", site: "work.mkdir") { _ in
                .fileSystem(operation: "createDirectory", path: ".Store.sqlite.stepwise", errno: EACCES)
            }
        ),
        BadInputCase(
            .environment, "too little free space for the copy and a step",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                workspace.record("storeBytes", Int64(try Data(contentsOf: workspace.store).count))
            },
            act: { try $0.upgradeStore(fileSystem: FileSystem(freeSpaceOverride: { _ in 4096 })) },
            expect: .upgradeError(storePath: "Store.sqlite", site: nil) { workspace in
                // Twice the store (the copy and one step's output) and a margin of 1 MB.
                .insufficientSpace(neededBytes: 2 * workspace.fact("storeBytes") + 1_000_000, availableBytes: 4096)
            },
            leaves: .lockFile
        ),
        BadInputCase(
            .environment, "the disk fills up during the copy of a store with rows in its -wal (ENOSPC)",
            arrange: { try $0.writeRecipesStoreWithRowsInWAL() },
            act: { try $0.upgradeStore(fileSystem: .failing(at: "copy.file", with: ENOSPC)) },
            expect: .upgradeError(storePath: "Store.sqlite", site: "copy.file") { _ in
                .fileSystem(operation: "copy", path: ".Store.sqlite.stepwise/step-0/store.sqlite", errno: ENOSPC)
            },
            leaves: .lockFile
        ),
    ]

    /// How a case simulates what root can't see: empty unless running as root.
    static func rootNote(_ call: String) -> String {
        BadInputWorkspace.isRoot ? " (running as root: EACCES injected at \(call))" : " (chmod 555)"
    }
}

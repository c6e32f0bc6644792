// snippet.hide
// UpgradingAtLaunch.md, "Cancel". Built by `swift build`, never run.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let upgrader = try Upgrader(bundleAt: URL(fileURLWithPath: "Notes.xcdatamodeld"), policies: PolicyRegistry())
// snippet.show
let upgrade = Task { try await upgrader.upgradeIfNeeded(storeAt: storeURL) }
// The user quit, or the system asked the app to stop:
upgrade.cancel()

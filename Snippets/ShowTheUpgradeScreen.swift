// snippet.hide
// UpgradingAtLaunch.md, "Show "Upgrading your data…" only when it runs". Built by
// `swift build`, never run.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let upgrader = try Upgrader(bundleAt: URL(fileURLWithPath: "Notes.xcdatamodeld"), policies: PolicyRegistry())
func showUpgradeScreen() {}
// snippet.show
if try upgrader.needsUpgrade(storeAt: storeURL) {
    showUpgradeScreen()
}
let report = try await upgrader.upgradeIfNeeded(storeAt: storeURL)
// snippet.hide
print(report)

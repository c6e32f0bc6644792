// snippet.hide
// UpgradingAtLaunch.md, "On iOS: App Groups, suspension and background time": an app's background
// task around the upgrade. Built by `swift build`, never run. Where UIKit is missing (Linux,
// macOS), a stand-in `UIApplication` with UIKit's signatures lets the function compile all the same.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
// swift-format-ignore
#if canImport(UIKit)
// snippet.show
import UIKit
// snippet.hide
#else
@MainActor final class UIApplication {
    static let shared = UIApplication()
    func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> Int { 0 }
    func endBackgroundTask(_ identifier: Int) {}
}
#endif

let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let upgrader = try Upgrader(bundleAt: URL(fileURLWithPath: "Notes.xcdatamodeld"), policies: PolicyRegistry())
// snippet.show

@MainActor
func upgradeStore() async throws -> UpgradeReport {
    let upgrade = Task.detached { try await upgrader.upgradeIfNeeded(storeAt: storeURL) }
    let application = UIApplication.shared
    let background = application.beginBackgroundTask(withName: "Store upgrade") {
        upgrade.cancel()  // Time is up: the `await` below returns soon, and `defer` ends the task.
    }
    defer { application.endBackgroundTask(background) }
    return try await upgrade.value
}

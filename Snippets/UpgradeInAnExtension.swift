// snippet.hide
// UpgradingAtLaunch.md, "On iOS: App Groups, suspension and background time": an extension's
// expiring activity around the upgrade. Built by `swift build`, never run. Where UIKit is missing
// (Linux, macOS), a stand-in `performExpiringActivity` with Foundation's signature lets the code
// compile all the same.
import Foundation
import Stepwise

// swift-format-ignore
#if !canImport(UIKit)
extension ProcessInfo {
    func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {}
}
#endif

let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let upgrader = try Upgrader(bundleAt: URL(fileURLWithPath: "Notes.xcdatamodeld"), policies: PolicyRegistry())
// snippet.show
let upgrade = Task.detached { try await upgrader.upgradeIfNeeded(storeAt: storeURL) }
ProcessInfo.processInfo.performExpiringActivity(withReason: "Store upgrade") { expired in
    if expired {
        upgrade.cancel()  // Called again, on another thread, when the time runs out.
        return
    }
    let finished = DispatchSemaphore(value: 0)
    Task {
        _ = try? await upgrade.value
        finished.signal()
    }
    finished.wait()  // This block runs on a thread of its own: waiting holds the activity.
}
let report = try await upgrade.value
// snippet.hide
print(report)

// snippet.hide
// UpgradingAtLaunch.md, "On iOS: App Groups, suspension and background time": the pool's
// configuration and the scene delegate's notifications, two slices. Built by `swift build`, never
// run. Where UIKit is missing (Linux, macOS), a stand-in `UIScene` lets the delegate's methods
// compile all the same.
import Foundation
// snippet.show
// snippet.open
import GRDB
import Stepwise

// snippet.hide
// swift-format-ignore
#if canImport(UIKit)
// snippet.show
import UIKit
// snippet.hide
#else
final class UIScene {}
#endif

let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let upgrader = try Upgrader(bundleAt: URL(fileURLWithPath: "Notes.xcdatamodeld"), policies: PolicyRegistry())
// snippet.show

var configuration = Configuration()
configuration.observesSuspensionNotifications = true
let dbPool = try upgrader.openDatabasePool(storeAt: storeURL, configuration: configuration)
// snippet.end
// snippet.hide

final class SceneDelegate {
    // snippet.show
    // snippet.delegate
    // In the app delegate or scene delegate:
    func sceneDidEnterBackground(_ scene: UIScene) {
        NotificationCenter.default.post(name: Database.suspendNotification, object: self)
    }
    func sceneWillEnterForeground(_ scene: UIScene) {
        NotificationCenter.default.post(name: Database.resumeNotification, object: self)
    }
    // snippet.end
    // snippet.hide
}

// snippet.hide
// UpgradingAtLaunch.md, "Stores shared with extensions and other processes": the app's part and
// the widget's, two slices. Built by `swift build`, never run.
import Foundation
// snippet.show
// snippet.app
import GRDB
import Stepwise

// snippet.hide
let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let upgrader = try Upgrader(bundleAt: URL(fileURLWithPath: "Notes.xcdatamodeld"), policies: PolicyRegistry())

/// What the widget shows.
enum WidgetEntry {
    case placeholder(String)
    case notes(DatabasePool)
}
// snippet.show
// The app, at launch:
_ = try await upgrader.upgradeIfNeeded(storeAt: storeURL)
let dbPool = try upgrader.openDatabasePool(storeAt: storeURL)  // or openDatabaseQueue
// snippet.end
// snippet.hide

func widgetEntry() throws -> WidgetEntry {
    // snippet.show
    // snippet.widget
    // The widget or extension:
    if try upgrader.needsUpgrade(storeAt: storeURL) {
        return .placeholder("Open the app to finish updating")  // never opens the old store
    }
    let dbPool = try upgrader.openDatabasePool(storeAt: storeURL)
    // snippet.end
    // snippet.hide
    return .notes(dbPool)
}

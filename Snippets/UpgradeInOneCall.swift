// snippet.hide
// Stepwise.md, the overview: the one call an app makes at launch. Built by `swift build`, never
// run.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
let modelURL = URL(fileURLWithPath: "Model.xcdatamodeld")
let storeURL = URL(fileURLWithPath: "Model.sqlite")
let policies = PolicyRegistry()
// snippet.show
let upgrader = try Upgrader(bundleAt: modelURL, policies: policies)
let report = try await upgrader.upgradeIfNeeded(storeAt: storeURL)
// snippet.hide
print(report)

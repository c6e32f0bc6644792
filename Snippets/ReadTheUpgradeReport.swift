// snippet.hide
// UpgradingAtLaunch.md, "Upgrade with async and await". Built by `swift build`, never run.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let upgrader = try Upgrader(bundleAt: URL(fileURLWithPath: "Notes.xcdatamodeld"), policies: PolicyRegistry())
// snippet.show
let report = try await upgrader.upgradeIfNeeded(storeAt: storeURL)
switch report.outcome {
case .noStore: break  // a first launch: create the store at the current version
case .upToDate: break
case .upgraded: print(report)  // "upgraded Notes 1 → Notes 3 in 2 step(s), 0.41 s"
}

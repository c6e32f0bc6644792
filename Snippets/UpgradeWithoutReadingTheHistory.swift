// snippet.hide
// UpgradingAtLaunch.md, the overview: the static call that reads the whole history only when the
// store needs an upgrade. Built by `swift build`, never run.
import Foundation
import Stepwise

let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let policies = PolicyRegistry()
// snippet.show
let report = try await Upgrader.upgradeIfNeeded(
    storeAt: storeURL, bundleAt: Bundle.main.url(forResource: "Model", withExtension: "momd")!,
    policies: policies)
// snippet.hide
print(report)

// snippet.hide
// UpgradingAtLaunch.md, "Follow progress". Built by `swift build`, never run.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
let storeURL = URL(fileURLWithPath: "Recipes.sqlite")
let upgrader = try Upgrader(bundleAt: URL(fileURLWithPath: "Recipes.xcdatamodeld"), policies: PolicyRegistry())
// snippet.show
for try await event in upgrader.events(upgradingStoreAt: storeURL) {
    print(event)  // "step 2/3: Recipes 2 → Recipes 3 (explicit)", …, "finished: …"
}

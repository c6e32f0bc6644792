// snippet.hide
// ComingFromCoreData.md, "Coming from SwiftData": the launch call with the app's compiled model.
// Built by `swift build`, never run.
import Foundation
import Stepwise

let storeURL = URL(fileURLWithPath: "Recipes.store")
// snippet.show
let model = Bundle.main.url(forResource: "Recipes 2", withExtension: "mom")!
let report = try await Upgrader.upgradeIfNeeded(storeAt: storeURL, bundleAt: model)
// snippet.hide
print(report)

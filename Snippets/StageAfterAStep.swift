// snippet.hide
// ComingFromCoreData.md, "A staged migration, translated": Core Data's custom stage as a
// `MigrationStage`. Built by `swift build`, never run.
import Foundation
// snippet.show
import GRDB
import Stepwise

// snippet.hide
let modelURL = URL(fileURLWithPath: "Notes.xcdatamodeld")
let storeURL = URL(fileURLWithPath: "Notes.sqlite")
let policies = PolicyRegistry()
// snippet.show
let stage = MigrationStage(
    from: "Notes 2", to: "Notes 3",
    didMigrate: { db, objects in
        try db.execute(sql: #"UPDATE "ZNOTE" SET "ZTITLE" = 'Untitled' WHERE "ZTITLE" = ''"#)
    })
let upgrader = try Upgrader(bundleAt: modelURL, policies: policies, stages: [stage])
let report = try await upgrader.upgradeIfNeeded(storeAt: storeURL)
// snippet.hide
print(report)

// snippet.hide
// UpgradingAtLaunch.md, "Custom work around a step". Built by `swift build`, never run.
import Foundation
// snippet.show
import GRDB
import Stepwise

// snippet.hide
let modelURL = URL(fileURLWithPath: "Notes.xcdatamodeld")
let policies = PolicyRegistry()
// snippet.show
let untitled = MigrationStage(
    from: "Notes 2", to: "Notes 3",
    willMigrate: { db, objects in
        // The step's private copy of the source, at "Notes 2", before pass 1.
        try db.execute(sql: #"DELETE FROM "ZNOTE" WHERE "ZBODY" IS NULL"#)
    },
    didMigrate: { db, objects in
        // The new store, at "Notes 3", before it is validated.
        try db.execute(sql: #"UPDATE "ZNOTE" SET "ZTITLE" = 'Untitled' WHERE "ZTITLE" = ''"#)
    })
let upgrader = try Upgrader(bundleAt: modelURL, policies: policies, stages: [untitled])
// snippet.hide
_ = upgrader

// snippet.hide
// WritingMappings.md, "Custom work around a step": a stage's two closures, one working with
// objects and one with SQL. Built by `swift build`, never run.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
let modelURL = URL(fileURLWithPath: "Notes.xcdatamodeld")
let policies = PolicyRegistry()
// snippet.show
let stage = MigrationStage(
    from: "Notes 2", to: "Notes 3",
    willMigrate: { db, objects in
        // The step's private copy of the source, at "Notes 2", before pass 1.
        for note in try objects.fetch("Note", where: .equal("title", "")) {
            try objects.update(note.id, ["title": note.string("body").map { String($0.prefix(40)) }])
        }
    },
    didMigrate: { db, objects in
        // The destination, at "Notes 3", after pass 2 and before validation,
        // so what it writes is validated too.
        try db.execute(sql: #"UPDATE "ZNOTE" SET "ZPINNED" = 0 WHERE "ZPINNED" IS NULL"#)
    })
let upgrader = try Upgrader(bundleAt: modelURL, policies: policies, stages: [stage])
// snippet.hide
_ = upgrader

import Foundation
import Stepwise
import Testing

/// `import Stepwise` alone brings GRDB: this file imports nothing else, yet names `Database`,
/// `DatabaseQueue` and `Int.fetchOne` (issue 13, D13).
///
/// It shows the usage but can't guard it: this test target also depends on GRDB, and other
/// files in it `import GRDB`, which makes GRDB's names visible here too (it still compiles with
/// StepwiseStore's `@_exported import GRDB` removed). A file compiled against Stepwise alone
/// fails without it ("cannot find type 'Database' in scope"); the guard is a target that
/// depends on Stepwise only, such as the plan's example tool (C3).
@Suite("GRDB comes with import Stepwise")
struct GRDBReexportTests {
    @Test("a store is written and read through GRDB's Database with only import Stepwise")
    func databaseWithOnlyStepwise() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("stepwise-reexport-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = ObjectModel("Notes") { Entity("Note") { Attribute("text", .string) } }
        let url = directory.appendingPathComponent("Notes.sqlite")
        try StoreCreator.createStore(at: url, model: model)

        let layout = try StoreLayout(model: model)
        func insert(_ text: String, in db: Database) throws {
            _ = try ObjectContext(db, layout: layout).insert("Note", ["text": text])
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try insert("one", in: db)
            try insert("two", in: db)
        }
        let count = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZNOTE") }
        try queue.close()
        #expect(count == 2)
    }
}

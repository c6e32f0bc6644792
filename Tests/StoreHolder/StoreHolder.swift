// stepwise-store-holder: a child process for the shared-store tests (StoreAccessTests).
//
//   stepwise-store-holder STORE access|bare ROWS WRITE_SECONDS
//
// Opens STORE (a Recipes sample store) as a GRDB DatabasePool, in WAL mode: holding a
// StoreAccess for as long as the pool is open ("access"), or without it ("bare"). Writes a
// Recipe named "child-<n>" every 50 ms for WRITE_SECONDS seconds, recording the count
// written so far in the file ROWS after each commit, then creates ROWS.idle and keeps the
// store open until a file ROWS.stop appears (or 60 s pass). Then it closes the pool, then
// the access, creates ROWS.closed and exits 0. ROWS.open appears once the store is open.
import Foundation
import GRDB
import Stepwise

@main
enum StoreHolder {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, let writeSeconds = Double(arguments[4]) else {
            FileHandle.standardError.write(
                Data("usage: stepwise-store-holder STORE access|bare ROWS WRITE_SECONDS\n".utf8))
            exit(2)
        }
        let store = URL(fileURLWithPath: arguments[1])
        let rowsFile = URL(fileURLWithPath: arguments[3])
        let stopFile = URL(fileURLWithPath: arguments[3] + ".stop")

        do {
            let access = arguments[2] == "access" ? try StoreAccess(storeAt: store) : nil
            var pool: DatabasePool? = try DatabasePool(path: store.path)
            _ = FileManager.default.createFile(atPath: rowsFile.path + ".open", contents: Data())
            var written = 0
            let writeUntil = Date().addingTimeInterval(writeSeconds)
            while Date() < writeUntil {
                written += 1
                let name = "child-\(written)"
                try pool?.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO ZRECIPE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCUISINE, ZDIRECTIONS)
                            SELECT Z_MAX + 1, Z_ENT, 1, ?, 'Italian', 'Stir.' FROM Z_PRIMARYKEY WHERE Z_NAME = 'Recipe'
                            """, arguments: [name])
                    try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Recipe'")
                }
                try Data("\(written)".utf8).write(to: rowsFile, options: .atomic)
                usleep(50_000)
            }
            _ = FileManager.default.createFile(atPath: rowsFile.path + ".idle", contents: Data())
            let giveUp = Date().addingTimeInterval(60)
            while !FileManager.default.fileExists(atPath: stopFile.path), Date() < giveUp {
                usleep(20_000)
            }
            try pool?.close()
            pool = nil
            access?.close()
            _ = FileManager.default.createFile(atPath: rowsFile.path + ".closed", contents: Data())
        } catch {
            FileHandle.standardError.write(Data("stepwise-store-holder: \(error)\n".utf8))
            exit(1)
        }
    }
}

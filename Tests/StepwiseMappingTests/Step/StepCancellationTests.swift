import Foundation
import GRDB
import StepwiseMapping
import Testing

@Suite("StepCancellation")
struct StepCancellationTests {
    /// `sqlite3_interrupt` does nothing when no statement runs at that instant: a cancellation
    /// that lands just before a long statement starts must still stop it.
    @Test("a cancellation between two statements still interrupts the next one")
    func cancelledBeforeAStatementStarts() throws {
        let queue = try DatabaseQueue()
        let cancellation = StepCancellation()
        var interrupted = false
        #expect(throws: CancellationError.self) {
            try cancellation.interrupting(queue) {
                try queue.inDatabase { db in
                    // Nothing runs on the connection now: the interrupt alone would be lost.
                    cancellation.cancel()
                    do {
                        // Minutes of work unless interrupted.
                        _ = try Int.fetchOne(
                            db,
                            sql: """
                                WITH RECURSIVE "counter"("n") AS (SELECT 1 UNION ALL SELECT "n" + 1 FROM "counter" WHERE "n" < 4000000000)
                                SELECT count(*) FROM "counter"
                                """)
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
                        interrupted = true
                        throw error
                    }
                }
            }
        }
        #expect(interrupted, "the statement started after cancel() was interrupted")
    }
}

import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Seeds Events v1 stores with known time stamps, for tests.
///
/// ```swift
/// try StoreCreator.createStore(at: url, model: EventsHistory.v1)
/// try EventsSeed.seed(at: url)
/// ```
package enum EventsSeed {
    /// The default time stamps, in insertion (and so primary-key) order: the reference date of
    /// Core Data's dates (2001-01-01T00:00:00Z), the Unix epoch, a leap day with a time of day,
    /// one before 1970, and one without a time stamp.
    package static let timeStamps: [Date?] = [
        Date(timeIntervalSince1970: 978_307_200),
        Date(timeIntervalSince1970: 0),
        Date(timeIntervalSince1970: 1_709_210_096),
        Date(timeIntervalSince1970: -86_400),
        nil,
    ]

    /// Inserts one Event per time stamp into an existing Events v1 store and returns how many
    /// rows it inserted.
    @discardableResult
    package static func seed(at url: URL, timeStamps: [Date?] = timeStamps) throws -> Int {
        let layout = try StoreLayout(model: EventsHistory.v1)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            for timeStamp in timeStamps {
                _ = try objects.insert("Event", ["timeStamp": timeStamp])
            }
        }
        return timeStamps.count
    }
}

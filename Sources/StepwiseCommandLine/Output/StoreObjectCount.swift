import Foundation
import Stepwise

/// How many objects a store holds, for the first step's progress bar.
enum StoreObjectCount {
    /// The rows of the store's entity tables (`Z<ENTITY>`, not the `Z_` bookkeeping and join
    /// tables), read from a private copy with its `-wal`; nil when the store can't be read.
    static func estimate(storeAt url: URL) -> Int? {
        guard let inspection = try? StoreInspection.inspect(storeAt: url) else { return nil }
        return inspection.tables.filter { $0.name.hasPrefix("Z") && !$0.name.hasPrefix("Z_") }.map(\.rows).reduce(0, +)
    }
}

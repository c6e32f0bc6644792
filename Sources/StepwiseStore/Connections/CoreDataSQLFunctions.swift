import Foundation
import GRDB

/// The SQL functions Core Data registers on each connection it opens, that the triggers it puts
/// in a store call (decompiled `NSSQLiteRegisterFunctions`, Core Data 17.0).
///
/// A store with derived attributes (`Z_DA_…` triggers) or Core Data's count triggers (`ZT_…`)
/// can't take a single write on a connection that lacks them: SQLite fails the statement with
/// "no such function". The Photos stores of the corpus (`real-stores/RhetTbull-PhotoScript`,
/// macOS 13 and 15) have both kinds.
///
/// Two kinds of function:
/// - *notifications* tell a live Core Data stack which objects a trigger changed, so that its
///   contexts refresh them. No context watches a store Stepwise writes, so they do nothing and
///   return NULL, as Core Data's own do on a connection without a stack.
/// - *values* compute what a derivation stores: the string functions and `now()`. They compute
///   what Core Data computes, so a value a trigger writes during an upgrade is the value Core
///   Data would have written.
package enum CoreDataSQLFunctions {
    /// The notification functions, by name and argument count (-1: any number).
    static let notifications: [(name: String, argumentCount: Int?)] = [
        ("NSCoreDataTriggerUpdateAffectedObjectValue", 5),
        ("NSCoreDataDATriggerInsertUpdatedAffectedObjectValue", 5),
        ("NSCoreDataDATriggerUpdatedAffectedObjectValue", 5),
        ("NSCoreDataDATriggerMergeableString", 5),
        ("NSPersistentHistoryBatchDeleteUpdateTrigger", nil),
    ]

    /// The names of every function ``register(in:now:)`` adds.
    package static var names: [String] {
        notifications.map(\.name) + ["NSCoreDataToLower", "NSCoreDataToUpper", "NSCoreDataCanonical", "NSCoreDataNow"]
    }

    /// Adds Core Data's trigger functions to `db`.
    ///
    /// - parameters:
    ///   - db: A connection that may write a store with Core Data's triggers.
    ///   - now: The clock `NSCoreDataNow()` reads; tests pass a fixed one.
    package static func register(in db: Database, now: @escaping @Sendable () -> Date = { Date() }) {
        for function in notifications {
            db.add(function: DatabaseFunction(function.name, argumentCount: function.argumentCount) { _ in nil })
        }
        db.add(function: stringFunction("NSCoreDataToLower") { $0.lowercased() })
        db.add(function: stringFunction("NSCoreDataToUpper") { $0.uppercased() })
        db.add(function: stringFunction("NSCoreDataCanonical", transform: canonical))
        // Core Data stores a date as seconds since 2001-01-01 UTC (`timeIntervalSinceReferenceDate`).
        db.add(
            function: DatabaseFunction("NSCoreDataNow", argumentCount: 0) { _ in now().timeIntervalSinceReferenceDate })
    }

    /// The canonical form `[cd]` comparisons and `canonical:` derivations use: case and
    /// diacritics folded away.
    package static func canonical(_ string: String) -> String {
        string.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// A one-argument function of a string; NULL and non-text values pass through unchanged.
    private static func stringFunction(
        _ name: String, transform: @escaping @Sendable (String) -> String
    ) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 1, pure: true) { values in
            guard let string = String.fromDatabaseValue(values[0]), values[0].storage.isText else { return values[0] }
            return transform(string)
        }
    }
}

extension DatabaseValue.Storage {
    fileprivate var isText: Bool {
        if case .string = self { return true }
        return false
    }
}

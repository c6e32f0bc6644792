import Foundation

extension ComparisonOperator {
    /// Whether `lhs OP[options] rhs` holds, with the semantics the SQL compiler reproduces.
    ///
    /// - **nil**: `== nil` and `!= nil` test nullness, and nil equals nil (`x != "a"` holds
    ///   when `x` is nil, as in `NSPredicate`; SQL's `IS NOT`). Every other operator is false
    ///   when either side is nil (SQL's `NULL < 1` is not true). A `Double.nan` counts as nil,
    ///   since SQLite stores NaN as NULL.
    /// - **Numbers** compare numerically, integers and doubles exactly (`2 == 2.0`).
    /// - **Strings** compare by Unicode scalars (SQLite's BINARY collation); `[c]`/`[d]` fold
    ///   both sides first with ``ComparisonOptions/fold(_:)``.
    /// - **Mixed kinds** order as SQLite orders storage classes: numbers, then strings, then
    ///   data; they are never equal (`"1" != 1`).
    /// - **Objects** are equal when their ``/StepwiseStore/ObjectID``s are; they have no order.
    /// - `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` hold only between two strings.
    /// - `IN` needs a list on the right (``MappingValue/array(_:)``, ``MappingValue/objects(_:)``
    ///   or nil, which holds nothing) and holds when `lhs` equals (`==`) one of its elements.
    ///
    /// - throws: ``MappingError`` with kind ``MappingError/Kind/invalidValue(_:)`` when `IN`
    ///   has something other than a list on its right.
    package func evaluate(
        _ lhs: MappingValue, _ rhs: MappingValue, options: ComparisonOptions = []
    ) throws(MappingError) -> Bool {
        let lhs = Self.folded(lhs.normalized, options)
        let rhs = Self.folded(rhs.normalized, options)
        switch self {
        case .equal: return Self.isEqual(lhs, rhs)
        case .notEqual: return !Self.isEqual(lhs, rhs)
        case .less: return Self.order(lhs, rhs).map { $0 < 0 } ?? false
        case .lessOrEqual: return Self.order(lhs, rhs).map { $0 <= 0 } ?? false
        case .greater: return Self.order(lhs, rhs).map { $0 > 0 } ?? false
        case .greaterOrEqual: return Self.order(lhs, rhs).map { $0 >= 0 } ?? false
        case .beginsWith, .endsWith, .contains, .like:
            guard case .string(let text) = lhs, case .string(let other) = rhs else { return false }
            switch self {
            case .beginsWith: return TextMatching.hasPrefix(text, other)
            case .endsWith: return TextMatching.hasSuffix(text, other)
            case .contains: return TextMatching.contains(text, other)
            default: return TextMatching.matches(text, TextMatching.likePattern(other))
            }
        case .in:
            switch rhs {
            case .null: return false
            case .array(let elements): return elements.contains { Self.isEqual(lhs, $0.normalized) }
            case .objects(let ids):
                guard case .object(let id) = lhs else { return false }
                return ids.contains(id)
            default:
                throw MappingError(
                    .invalidValue("IN needs a list or a to-many key path on its right, found \(rhs.literalDescription)")
                )
            }
        }
    }

    /// Equality as SQLite's `IS` without type affinity.
    static func isEqual(_ lhs: MappingValue, _ rhs: MappingValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)): return TextMatching.isIdentical(a, b)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { isEqual($0.normalized, $1.normalized) }
        default:
            if let order = order(lhs, rhs) { return order == 0 }
            return lhs == rhs
        }
    }

    /// -1, 0 or 1 as SQLite orders two non-null values without affinity; nil when either is
    /// nil or has no order (objects, lists).
    static func order(_ lhs: MappingValue, _ rhs: MappingValue) -> Int? {
        guard let leftClass = lhs.storageClassRank, let rightClass = rhs.storageClassRank else { return nil }
        guard leftClass == rightClass else { return leftClass < rightClass ? -1 : 1 }
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.double(let a), .double(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.integer(let a), .double(let b)): return compare(a, b)
        case (.double(let a), .integer(let b)): return -compare(b, a)
        case (.string(let a), .string(let b)): return TextMatching.compare(a, b)
        case (.data(let a), .data(let b)): return TextMatching.compareBytes(a, b)
        default: return nil
        }
    }

    /// An integer and a double compared exactly, as SQLite's `sqlite3IntFloatCompare` does:
    /// converting the integer to a double would round integers above 2^53.
    static func compare(_ integer: Int64, _ double: Double) -> Int {
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        let truncated = double.rounded(.towardZero)
        let whole = Int64(truncated)
        if integer != whole { return integer < whole ? -1 : 1 }
        if double > truncated { return -1 }
        if double < truncated { return 1 }
        return 0
    }

    private static func folded(_ value: MappingValue, _ options: ComparisonOptions) -> MappingValue {
        guard !options.isEmpty else { return value }
        switch value {
        case .string(let text): return .string(options.fold(text))
        case .array(let elements): return .array(elements.map { folded($0, options) })
        default: return value
        }
    }
}

extension MappingValue {
    /// SQLite's storage-class order: numbers, text, blobs. Nil for nil, objects and lists.
    fileprivate var storageClassRank: Int? {
        switch self {
        case .integer, .double: return 1
        case .string: return 2
        case .data: return 3
        case .null, .object, .objects, .array, .transformable, .composite: return nil
        }
    }

    /// NaN becomes nil, as SQLite stores it.
    fileprivate var normalized: MappingValue {
        if case .double(let value) = self, value.isNaN { return .null }
        return self
    }
}

import Foundation

/// Typed access to the values of a keyed archive, turning every malformed value into
/// ``ModelError/Kind/unreadableCompiledModel(_:)`` naming `origin`. Values come as
/// ``BinaryPropertyList/Value``s: a reference (`.uid`) is resolved here, `$null` reads as nil.
struct ArchiveAccess {
    typealias Value = BinaryPropertyList.Value

    let archive: KeyedArchive
    /// What errors name: a `.mom` file's path, or a store's model cache.
    let origin: String

    func unreadable(_ reason: String) -> ModelError {
        ModelError(path: origin, kind: .unreadableCompiledModel(reason))
    }

    /// Runs an archive access, its format error made an `unreadableCompiledModel`.
    func read<T>(_ body: () throws(BinaryPropertyList.FormatError) -> T) throws(ModelError) -> T {
        do {
            return try body()
        } catch {
            throw unreadable(error.reason)
        }
    }

    /// What `value` stands for: a reference resolved (nil for `$null`), anything else itself.
    func resolved(_ value: Value?) throws(ModelError) -> Value? {
        guard let value else { return nil }
        guard case .uid(let uid) = value else { return value }
        return try read { () throws(BinaryPropertyList.FormatError) in try archive.value(uid) }
    }

    /// The archived object `value` refers to; nil when there is none or it is `$null`.
    func object(_ value: Value?, _ what: @autoclosure () -> String) throws(ModelError) -> KeyedArchive.Object? {
        guard let value else { return nil }
        guard case .uid(let uid) = value else { throw unreadable("\(what()) is not a reference to an object") }
        return try read { () throws(BinaryPropertyList.FormatError) in try archive.object(uid) }
    }

    /// The string `value` is or refers to (a plain string, or an archived `NSString` or
    /// `NSMutableString`); nil when absent.
    func string(_ value: Value?, _ what: @autoclosure () -> String) throws(ModelError) -> String? {
        switch try resolved(value) {
        case nil: return nil
        case .string(let text)?: return text
        case .dictionary(let fields)? where fields["$class"] != nil:
            guard case .string(let text)? = try resolved(fields["NS.string"]) else {
                throw unreadable("\(what()) is an object that is not a string")
            }
            return text
        default: throw unreadable("\(what()) is not a string")
        }
    }

    /// The integer `value` is or refers to; nil when absent.
    func integer(_ value: Value?, _ what: @autoclosure () -> String) throws(ModelError) -> Int? {
        switch try resolved(value) {
        case nil: return nil
        case .integer(let number)?: return Int(number)
        default: throw unreadable("\(what()) is not an integer")
        }
    }

    /// Whether a flag is set: written as a boolean (`NSIsOptional`), only when true.
    func flag(_ value: Value?) throws(ModelError) -> Bool {
        switch try resolved(value) {
        case .bool(let flag)?: return flag
        case .integer(let number)?: return number != 0
        default: return false
        }
    }

    /// The elements of the archived array or set `value` refers to (references, unresolved);
    /// empty when absent.
    func elements(_ value: Value?, _ what: @autoclosure () -> String) throws(ModelError) -> [Value] {
        guard let collection = try object(value, what()) else { return [] }
        let kinds: Set<String> = [
            "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet",
        ]
        guard kinds.contains(collection.className) else {
            throw unreadable("\(what()) is an \(collection.className), not an array or a set")
        }
        return try read { () throws(BinaryPropertyList.FormatError) in
            try archive.elements(of: collection).map { Value.uid($0) }
        }
    }

    /// The entries of the archived dictionary `value` refers to, keyed by string, values
    /// unresolved; empty when absent. Reads `NSDictionary`, `NSMutableDictionary` and the
    /// `NSKnownKeysDictionary1` Core Data archives some models' entities in (Screen Time, Photos).
    func dictionary(_ value: Value?, _ what: @autoclosure () -> String) throws(ModelError)
        -> [(key: String, value: Value)]
    {
        guard let dictionary = try object(value, what()) else { return [] }
        switch dictionary.className {
        case "NSDictionary", "NSMutableDictionary":
            let entries = try read { () throws(BinaryPropertyList.FormatError) in try archive.entries(of: dictionary) }
            var result: [(key: String, value: Value)] = []
            for entry in entries {
                guard let key = try string(.uid(entry.key), "a key of \(what())") else {
                    throw unreadable("\(what()) has a nil key")
                }
                result.append((key, .uid(entry.value)))
            }
            return result
        case "NSKnownKeysDictionary1":
            // `values` holds one slot per key of `searchMapping.keys`; `emptyToken` marks a slot
            // without a value.
            guard let mapping = try object(dictionary.fields["searchMapping"], "the key mapping of \(what())") else {
                throw unreadable("\(what()) has no key mapping")
            }
            let keys = try elements(mapping.fields["keys"], "the keys of \(what())")
            let values = try elements(dictionary.fields["values"], "the values of \(what())")
            guard keys.count == values.count else {
                throw unreadable("\(what()) has \(keys.count) keys for \(values.count) values")
            }
            let emptyToken = try string(dictionary.fields["emptyToken"], "the empty token of \(what())")
            var result: [(key: String, value: Value)] = []
            for (key, value) in zip(keys, values) {
                if let emptyToken, case .string(emptyToken)? = try resolved(value) { continue }
                guard let keyText = try string(key, "a key of \(what())") else {
                    throw unreadable("\(what()) has a nil key")
                }
                result.append((keyText, value))
            }
            return result
        default:
            throw unreadable("\(what()) is an \(dictionary.className), not a dictionary")
        }
    }

    /// A dictionary of strings (user info): numbers and booleans as Xcode's model files spell
    /// them, so the model equals the one read from the source. A value Xcode can't write, such
    /// as the array Photos keeps under `_NSLocationAttributeDerivedComponents`, is left out: user
    /// info has no part in a store's schema or hashes.
    func strings(_ value: Value?, _ what: @autoclosure () -> String) throws(ModelError) -> [String: String] {
        var result: [String: String] = [:]
        for entry in try dictionary(value, what()) {
            switch try resolved(entry.value) {
            case .string(let text)?: result[entry.key] = text
            case .integer(let number)?: result[entry.key] = String(number)
            case .real(let number)?: result[entry.key] = String(number)
            case .bool(let flag)?: result[entry.key] = flag ? "YES" : "NO"
            case nil: result[entry.key] = ""
            case .dictionary(let fields)? where fields["NS.string"] != nil:
                result[entry.key] = try string(entry.value, "the value of '\(entry.key)' in \(what())")
            default: continue
            }
        }
        return result
    }
}

/// The ordered list of a model's versions, oldest first.
///
/// A `.xcdatamodeld` bundle stores no order, so a history comes from one of:
/// - an explicit list in code: ``init(_:)``;
/// - a history file beside the bundle (see ``ModelBundle``);
/// - by default, ``naturalOrder(_:)``: "Model" < "Model 2" < "Model 10", "v1.1.2" < "v1.2.0".
///
/// An order that can't be told from the names is reported, never guessed.
public struct VersionHistory: Sendable, Hashable {
    /// The versions, oldest first.
    public var versions: [ObjectModel]

    /// A history in exactly this order, oldest first.
    public init(_ versions: [ObjectModel]) {
        self.versions = versions
    }

    /// The version names, oldest first.
    public var names: [String] { versions.map(\.name) }

    /// The newest version.
    public var latest: ObjectModel? { versions.last }

    /// The version with this name.
    public func version(named name: String) -> ObjectModel? {
        versions.first { $0.name == name }
    }

    /// The position of a version in the history, 0 for the oldest.
    public func index(of name: String) -> Int? {
        versions.firstIndex { $0.name == name }
    }

    /// Whether `name`, a version unknown to this history, reads as a *later* version of the
    /// same model: it shares the names' stem and sorts after the newest by natural order
    /// ("Recipes 5" after "Recipes 4"; not "Other").
    public func namesALaterVersion(_ name: String) -> Bool {
        guard let latest = latest?.name, version(named: name) == nil else { return false }
        return Self.stem(name) == Self.stem(latest) && NaturalKey(latest) < NaturalKey(name)
    }

    /// Sorts version names naturally: digit runs compare as numbers, an unversioned name
    /// ("Model") comes before its numbered versions ("Model 2").
    ///
    /// Throws ``VersionHistoryError/ambiguousOrder(_:reason:)`` when names don't share a
    /// stem ("Foo 2" and "Bar 3") or two names sort equal ("Model 2" and "Model 02").
    public static func naturalOrder(_ names: [String]) throws(VersionHistoryError) -> [String] {
        let stems = Set(names.map(stem))
        if stems.count > 1 {
            throw .ambiguousOrder(
                names.sorted(),
                reason:
                    "the names don't share a common stem (\(stems.sorted().map { "'\($0)'" }.joined(separator: ", ")))")
        }
        // Equal keys are ordered by the names themselves, so the pair reported below doesn't
        // depend on the order a bundle's folder listed its versions in.
        let sorted = names.sorted { (NaturalKey($0), $0) < (NaturalKey($1), $1) }
        for (first, second) in zip(sorted, sorted.dropFirst()) where NaturalKey(first) == NaturalKey(second) {
            throw .ambiguousOrder([first, second], reason: "'\(first)' and '\(second)' name the same version number")
        }
        return sorted
    }

    /// The text before the first digit, without surrounding spaces, dots, dashes or underscores.
    static func stem(_ name: String) -> String {
        let prefix = name.prefix { !$0.isNumber }
        return prefix.trimmingCharacters(in: " ._-vV")
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(self).trimmingCharacters(in: set)
    }
}

/// A name split into text and number runs, compared run by run.
struct NaturalKey: Comparable {
    enum Run: Comparable {
        case number(UInt64)
        case text(String)
    }

    let runs: [Run]

    init(_ name: String) {
        var runs: [Run] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if inDigits {
                runs.append(.number(UInt64(current) ?? .max))
            } else {
                // Spaces, dots and dashes separate numbers; they don't order versions.
                let text = current.filter { !" ._-".contains($0) }.lowercased()
                if !text.isEmpty { runs.append(.text(text)) }
            }
            current = ""
        }
        for character in name {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inDigits {
                flush()
                inDigits = isDigit
            }
            current.append(character)
        }
        flush()
        self.runs = runs
    }

    static func < (lhs: NaturalKey, rhs: NaturalKey) -> Bool {
        lhs.runs.lexicographicallyPrecedes(rhs.runs)
    }
}

/// A version history that can't be built.
public enum VersionHistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The order can't be told from the names.
    case ambiguousOrder([String], reason: String)
    /// The history file names a version the bundle doesn't have, or leaves one out.
    case historyFileMismatch(file: String, unknown: [String], missing: [String])

    public var description: String {
        switch self {
        case .ambiguousOrder(let names, let reason):
            return
                "can't order the model versions \(names.map { "'\($0)'" }.joined(separator: ", ")): \(reason). List them oldest first, one per line, in a history file beside the bundle (<Bundle>.history), or pass an explicit order."
        case .historyFileMismatch(let file, let unknown, let missing):
            var parts: [String] = []
            if !unknown.isEmpty { parts.append("names unknown versions \(unknown.joined(separator: ", "))") }
            if !missing.isEmpty { parts.append("leaves out \(missing.joined(separator: ", "))") }
            return "\(file) \(parts.joined(separator: " and ")). List every version in the bundle, oldest first."
        }
    }
}

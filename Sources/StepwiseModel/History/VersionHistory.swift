/// The ordered list of a model's versions, oldest first.
///
/// A `.xcdatamodeld` bundle stores no order, so a history comes from one of:
/// - an explicit list in code: ``init(_:)``;
/// - a history file beside the bundle (see `ModelBundle`);
/// - by default, the history itself (``VersionOrder``): ``naturalOrder(_:)`` within a stem,
///   "Model" < "Model 2" < "Model 10", "v1.1.2" < "v1.2.0", and ``OrderClue``s between stems.
///
/// An order that can't be told is reported, never guessed.
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
    /// Throws ``ModelError/Kind/ambiguousOrder(_:reason:)`` when names don't share a
    /// stem ("Foo 2" and "Bar 3") or two names sort equal ("Model 2" and "Model 02").
    public static func naturalOrder(_ names: [String]) throws(ModelError) -> [String] {
        let stems = Set(names.map(stem))
        if stems.count > 1 {
            throw .ambiguousOrder(
                names.sorted(),
                reason:
                    "the names don't share a common stem (\(stems.sorted().map { "'\($0)'" }.joined(separator: ", ")))")
        }
        // Equal keys are ordered by the names themselves, so the pair reported below doesn't
        // depend on the order a bundle's folder listed its versions in. Each key is made once:
        // this runs at every launch, on bundles of a hundred versions or more.
        let sorted = names.map { (key: NaturalKey($0), name: $0) }.sorted { ($0.key, $0.name) < ($1.key, $1.name) }
        for (first, second) in zip(sorted, sorted.dropFirst()) where first.key == second.key {
            throw .ambiguousOrder(
                [first.name, second.name], reason: "'\(first.name)' and '\(second.name)' name the same version number")
        }
        return sorted.map(\.name)
    }

    /// Sorts version names naturally, as ``naturalOrder(_:)`` does, and orders names of
    /// different stems by what the bundle itself says: the version named after the bundle is its
    /// first, and the version Xcode marks as current is its last.
    ///
    /// Core Data never orders versions (it finds the store's version by hashes and infers or
    /// looks up a mapping to the current one), so apps name them as they like. Three real
    /// histories change stems once: Artsy's `ArtsyPartner`, `ArtsyPartner 2`…`5`, then
    /// `ArtsyFolio v1.4`…`v2.7.0` (current); a 13-version app's `CyfaceModel`, then `2`…`13`;
    /// an SDK's `SFMCModel`, then `214.00`…`244.01`. Within each stem the order is natural;
    /// the stems, each a block of versions, are ordered by the bundle's name (its first
    /// version) and the current version. A bundle's mapping models and renaming identifiers
    /// can order more stems (``VersionOrder``, as `ModelHistory` works it out).
    ///
    /// - parameters:
    ///   - names: The version names.
    ///   - first: The bundle's own name (`ArtsyPartner` for `ArtsyPartner.xcdatamodeld`), which
    ///     Xcode gives the first version; ignored when no version has it.
    ///   - last: The current version's name, when the bundle names one.
    /// - throws: ``ModelError/Kind/ambiguousOrder(_:reason:)`` when the two hints leave two
    ///   stems unordered, naming their versions; and as ``naturalOrder(_:)`` does within a stem.
    public static func naturalOrder(_ names: [String], first: String?, last: String?) throws(ModelError) -> [String] {
        let ordering = VersionOrdering(
            names: names, bundleName: first, current: last.map { .currentVersion($0, file: ".xccurrentversion") })
        switch ordering.order() {
        case .success(let order): return order.names
        case .failure(let error): throw error
        }
    }

    /// The text before the first digit, without surrounding spaces, dots, dashes or underscores.
    static func stem(_ name: String) -> String {
        if let stem = asciiStem(name) { return stem }
        let prefix = name.prefix { !$0.isNumber }
        return prefix.trimmingCharacters(in: " ._-vV")
    }

    /// ``stem(_:)`` of an ASCII name, byte by byte (the same result: in ASCII only the digits
    /// are numbers); nil for any other name. Names are ordered at every launch.
    private static func asciiStem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let trimmed: [UInt8] = Array(" ._-vV".utf8)
        var end = bytes.firstIndex(where: NaturalKey.isDigit) ?? bytes.endIndex
        var start = bytes.startIndex
        while start < end, trimmed.contains(bytes[start]) { start += 1 }
        while end > start, trimmed.contains(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
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
        if let runs = Self.asciiRuns(name) {
            self.runs = runs
            return
        }
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

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The runs of an ASCII name, byte by byte: the same runs as the `Character` loop, which
    /// costs about a microsecond per name; nil for any other name. Names are ordered at
    /// every launch, and bundles reach a hundred versions and more.
    private static func asciiRuns(_ name: String) -> [Run]? {
        let bytes = Array(name.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let separators: [UInt8] = Array(" ._-".utf8)
        var runs: [Run] = []
        var start = 0
        while start < bytes.count {
            let inDigits = isDigit(bytes[start])
            var end = start + 1
            while end < bytes.count, isDigit(bytes[end]) == inDigits { end += 1 }
            let run = bytes[start..<end]
            if inDigits {
                runs.append(.number(UInt64(String(decoding: run, as: UTF8.self)) ?? .max))
            } else {
                let text = run.filter { !separators.contains($0) }.map { byte in
                    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                }
                if !text.isEmpty { runs.append(.text(String(decoding: text, as: UTF8.self))) }
            }
            start = end
        }
        return runs
    }

    static func < (lhs: NaturalKey, rhs: NaturalKey) -> Bool {
        lhs.runs.lexicographicallyPrecedes(rhs.runs)
    }
}

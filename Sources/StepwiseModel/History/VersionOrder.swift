import Foundation

/// The order of a model's versions, oldest first, and how it was found: what `stepwise plan`
/// and `stepwise check` print as "Order: …".
///
/// Core Data never orders versions: it finds a store's version by its hashes and infers, or
/// looks up, a mapping to the current one. Stepwise plans a path through the versions, so it
/// needs their order, and a `.xcdatamodeld` bundle stores none. It comes from one of:
/// - a history file beside the bundle, `<Name>.history` (``Source/historyFile(_:)``);
/// - a history given in code (``Source/givenInCode``);
/// - the history itself (``Source/workedOut(_:)``): the names' natural order within each stem,
///   and, between stems, the ``OrderClue``s the bundle holds.
///
/// ```swift
/// let order = try ModelHistory(bundleAt: bundleURL).order.get()
/// print("Order: \(order)")
/// // Order: CyfaceModel, 2, …, 13 — natural order of the names within each stem;
/// //        'CyfaceModel' first as the bundle's name
/// ```
///
/// As JSON: `{"versions": [...], "foundBy": "historyFile" | "givenInCode" | "oneVersion" |
/// "workedOut", "file": path or null, "clues": [...], "description": "…"}`, each clue as
/// ``OrderClue`` encodes it.
public struct VersionOrder: Sendable, Hashable {
    /// The version names, oldest first.
    public var names: [String]
    /// How the order was found.
    public var source: Source

    /// How an order was found.
    public enum Source: Sendable, Hashable {
        /// A bundle of one version.
        case oneVersion
        /// Listed in the history file at this path (`<Name>.history` beside the bundle).
        case historyFile(String)
        /// Listed in code (``VersionHistory/init(_:)``).
        case givenInCode
        /// Worked out from the history itself, by these clues: natural order within each stem
        /// first, then what orders the stems.
        case workedOut([OrderClue])
    }

    /// An order found by `source`.
    ///
    /// - parameters:
    ///   - names: The version names, oldest first.
    ///   - source: How the order was found.
    public init(names: [String], source: Source) {
        self.names = names
        self.source = source
    }

    /// The clues the order was worked out from; none for an order that was listed.
    public var clues: [OrderClue] {
        if case .workedOut(let clues) = source { return clues }
        return []
    }

    /// How the order was found, as a phrase: "from Model.history", "natural order of the names".
    public var howFound: String {
        switch source {
        case .oneVersion: "one version"
        case .historyFile(let path): "from \(URL(fileURLWithPath: path).lastPathComponent)"
        case .givenInCode: "as given in code"
        case .workedOut(let clues):
            clues.map(\.description).joined(separator: "; ")
        }
    }

    /// The names, each run of three or more names of one stem shortened to its first and last
    /// (`CyfaceModel, 2, …, 13`): within a run the order is the names' natural order, so the
    /// ends say it all, and histories reach a hundred versions.
    public var abbreviatedNames: String {
        var parts: [String] = []
        var run: [String] = []
        func flush() {
            parts += run.count >= 3 ? [run[0], "…", run[run.count - 1]] : run
            run = []
        }
        for name in names {
            if let last = run.last, VersionHistory.stem(last) != VersionHistory.stem(name) { flush() }
            run.append(name)
        }
        flush()
        return parts.joined(separator: ", ")
    }
}

extension VersionOrder: CustomStringConvertible {
    /// `CyfaceModel, 2, …, 13 — natural order of the names within each stem; 'CyfaceModel'
    /// first as the bundle's name`.
    public var description: String {
        "\(abbreviatedNames) — \(howFound)"
    }
}

extension VersionOrder: Codable {
    private enum CodingKeys: String, CodingKey {
        case versions, foundBy, file, clues, description
    }

    private var foundBy: String {
        switch source {
        case .oneVersion: "oneVersion"
        case .historyFile: "historyFile"
        case .givenInCode: "givenInCode"
        case .workedOut: "workedOut"
        }
    }

    /// Every key, absent values as `null`, so that a reader needn't guess which are there.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var file: String?
        if case .historyFile(let path) = source { file = path }
        try container.encodeEveryKey([
            .versions: names, .foundBy: foundBy, .file: file, .clues: clues, .description: description,
        ])
    }

    /// Reads what ``encode(to:)`` wrote; `description` is made again from the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let names = try container.decode([String].self, forKey: .versions)
        let foundBy = try container.decode(String.self, forKey: .foundBy)
        switch foundBy {
        case "oneVersion": self.init(names: names, source: .oneVersion)
        case "historyFile":
            self.init(names: names, source: .historyFile(try container.decode(String.self, forKey: .file)))
        case "givenInCode": self.init(names: names, source: .givenInCode)
        case "workedOut":
            self.init(names: names, source: .workedOut(try container.decode([OrderClue].self, forKey: .clues)))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .foundBy, in: container, debugDescription: "unknown way to find an order: '\(foundBy)'")
        }
    }
}

extension Result where Success == VersionOrder, Failure == ModelError {
    /// The names in their order, or `names` in name order when the order can't be told: what a
    /// bundle lists its versions in either way (the problem stays in the result).
    package func names(orSorted names: [String]) -> [String] {
        switch self {
        case .success(let order): order.names
        case .failure: names.sorted()
        }
    }
}

import Foundation

/// Something in a history that says which of its versions comes first, when no history file
/// lists them (``VersionOrder/Source/workedOut(_:)``).
///
/// Within a stem (the text before a name's first digit) the names' natural order decides. The
/// stems are then ordered by the other clues, strongest first, and a weaker clue is consulted
/// only while the stronger ones leave the order open (`VersionOrdering`):
/// 1. what Xcode itself says: the version named after the bundle is its first, and the current
///    version (`.xccurrentversion`, a compiled folder's `VersionInfo.plist`) its last;
/// 2. mapping models, each from its source version to its destination;
/// 3. renaming identifiers: a version whose entity or property carries, as its renaming
///    identifier, the name that entity or property has in another version comes after it.
///
/// As JSON, every clue has the same keys: `{"kind", "version", "earlier", "later", "file",
/// "element", "renames", "stems", "description"}`, null where the kind has no such value.
public enum OrderClue: Sendable, Hashable {
    /// Within each of these stems, the names' natural order: "Model" < "Model 2" < "Model 10",
    /// "v1.9" < "v1.10". A name that is a bare number ("2", "214.00") has the empty stem.
    case naturalOrder(stems: [String])
    /// The version named after the bundle (`CyfaceModel` in `CyfaceModel.xcdatamodeld`) is its
    /// first: Xcode names a bundle's first version after it, and the next ones `<Name> 2`, ….
    case bundleName(String)
    /// The bundle's current version is its last: `file` is the `.xccurrentversion` or
    /// `VersionInfo.plist` that names it.
    case currentVersion(String, file: String)
    /// A mapping model, read from `file`, maps stores of `from` to `to`.
    case mappingModel(from: String, to: String, file: String)
    /// In `later`, `element` (`Item.title`, or an entity `Product`) has a renaming identifier
    /// naming `renames` (`Item.name`, `Item`), which `earlier` has under that name: a renaming
    /// identifier is the name "in an earlier version" (Core Data's
    /// `NSPropertyDescription.renamingIdentifier`).
    case renamingIdentifier(earlier: String, later: String, element: String, renames: String)

    /// The clue's kind, as JSON names it.
    public var kind: String {
        switch self {
        case .naturalOrder: "naturalOrder"
        case .bundleName: "bundleName"
        case .currentVersion: "currentVersion"
        case .mappingModel: "mappingModel"
        case .renamingIdentifier: "renamingIdentifier"
        }
    }
}

extension OrderClue: CustomStringConvertible {
    /// The clue as a phrase of `stepwise plan`'s "Order: …" line.
    public var description: String {
        switch self {
        case .naturalOrder(let stems):
            stems.count > 1 ? "natural order of the names within each stem" : "natural order of the names"
        case .bundleName(let name):
            "'\(name)' first as the bundle's name"
        case .currentVersion(let name, let file):
            "'\(name)' last as the current version (\(URL(fileURLWithPath: file).lastPathComponent))"
        case .mappingModel(let from, let to, let file):
            "'\(from)' before '\(to)' by the mapping model \(URL(fileURLWithPath: file).lastPathComponent)"
        case .renamingIdentifier(let earlier, let later, let element, let renames):
            "'\(earlier)' before '\(later)' as the renaming identifier of \(element) in '\(later)' names \(renames) of '\(earlier)'"
        }
    }
}

extension OrderClue: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, version, earlier, later, file, element, renames, stems, description
    }

    /// Every key, absent values as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var version: String?
        var earlier: String?
        var later: String?
        var file: String?
        var element: String?
        var renames: String?
        var stems: [String]?
        switch self {
        case .naturalOrder(let names): stems = names
        case .bundleName(let name): version = name
        case .currentVersion(let name, let path): (version, file) = (name, path)
        case .mappingModel(let from, let to, let path): (earlier, later, file) = (from, to, path)
        case .renamingIdentifier(let from, let to, let path, let old):
            (earlier, later, element, renames) = (from, to, path, old)
        }
        try container.encodeEveryKey([
            .kind: kind, .version: version, .earlier: earlier, .later: later, .file: file, .element: element,
            .renames: renames, .stems: stems, .description: description,
        ])
    }

    /// Reads what ``encode(to:)`` wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String { try container.decode(String.self, forKey: key) }
        let kind = try string(.kind)
        switch kind {
        case "naturalOrder": self = .naturalOrder(stems: try container.decode([String].self, forKey: .stems))
        case "bundleName": self = .bundleName(try string(.version))
        case "currentVersion": self = .currentVersion(try string(.version), file: try string(.file))
        case "mappingModel":
            self = .mappingModel(from: try string(.earlier), to: try string(.later), file: try string(.file))
        case "renamingIdentifier":
            self = .renamingIdentifier(
                earlier: try string(.earlier), later: try string(.later), element: try string(.element),
                renames: try string(.renames))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown order clue '\(kind)'")
        }
    }
}

import Foundation
import StepwiseModel

/// Findings of ``HistoryCheck`` a team has looked at and accepts, each with its reason: a file
/// committed beside the model bundle, `<Name>.accepted-findings.json`.
///
/// Some findings can't be fixed without editing a version that shipped: two shipped versions
/// that differ only by a transient attribute share every hash (``HistoryFinding/Kind/duplicateVersion``).
/// Accepting such a finding keeps the gate honest: the finding is still listed, marked as
/// accepted with its reason (``HistoryFinding/acceptedBecause``), and only no longer fails the
/// check. An entry that matches no finding any more is reported too
/// (``HistoryFinding/Kind/staleAcceptance``), so the file never outlives what it accepts.
///
/// ```json
/// {
///   "accepted": [
///     {"kind": "duplicateVersion", "version": "Model 8",
///      "reason": "7 and 8 differ only by a transient attribute; both shipped in 2.3."},
///     {"kind": "dropsData", "version": "Model 12", "entity": "Draft",
///      "reason": "Drafts were never synced; dropping them is intended."}
///   ]
/// }
/// ```
///
/// An entry matches a finding when `kind` and `version` equal the finding's (`"version": null`
/// for a finding without one), and `entity` and `property`, when given, equal its too: an
/// entry without `entity` accepts that kind's findings in that version for every entity.
/// `reason` is required and may not be empty.
public struct AcceptedFindings: Sendable, Hashable {
    /// One accepted finding.
    public struct Entry: Sendable, Hashable, Codable {
        /// The finding's kind.
        public var kind: HistoryFinding.Kind
        /// The finding's version; nil for a finding without one.
        public var version: String?
        /// The finding's entity; nil matches any.
        public var entity: String?
        /// The finding's property; nil matches any.
        public var property: String?
        /// Why the finding is accepted: shown beside it in every report.
        public var reason: String

        /// An entry accepting findings of `kind` in `version`, for `entity` and `property` when given.
        ///
        /// - parameters:
        ///   - kind: The finding's kind.
        ///   - version: The finding's version; nil for a finding without one.
        ///   - entity: The finding's entity; nil accepts findings for any entity.
        ///   - property: The finding's property; nil accepts findings for any property.
        ///   - reason: Why the finding is accepted.
        public init(
            _ kind: HistoryFinding.Kind, version: String?, entity: String? = nil, property: String? = nil,
            reason: String
        ) {
            self.kind = kind
            self.version = version
            self.entity = entity
            self.property = property
            self.reason = reason
        }

        /// Whether this entry accepts `finding`.
        public func matches(_ finding: HistoryFinding) -> Bool {
            finding.kind == kind && finding.version == version && (entity == nil || finding.entity == entity)
                && (property == nil || finding.property == property)
        }

        private enum CodingKeys: String, CodingKey {
            case kind, version, entity, property, reason
        }

        /// Reads an entry; `version` must be present (`null` for a finding without a version),
        /// so that an entry never accepts a kind's findings in every version by leaving it out.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let kindName = try container.decode(String.self, forKey: .kind)
            guard let kind = HistoryFinding.Kind(rawValue: kindName) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: container,
                    debugDescription:
                        "unknown kind '\(kindName)'; use one of \(HistoryFinding.Kind.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            guard container.contains(.version) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.version,
                    DecodingError.Context(
                        codingPath: container.codingPath,
                        debugDescription: "give the finding's version, or null for a finding without one"))
            }
            self.kind = kind
            version = try container.decodeIfPresent(String.self, forKey: .version)
            entity = try container.decodeIfPresent(String.self, forKey: .entity)
            property = try container.decodeIfPresent(String.self, forKey: .property)
            reason = try container.decode(String.self, forKey: .reason)
        }
    }

    /// The accepted findings, in the file's order.
    public var entries: [Entry]
    /// The file they were read from, named in stale entries' findings; nil for entries given in code.
    public var url: URL?

    /// Entries given in code.
    ///
    /// - parameters:
    ///   - entries: The accepted findings.
    ///   - url: The file they stand for, named by a stale entry's finding; nil by default.
    public init(_ entries: [Entry] = [], url: URL? = nil) {
        self.entries = entries
        self.url = url
    }

    /// Reads an accepted-findings file.
    ///
    /// - parameter url: The file: `{"accepted": [{"kind", "version", "entity", "property", "reason"}]}`.
    /// - throws: ``UpgradeError`` (``UpgradeError/Kind/malformedAcceptedFindings(path:reason:)``) naming the file and, for a malformed one, the entry
    ///   and key at fault.
    public init(contentsOf url: URL) throws(UpgradeError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw UpgradeError(.unreadableAcceptedFindings(path: url.path, reason: ErrorText.describe(error)))
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw UpgradeError(.malformedAcceptedFindings(path: url.path, reason: Self.explain(error)))
        } catch {
            throw UpgradeError(.malformedAcceptedFindings(path: url.path, reason: ErrorText.describe(error)))
        }
        for (index, entry) in file.accepted.enumerated()
        where entry.reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw UpgradeError(
                .malformedAcceptedFindings(
                    path: url.path, reason: "entry \(index + 1) (\(entry.kind.rawValue)) has an empty reason"))
        }
        self.init(file.accepted, url: url)
    }

    /// The file `HistoryCheck` reads by default: `<Name>.accepted-findings.json` beside the
    /// bundle `<Name>.xcdatamodeld`.
    ///
    /// - parameter bundleURL: The `.xcdatamodeld` bundle.
    public static func defaultURL(forBundleAt bundleURL: URL) -> URL {
        bundleURL.deletingLastPathComponent().appendingPathComponent(
            "\(bundleURL.deletingPathExtension().lastPathComponent).accepted-findings.json")
    }

    /// `findings` with each accepted one marked (``HistoryFinding/acceptedBecause``), followed
    /// by a ``HistoryFinding/Kind/staleAcceptance`` finding for each entry that matched none.
    func applied(to findings: [HistoryFinding]) -> [HistoryFinding] {
        var used = Set<Int>()
        var marked = findings.map { finding in
            var finding = finding
            if let index = entries.firstIndex(where: { $0.matches(finding) }) {
                finding.acceptedBecause = entries[index].reason
                used.insert(index)
            }
            return finding
        }
        let file = url?.lastPathComponent ?? "the accepted findings"
        for (index, entry) in entries.enumerated() where !used.contains(index) {
            let place = [entry.version.map { "'\($0)'" }, entry.entity, entry.property].compactMap { $0 }
            marked.append(
                HistoryFinding(
                    .staleAcceptance, version: entry.version, entity: entry.entity, property: entry.property,
                    message:
                        "\(file) accepts a \(entry.kind.rawValue) finding\(place.isEmpty ? "" : " for \(place.joined(separator: ", "))") (entry \(index + 1)), and the check no longer makes it.",
                    fix: "Remove entry \(index + 1) from \(file), or correct its kind, version, entity or property."))
        }
        return marked
    }

    /// The file's shape.
    private struct File: Decodable {
        var accepted: [Entry]
    }

    /// A decoding error as "entry 2: key 'reason' is missing".
    private static func explain(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            // "accepted" is the only top-level key: an entry's number says enough.
            let parts = path.filter { $0.stringValue != "accepted" }.map { key in
                key.intValue.map { "entry \($0 + 1)" } ?? "'\(key.stringValue)'"
            }
            return parts.isEmpty ? "the file" : parts.joined(separator: ", ")
        }
        switch error {
        case .keyNotFound(let key, let context):
            // Foundation's own text ("No value associated with key …") adds nothing; ours does.
            let detail = context.debugDescription.hasPrefix("No value") ? "" : " (\(context.debugDescription))"
            let place = key.stringValue == "accepted" ? "the file" : place(context.codingPath)
            return "\(place): key '\(key.stringValue)' is missing\(detail)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// One thing ``HistoryCheck`` found in a model history: what is wrong, where, and how to fix it.
///
/// A finding is data, never a thrown error: a check reports every finding of a history at once.
/// ``severity`` follows from ``kind``: an ``Severity/error`` fails the check (`stepwise check`
/// exits 1), a ``Severity/warning`` or an ``Severity/info`` doesn't. A finding the team
/// accepted (``AcceptedFindings``) keeps its severity and is still listed, with the reason in
/// ``acceptedBecause``; it fails nothing.
///
/// As JSON (`stepwise check --json`) every key is written, absent values as `null`:
///
/// ```json
/// {"severity": "warning", "kind": "dropsData", "version": "Blog 2", "entity": "Post",
///  "property": "color", "message": "…", "fix": "…", "acceptedBecause": null}
/// ```
public struct HistoryFinding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How much a finding matters.
    public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        /// Stores will fail to upgrade, or upgrade wrongly: the check fails.
        case error
        /// Data may be lost or a step may change meaning: worth a look, the check passes.
        case warning
        /// Worth knowing; nothing is wrong.
        case info

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// What was found.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A version that shipped was edited after its record was made (`<Name>.shipped/`).
        case shippedVersionEdited
        /// Two versions have equal entity hashes, so they are interchangeable for stores: Core
        /// Data opens a store of either with either model. A warning: such pairs ship (Wire's
        /// history has seven), and only matter when the newer one changes something its stores
        /// should get (an index) that no hash records.
        case duplicateVersion
        /// The versions' order can't be told (names without a common stem or an equal number,
        /// or a history file that doesn't list the bundle's versions).
        case ambiguousOrder
        /// A version older than the current one has no chain of steps to it.
        case noPath
        /// A mapping file or `.xcmappingmodel` fits no pair of versions, or names entities or
        /// properties its versions lack.
        case staleMapping
        /// A mapping file or `.xcmappingmodel` that can't be read for any other reason (bad JSON,
        /// an expression's syntax, an archive Stepwise can't run, two formats for one step).
        case invalidMapping
        /// A mapping names a policy the given ``/StepwiseMapping/PolicyRegistry`` doesn't have.
        case unregisteredPolicy
        /// An inferred step drops an entity's rows, an attribute's values or a relationship's links.
        case dropsData
        /// An inferred step matches a property through a renaming identifier that other
        /// properties carry too, so the match depends on which one comes first.
        case sharedRenamingIdentifier
        /// The current version has no shipped record yet.
        case currentVersionNotShipped
        /// A version has what Xcode warns about and Core Data loads anyway: an inverse that
        /// doesn't point back (``/StepwiseModel/ModelProblem/isWarning``).
        case modelWarning
        /// An entry of the accepted findings (``AcceptedFindings``) that matches no finding:
        /// remove it, so the file accepts only what the check still finds.
        case staleAcceptance

        /// The severity of every finding of this kind.
        public var severity: Severity {
            switch self {
            case .shippedVersionEdited, .ambiguousOrder, .noPath, .staleMapping, .invalidMapping, .unregisteredPolicy:
                .error
            case .duplicateVersion, .dropsData, .sharedRenamingIdentifier, .staleAcceptance, .modelWarning: .warning
            case .currentVersionNotShipped: .info
            }
        }
    }

    public var severity: Severity
    public var kind: Kind
    /// The version concerned: for a step's finding, the step's destination (the version whose
    /// edit caused it); nil when no one version is.
    public var version: String?
    /// The entity concerned, if any.
    public var entity: String?
    /// The property concerned, if any.
    public var property: String?
    /// What is wrong, in one sentence.
    public var message: String
    /// A concrete way to fix it.
    public var fix: String
    /// The reason the team gave for accepting this finding (``AcceptedFindings``); nil when it
    /// isn't accepted. An accepted finding doesn't fail the check, whatever its severity.
    public var acceptedBecause: String?

    /// Whether the team accepted this finding (``acceptedBecause``).
    public var isAccepted: Bool { acceptedBecause != nil }

    /// A finding with its kind's severity.
    public init(
        _ kind: Kind, version: String?, entity: String? = nil, property: String? = nil, message: String, fix: String
    ) {
        self.severity = kind.severity
        self.kind = kind
        self.version = version
        self.entity = entity
        self.property = property
        self.message = message
        self.fix = fix
    }

    /// `error (noPath): <message> Fix: <fix>`: the line `stepwise check` prints; for an
    /// accepted finding, `accepted error (duplicateVersion): <message> Accepted because: <reason>`.
    public var description: String {
        guard let acceptedBecause else { return "\(severity.rawValue) (\(kind.rawValue)): \(message) Fix: \(fix)" }
        return "accepted \(severity.rawValue) (\(kind.rawValue)): \(message) Accepted because: \(acceptedBecause)"
    }

    private enum CodingKeys: String, CodingKey {
        case severity, kind, version, entity, property, message, fix, acceptedBecause
    }

    /// Encodes every key, absent places as `null`, so every finding has the same shape; decoding
    /// is synthesized.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .severity: severity, .kind: kind, .version: version, .entity: entity, .property: property,
            .message: message, .fix: fix, .acceptedBecause: acceptedBecause,
        ])
    }
}

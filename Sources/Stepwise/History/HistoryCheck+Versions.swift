import Foundation
import StepwiseModel

extension HistoryCheck {
    /// ``HistoryFinding/Kind/duplicateVersion``, a warning: each version whose entity hashes
    /// equal an earlier version's.
    ///
    /// Core Data compares only these hashes to decide whether a model can open a store, so it
    /// opens a store of either version with either model, and migrates nothing between them.
    /// Such pairs ship: the versions differ in what hashes leave out (a transient attribute, a
    /// class name, a default value, an index), as seven pairs of Wire's history do. The
    /// finding says which of the two Stepwise takes a store for, and when the pair needs a
    /// hash modifier after all: when the newer version changes something its stores should get
    /// (an index) that no hash records.
    func duplicateVersionFindings() -> [HistoryFinding] {
        var firstWithHashes: [[String: Data]: ObjectModel] = [:]
        var findings: [HistoryFinding] = []
        for version in history.versions {
            let hashes = version.entityVersionHashes
            guard let earlier = firstWithHashes[hashes] else {
                firstWithHashes[hashes] = version
                continue
            }
            // Equal hashes leave only what hashes ignore (defaults, indexes, user info, class names).
            let changed = version.entities.first { earlier[entity: $0.name] != $0 }
            findings.append(
                HistoryFinding(
                    .duplicateVersion, version: version.name, entity: changed?.name,
                    message: Self.interchangeableMessage(version, earlier),
                    fix: duplicateVersionFix(version, earlier, changed: changed)))
        }
        return findings
    }

    /// What equal hashes mean for the stores of `version` and `earlier`.
    private static func interchangeableMessage(_ version: ObjectModel, _ earlier: ObjectModel) -> String {
        let identified: String
        if !version.versionIdentifiers.isEmpty, !earlier.versionIdentifiers.isEmpty,
            version.versionIdentifiers != earlier.versionIdentifiers
        {
            identified =
                "Stepwise takes such a store for the version its metadata names in NSStoreModelVersionIdentifiers (\(Self.identifiers(earlier)) or \(Self.identifiers(version)))"
        } else {
            identified =
                "their version identifiers (NSStoreModelVersionIdentifiers) are the same too, so Stepwise takes a store of either for '\(version.name)', the newer"
        }
        return
            "'\(version.name)' has the same entity hashes as '\(earlier.name)', so the two are interchangeable for stores: Core Data opens a store of either with either model, and no step runs between them; \(identified)."
    }

    /// `'2.11'`, or `'a', 'b'` for several identifiers.
    private static func identifiers(_ model: ObjectModel) -> String {
        model.versionIdentifiers.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// Nothing to do unless the newer version changes something its stores should get.
    private func duplicateVersionFix(_ version: ObjectModel, _ earlier: ObjectModel, changed: Entity?) -> String {
        let hasShipped = shipped.contains { $0.name == version.name }
        guard let changed else {
            return hasShipped
                ? "Nothing to do: '\(version.name)' is a copy of '\(earlier.name)' with nothing changed, and stores of either are read alike."
                : "Nothing to do for stores; '\(version.name)' is a copy of '\(earlier.name)' with nothing changed, which you may remove before it ships."
        }
        let modifier = "a version hash modifier (Xcode: Data Model inspector, Versioning, Hash Modifier)"
        let remedy =
            hasShipped
            ? "give '\(changed.name)' \(modifier) in a new version: '\(version.name)' has shipped, and its stores carry its hashes"
            : "give '\(changed.name)' \(modifier) in '\(version.name)', so that stores of '\(earlier.name)' get a step"
        return
            "Nothing to do if stores of '\(earlier.name)' need nothing '\(version.name)' changes in '\(changed.name)' (a transient attribute, a class name, a default value). If they do (a new index, say), \(remedy)."
    }

    /// ``HistoryFinding/Kind/modelWarning``: what Xcode warns about in a version and Core Data
    /// loads anyway, so Stepwise reads the version too (``/StepwiseModel/ModelProblem/isWarning``).
    func modelWarningFindings() -> [HistoryFinding] {
        history.versions.flatMap { version in
            version.warnings().map { problem in
                var entity: String?
                if case .oneToOneInverseMismatch(let name, _, _, _) = problem { entity = name }
                return HistoryFinding(
                    .modelWarning, version: version.name, entity: entity,
                    message:
                        "In '\(version.name)', \(problem). Xcode warns about it; Core Data loads the model, and so does Stepwise.",
                    fix:
                        "Nothing to do for stores written by this version. To pair the two relationships, set each as the other's inverse in a new version."
                )
            }
        }
    }

    /// ``HistoryFinding/Kind/ambiguousOrder`` for a history given in code that lists a version
    /// name more than once.
    func versionNameFindings() -> [HistoryFinding] {
        var seen: Set<String> = []
        var reported: Set<String> = []
        var findings: [HistoryFinding] = []
        for name in history.names where !seen.insert(name).inserted && reported.insert(name).inserted {
            findings.append(
                HistoryFinding(
                    .ambiguousOrder, version: name,
                    message: "The history lists the version '\(name)' more than once, so its place can't be told.",
                    fix: "List each version once, oldest first."))
        }
        return findings
    }

    /// ``HistoryFinding/Kind/ambiguousOrder`` for the error that stopped a bundle's versions
    /// being ordered.
    static func orderFinding(for error: ModelError, bundle: URL) -> HistoryFinding {
        let historyFile = ModelBundle.historyFileURL(for: bundle).lastPathComponent
        switch error.kind {
        case .ambiguousOrder(let names, let reason):
            return HistoryFinding(
                .ambiguousOrder, version: nil,
                message:
                    "The order of the versions \(names.map { "'\($0)'" }.joined(separator: ", ")) can't be told: \(reason).",
                fix:
                    "List every version oldest first, one per line, in \(historyFile) beside the bundle; paths and steps are checked once the order is known."
            )
        case .historyFileMismatch(let unknown, let missing):
            var parts: [String] = []
            if !unknown.isEmpty { parts.append("names versions the bundle lacks (\(unknown.joined(separator: ", ")))") }
            if !missing.isEmpty { parts.append("leaves out \(missing.joined(separator: ", "))") }
            let name = URL(fileURLWithPath: error.path ?? "").lastPathComponent
            return HistoryFinding(
                .ambiguousOrder, version: nil,
                message: "\(name) \(parts.joined(separator: " and ")), so the versions' order can't be told.",
                fix:
                    "List every version of the bundle in \(name), oldest first, one per line; paths and steps are checked once the order is known."
            )
        default:
            return HistoryFinding(
                .ambiguousOrder, version: nil, message: error.description,
                fix: "List every version oldest first, one per line, in \(historyFile) beside the bundle.")
        }
    }
}

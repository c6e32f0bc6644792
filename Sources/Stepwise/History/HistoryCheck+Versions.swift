import Foundation
import StepwiseModel

extension HistoryCheck {
    /// ``HistoryFinding/Kind/duplicateVersion``: each version whose entity hashes equal an
    /// earlier version's. The registry identifies a store by those hashes, as Core Data does, so
    /// a store written by either version is taken for the newer one.
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
            let fix =
                changed.map {
                    "Give the entity '\($0.name)', which '\(version.name)' changes, a version hash modifier in '\(version.name)' (Xcode: Data Model inspector, Versioning, Hash Modifier), so that its hash differs."
                }
                ?? "Remove '\(version.name)': it is a copy of '\(earlier.name)' with nothing changed."
            findings.append(
                HistoryFinding(
                    .duplicateVersion, version: version.name, entity: changed?.name,
                    message:
                        "'\(version.name)' has the same entity hashes as '\(earlier.name)', so no one can tell which of the two wrote a store.",
                    fix: fix))
        }
        return findings
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
    static func orderFinding(for error: VersionHistoryError, bundle: URL) -> HistoryFinding {
        let historyFile = ModelBundle.historyFileURL(for: bundle).lastPathComponent
        switch error {
        case .ambiguousOrder(let names, let reason):
            return HistoryFinding(
                .ambiguousOrder, version: nil,
                message:
                    "The order of the versions \(names.map { "'\($0)'" }.joined(separator: ", ")) can't be told: \(reason).",
                fix:
                    "List every version oldest first, one per line, in \(historyFile) beside the bundle; paths and steps are checked once the order is known."
            )
        case .historyFileMismatch(let file, let unknown, let missing):
            var parts: [String] = []
            if !unknown.isEmpty { parts.append("names versions the bundle lacks (\(unknown.joined(separator: ", ")))") }
            if !missing.isEmpty { parts.append("leaves out \(missing.joined(separator: ", "))") }
            let name = URL(fileURLWithPath: file).lastPathComponent
            return HistoryFinding(
                .ambiguousOrder, version: nil,
                message: "\(name) \(parts.joined(separator: " and ")), so the versions' order can't be told.",
                fix:
                    "List every version of the bundle in \(name), oldest first, one per line; paths and steps are checked once the order is known."
            )
        }
    }
}

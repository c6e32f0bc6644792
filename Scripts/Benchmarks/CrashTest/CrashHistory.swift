import Foundation
import Stepwise
import StepwiseStore

/// The three-version history the crash test upgrades through: Bench → Bench 2 (a written,
/// set-based mapping: a rebuilt store, passes 1 and 2) → Bench 3 (inferred: `note` renamed
/// `remark` and an optional `rating` added, altered in place).
enum CrashHistory {
    static let version3 = ObjectModel("Bench 3") {
        Entity("Item") {
            Attribute("firstName", .string)
            Attribute("lastName", .string)
            Attribute("amount", .integer64).required().defaultValue("0")
            Attribute("createdAt", .date).required()
            Attribute("remark", .string).renamed(from: "note")
            Attribute("isArchived", .boolean).required().defaultValue("NO")
            Attribute("rating", .integer16)
            Relationship("tag", to: "Tag", inverse: "items")
        }
        Entity("Tag") {
            Attribute("label", .string).required()
            Relationship("items", to: "Item", inverse: "tag").toMany()
        }
    }

    static let history = VersionHistory([BenchModel.version1, BenchModel.version2, version3])

    /// The upgrader the child runs and the checker uses to recover.
    /// `fileSystem` is the seam the upgrade goes through (Scripts/power-loss records with it).
    /// `target` is Bench 3 but for the store the one-transaction trials start from.
    static func upgrader(
        to target: String? = nil, progress: (@Sendable (UpgradeEvent) -> Void)? = nil,
        fileSystem: FileSystem = FileSystem()
    ) throws -> Upgrader {
        // Written (not inferred), so step 1 rebuilds the store through both passes.
        var mapping = try MappingInference.inferMapping(from: BenchModel.version1, to: BenchModel.version2)
        mapping.isInferred = false
        var options = UpgradeOptions(targetVersion: target, lockTimeout: .seconds(120), progress: progress)
        options.fileSystem = fileSystem
        return try Upgrader(
            history: history, mappings: [MappingDirectory.StepKey("Bench", "Bench 2"): [mapping]], options: options)
    }
}

import Foundation
import StepwiseModel

extension UpgradeError {
    /// The sentence for ``kind``, before any note about a leftover work folder.
    var kindDescription: String {
        let store = storePath.map { "\($0): " } ?? ""
        let path = storePath ?? ""
        switch kind {
        case .newerThanKnownVersions(let name, let latest, let differences):
            let named = name.map { " ('\($0)')" } ?? ""
            return
                "\(path) was written by a model version\(named) newer than the latest known, '\(latest)'\(Self.summary(differences)). Run the newer app build, or add that version to the model bundle."
        case .noMatchingVersion(let closest, let differences):
            let closestText = closest.map { " The closest is '\($0)'\(Self.summary(differences))." } ?? ""
            let cacheText = modelCacheNote.map { " \($0)." } ?? ""
            return
                "\(path) matches no version in the history, by hash or by tables.\(closestText)\(cacheText) Add the version that wrote it to the bundle, or use the bundle of the app that wrote it."
        case .inconsistent(let problem):
            return
                "\(path) is inconsistent: \(problem). Stepwise won't upgrade it as either version; restore it from a backup or rebuild it."
        case .emptyHistory:
            return "the version history is empty; pass a model bundle with at least one version."
        case .unknownVersion(let name, let available):
            return "no model version named '\(name)'. Available: \(available.joined(separator: ", "))."
        case .laterThanTarget(let storeVersion, let target):
            return """
                the store is at '\(storeVersion)', later than the target '\(target)'. Stepwise never infers a \
                downgrade: upgrade to '\(storeVersion)' or later, or add a mapping file '\(storeVersion) to \(target).json' \
                (source "\(storeVersion)", destination "\(target)") to go back on purpose.
                """
        case .unregisteredPolicy(let name, let mappingModel, let entityMapping):
            return """
                the mapping model '\(mappingModel)' names the policy '\(name)' for its entity mapping \
                '\(entityMapping)', and no policy is registered under that name. Register it with \
                PolicyRegistry.register("\(name)") { … } in the registry given to the Upgrader. Nothing was changed.
                """
        case .unknownEntities(let entities, let tables):
            return """
                \(store)the store holds \(entities.count == 1 ? "an entity" : "entities") that no version of the given \
                models has: \(entities.joined(separator: ", ")) (\(tables.count == 1 ? "table" : "tables") \
                \(tables.joined(separator: ", "))). They most often belong to another model the app merges into this \
                store: pass that model too (`--models` once per model, or Upgrader(bundlesAt:)); or to a version of \
                the model the bundle lacks (a newer app build's): run that build, or add the version. To drop them and their rows instead, pass \
                --drop-unknown-entities (UpgradeOptions.dropsUnknownEntities), which needs the store's own model cache \
                (Z_MODELCACHE) to know them by. Nothing was changed.
                """
        case .duplicateStage(let from, let to):
            return
                "two migration stages were given for the step '\(from)' → '\(to)'. Give one stage per step, with both handlers in it if needed. Nothing was changed."
        case .noPath(let from, let to, let gap, let problems):
            guard let gap else {
                return "no chain of mappings leads from '\(from)' to '\(to)'. Add a mapping file for the missing step."
            }
            let reasons = problems.map { "  - \($0)" }.joined(separator: "\n")
            return """
                no chain of mappings leads from '\(from)' to '\(to)': the step '\(gap.from)' → '\(gap.to)' has no \
                mapping file and can't be inferred:
                \(reasons)
                Add a mapping file '\(gap.from) to \(gap.to).json' (source "\(gap.from)", destination "\(gap.to)") \
                to the bundle's .mappings folder.
                """
        case .upgradeRunning(let seconds):
            return
                "\(path): an upgrade of this store is running and didn't finish within \(seconds) s. Wait for it (or show that the app is updating its data), then open the store again."
        case .needsUpgrade(let target):
            return
                "\(path): the store needs an upgrade to '\(target)' before it can be opened. Call upgradeIfNeeded(storeAt:) first; in an app extension, show \"Open the app to finish updating\" instead."
        case .accessLockFailed(let reason):
            return "\(path): the store's access lock couldn't be taken: \(reason). Check the folder's permissions."
        case .unreadableAcceptedFindings(let path, let reason):
            return "can't read the accepted findings \(path): \(reason). Check the path, or leave the option out."
        case .malformedAcceptedFindings(let path, let reason):
            return
                "\(path) is not an accepted-findings file: \(reason). Each entry needs \"kind\" (a finding kind), \"version\" (a version name, or null) and a non-empty \"reason\"; \"entity\" and \"property\" are optional: {\"accepted\": [{\"kind\": \"duplicateVersion\", \"version\": \"Model 8\", \"reason\": \"…\"}]}."
        case .lockTimeout(let seconds):
            return
                "\(store)another upgrade of this store is running and didn't finish within \(Self.format(seconds)) s. Wait for it, or raise the lock timeout (UpgradeOptions.lockTimeout)."
        case .storeInUse(let pids, let seconds, let bare):
            let who =
                pids.isEmpty
                ? "another process"
                : "\(pids.count == 1 ? "process" : "processes") \(pids.map(String.init).joined(separator: ", "))"
            if bare, pids == [ProcessInfo.processInfo.processIdentifier] {
                // The check looks at this process first (OpenConnectionCheck): the app's own connection.
                return
                    "\(store)the store is open in this process (\(pids[0])) through a SQLite connection that doesn't hold StoreAccess, and it didn't close within \(Self.format(seconds)) s: swapping the store under it would leave it reading and writing a file that is no longer the store. The store was not changed. Close the connection opened before the upgrade, open the store only once the upgrade has returned (Upgrader.openDatabasePool does, and refuses an outdated store), and run the upgrade again."
            }
            if bare {
                return
                    "\(store)the store is open in \(who) through a SQLite connection that doesn't hold StoreAccess, and it didn't close within \(Self.format(seconds)) s: swapping the store under it would leave it reading and writing a file that is no longer the store. The store was not changed. Close that connection, open the store through StoreAccess (Upgrader.openDatabasePool), and run the upgrade again."
            }
            return
                "\(store)the store is in use by \(who) (holding StoreAccess), which didn't close it within \(Self.format(seconds)) s. The store was not changed. Close the store in those processes (an app extension or helper), or raise the lock timeout (UpgradeOptions.lockTimeout), and run the upgrade again."
        case .storeChangedDuringUpgrade:
            return
                "\(store)the store changed while it was being upgraded: a process wrote to it without holding StoreAccess, and the upgraded copy would have lost those writes. It was discarded and the store was not changed. Open the store only through StoreAccess, then run the upgrade again."
        case .insufficientSpace(let needed, let available):
            return
                "\(store)the upgrade needs about \(Self.megabytes(needed)) free beside the store but only \(Self.megabytes(available)) is available. Free some space and try again; the store was not changed."
        case .stepFailed(let index, let count, let from, let to, let underlying):
            return
                "\(store)step \(index) of \(count) ('\(from)' → '\(to)') failed: \(underlying). The store was not changed; "
                + (failsTheSameWayAgain
                    ? "the step fails the same way on every run, so fix the mapping, the policy or the data first, then run the upgrade again."
                    : "run the upgrade again.")
        case .dropsData(let index, let count, let from, let to, let drops):
            let list = drops.map(\.description).joined(separator: "; ")
            return
                "\(store)step \(index) of \(count) ('\(from)' → '\(to)') would drop data no mapping declares: \(list). Strict mode refused the upgrade; the store was not changed. To keep the data, write an explicit mapping for this step that carries it (the inferred mapping, MappingInference, shows what the step does now). To drop it on purpose, leave the attribute out of that explicit mapping, or give the entity an entity mapping with no destination. Or turn strict mode off (UpgradeOptions.strict) to let the step drop it."
        case .verificationFailed(let reason):
            return
                "\(store)the upgraded store failed verification (\(reason)); it was discarded and the store was not changed. Please report this with the store's model versions."
        case .fileSystem(let operation, let path, let reason):
            return
                "\(store)\(operation) failed on \(path): \(reason). Check permissions and free space, then run the upgrade again: it resumes where it stopped."
        case .interruptedSwapMissingFile(let state, let missing, let workDirectory):
            return
                "\(store)an interrupted upgrade was past its commit point (journal state '\(state)'), but \(missing.path) is missing and the store's path doesn't hold the verified upgraded store. Recovery stopped and changed nothing, so no copy of the data is lost. Don't delete \(workDirectory.path): the old store's files are in its outgoing/ folder, the upgraded store in incoming/. Put the store back by hand from there (or from a backup), then delete that folder; or report this with a listing of both folders."
        case .noBackup(let backupDirectory):
            return
                "\(store)there is no backup to roll back to (looked for \(backupDirectory.path)). Backups are kept only when the upgrade ran with UpgradeOptions.keepBackup."
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    private static func summary(_ differences: [SchemaDifference]) -> String {
        guard !differences.isEmpty else { return "" }
        let shown = differences.prefix(6).map(\.description).joined(separator: "; ")
        let more = differences.count > 6 ? "; and \(differences.count - 6) more" : ""
        return ": \(shown)\(more)"
    }
}

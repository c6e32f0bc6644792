import Foundation

extension UpgradeRun {
    /// Verifies the last step's output, makes it the incoming generation, and swaps it in.
    ///
    /// The order, up to the commit point:
    /// 1. verify the output (``StoreVerification``); on failure discard it, record the
    ///    failure, and stop: the original is untouched;
    /// 2. rename it to `incoming/<store name>`, give it the original's attributes (mode,
    ///    extended attributes, protection class), and sync `incoming/` and the work directory;
    /// 3. save the journal as `verified`, with the file's checksum;
    /// 4. wait for connections outside ``StoreAccess`` and refuse a store changed since the
    ///    copy (``checkNobodyElseUsesTheStore(_:)``);
    /// 5. honour a cancellation, for the last time;
    /// 6. save the journal as `swappingOut`: **the commit point**. From here a crash is
    ///    finished by the next call, never undone (``JournaledSwap`` does the rest).
    ///
    /// - returns: The journal as `swapped`.
    func verifyAndSwap(_ state: UpgradeRunState) throws -> UpgradeJournal {
        var journal = state.journal
        // Step 1 waited for it already (runSteps); this returns at once, and nothing is swapped
        // in before it has answered whatever the plan.
        try state.originalCheck?.wait()
        if journal.state == .running {
            try checkCancellation(&journal)
            guard let last = journal.completed.last, let targetModel = state.targetModel else {
                throw UpgradeError(.verificationFailed("no step produced a store"), storePath: files.store.path)
            }
            let output = workDirectory.appendingPathComponent(last.output.file)
            emit(.verifying(options.verification))
            do {
                try StoreVerification(
                    level: options.verification, scope: .init(journal.completed), layouts: history.layouts,
                    hashes: history.hashes
                )
                .verify(output, model: targetModel)
            } catch let error as UpgradeError {
                try? fileSystem.remove(output.deletingLastPathComponent(), site: "verify.remove-failed")
                journal.completed.removeLast()
                let located = UpgradeError(error.kind, storePath: files.store.path)
                recordFailure(located, in: &journal)
                throw located
            }
            try fileSystem.createDirectory(swap.incoming, site: "swap.incoming.mkdir")
            try fileSystem.rename(output, to: swap.incomingFile(nil), site: "swap.incoming.rename")
            // The original's mode, extended attributes (the backup exclusion among them) and
            // protection class, on the file that will take its place: here, before the commit
            // point, and synced, so no crash can leave the new store in place with a wider mode
            // or a weaker class than the one it replaced. (A crash between the rename and the
            // journal's `verified` leaves the old store in place, like any crash before it.)
            try fileSystem.copyAttributes(
                of: files.store, to: swap.incomingFile(nil), site: "swap.incoming.attributes", sync: .ordering)
            // Ordering: a rename across directories is durable only once both are synced: the step's
            // directory too, though it is removed next. Unsynced, a power loss may undo the
            // rename while keeping that removal, and the verified store is gone from both
            // places (found by Scripts/power-loss).
            try fileSystem.sync(
                output.deletingLastPathComponent(), .ordering, site: "swap.incoming.sync-step-directory")
            try fileSystem.sync(swap.incoming, .ordering, site: "swap.incoming.sync")
            try fileSystem.sync(workDirectory, .ordering, site: "swap.incoming.sync-work-directory")
            journal.final = last.output.renamed(to: "incoming/\(files.name)")
            journal.state = .verified
            try save(journal)
            try fileSystem.remove(output.deletingLastPathComponent(), site: "swap.remove-last-step")
        }
        guard journal.state == .verified else {
            throw UpgradeError(
                .verificationFailed("the journal is '\(journal.state.rawValue)', not verified, at the swap"),
                storePath: files.store.path)
        }
        try checkNobodyElseUsesTheStore(journal)
        // The last chance to stop: past the commit point the swap is always finished.
        try checkCancellation(&journal)
        emit(.swapping)
        journal.state = .swappingOut
        try save(journal)
        switch try JournaledSwap(files: files, fileSystem: fileSystem, logger: logger).finish(
            journal, swapped: { emit(.swapped) })
        {
        case .finished(let finished):
            return finished
        case .movedBack:
            throw UpgradeError(
                .verificationFailed("the upgraded store changed on disk after it was verified"),
                storePath: files.store.path)
        }
    }
}

extension UpgradeRun {
    /// The last checks before the commit point, for processes that don't hold ``StoreAccess``
    /// (those that do are kept out by the exclusive access lock this run holds):
    /// 1. wait, up to the lock timeout, for WAL-mode connections still open on the store
    ///    (``OpenConnectionCheck``): the swap would go under them;
    /// 2. refuse if the store changed since it was copied: those writes are not in the
    ///    upgraded store, so swapping it in would lose them. The work directory is deleted
    ///    (its checkpoints are of a stale copy) and the store is left as it is.
    func checkNobodyElseUsesTheStore(_ journal: UpgradeJournal) throws {
        try StoreAccessGate.waitForBareConnections(files, timeout: options.lockTimeoutSeconds, emit: emit)
        guard journal.original == UpgradeJournal.Fingerprint(of: files) else {
            try? fileSystem.remove(workDirectory, site: "swap.remove-stale")
            throw UpgradeError(.storeChangedDuringUpgrade, storePath: files.store.path)
        }
    }
}

import Foundation

extension UpgradeError {
    /// The error, naming the work folder the failed run left for a resume
    /// (``leftoverWorkDirectory``), if it left one: a journal recording completed steps
    /// from before the commit point. A folder mid-swap is not "left over": the next call
    /// must finish it, and ``Upgrader/discardInterruptedUpgrade(storeAt:options:)`` would too.
    func naming(leftoversOf files: StoreFiles, fileSystem: FileSystem) -> UpgradeError {
        guard fileSystem.exists(files.workDirectory),
            let journal = UpgradeJournal.load(from: files.workDirectory),
            [.running, .failed, .verified].contains(journal.state)
        else { return self }
        var named = self
        named.leftoverWorkDirectory = files.workDirectory
        named.leftoverBytes = WorkDirectorySize.bytes(of: files.workDirectory)
        return named
    }
}

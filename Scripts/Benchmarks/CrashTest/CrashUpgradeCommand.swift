import ArgumentParser
import Foundation
import Stepwise

/// `stepwise-bench crash-upgrade --store S`: the child the crash test kills. Upgrades the
/// store to Bench 3 and prints `phase <name>` (flushed) as each phase starts.
struct CrashUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-upgrade", abstract: "Upgrade a Bench store to Bench 3, announcing each phase.",
        shouldDisplay: false)

    @Option(name: .long, help: "The store to upgrade.")
    var store: String

    @Flag(name: .long, help: "Upgrade a store with external files (CrashExternalData) to Photos 2 instead.")
    var external = false

    func run() throws {
        let lastPhase = LastPhase()
        announce(.start)
        let progress: @Sendable (UpgradeEvent) -> Void = { event in
            guard let phase = CrashPhase(event), lastPhase.advance(to: phase) else { return }
            Self.announce(phase)
        }
        let upgrader =
            external
            ? try CrashExternalData.upgrader(progress: progress) : try CrashHistory.upgrader(progress: progress)
        _ = try upgrader.upgradeIfNeededSynchronously(storeAt: URL(fileURLWithPath: store))
    }

    private func announce(_ phase: CrashPhase) {
        Self.announce(phase)
    }

    fileprivate static func announce(_ phase: CrashPhase) {
        // Written straight to the descriptor, unbuffered: the parent must see each line at once.
        FileHandle.standardOutput.write(Data("phase \(phase.rawValue)\n".utf8))
    }
}

/// Announces each phase once (entity mappings start the same pass several times).
private final class LastPhase: @unchecked Sendable {
    // @unchecked: `phase` is guarded by `lock`.
    private let lock = NSLock()
    private var phase: CrashPhase?

    func advance(to next: CrashPhase) -> Bool {
        lock.withLock {
            guard phase != next else { return false }
            phase = next
            return true
        }
    }
}

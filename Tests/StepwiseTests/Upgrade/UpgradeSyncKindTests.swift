import Foundation
import StepwiseStore
import Testing

@testable import Stepwise

/// Every sync names its kind (``SyncKind``): `ordering` where only the order of writes
/// matters (F_BARRIERFSYNC on Darwin), `durable` where the data must be on the disk
/// (F_FULLFSYNC). The fault hook sees the kind, so the sync sites of each kind are listed here
/// and each is faulted in every scenario.
extension UpgradeFaultInjectionTests {
    /// Every sync call of every scenario, with its kind.
    static let syncCases = crashCases.filter { $0.1.syncKind != nil }

    /// The sync sites of a successful upgrade, by kind.
    static var syncSites: [SyncKind: Set<String>] {
        Dictionary(grouping: calls.values.joined().filter { $0.syncKind != nil }, by: { $0.syncKind ?? .ordering })
            .mapValues { Set($0.map(\.site)) }
    }

    @Test("every kind of sync is reached; the one durable sync is the last call, before the app gets the store")
    func everySyncKindIsReached() {
        let sites = Self.syncSites
        for kind in SyncKind.allCases { #expect(sites[kind]?.isEmpty == false, "no \(kind) sync reached") }
        #expect(sites[.durable] == ["cleanup.sync-store-directory"])
        #expect(
            sites[.ordering]?.isSuperset(of: [
                "copy.file.fsync", "copy.sync", "copy.sync-directory", "step.sync", "step.sync-directory",
                "step.sync-output", "step.in-place-sync", "journal.write.fsync", "journal.sync-directory",
                "swap.incoming.sync", "swap.incoming.sync-work-directory", "swap.out.sync-store-directory",
                "swap.out.sync-outgoing", "swap.in.sync-store-directory", "backup.write-info.fsync",
                "backup.sync-store-directory",
            ]) == true, "\(sites[.ordering]?.sorted() ?? [])")
        for scenario in Scenario.allCases {
            let calls = Self.calls[scenario] ?? []
            // One F_FULLFSYNC per upgrade, however many steps: it comes last, so it flushes
            // every write the upgrade made.
            #expect(calls.filter { $0.syncKind == .durable }.count == 1, "\(scenario)")
            #expect(calls.last?.syncKind == .durable, "\(scenario): \(calls.last?.description ?? "no call")")
        }
    }

    @Test(
        "EIO at each sync of each kind, in every scenario: a typed error, the old store or the new, then the next call finishes",
        arguments: syncCases)
    func syncErrorAtEverySite(scenario: Scenario, call: SiteCall) throws {
        try check(scenario, call, fault: .error(EIO))
    }
}

import Foundation
import Testing

@testable import Stepwise

/// Several upgraders on one store at once: exactly one migrates, the others wait for its
/// lock and then find the store up to date. (Across processes: StepwiseCommandLineTests.)
@Suite("upgradeIfNeeded: concurrent callers")
struct UpgradeConcurrencyTests {
    @Test("six concurrent calls: one upgrade, five up to date")
    func concurrentCalls() async throws {
        let fixture = try UpgradeFixture("Recipes")
        let upgrader = try fixture.upgrader()
        let store = fixture.store
        let reports = try await withThrowingTaskGroup(of: UpgradeReport.self) { group in
            for _ in 0..<6 {
                group.addTask { try await upgrader.upgradeIfNeeded(storeAt: store) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(reports.count == 6)
        #expect(reports.filter { !$0.upToDate }.count == 1)
        #expect(reports.filter(\.upToDate).count == 5)
        #expect(reports.allSatisfy { $0.to == "Recipes 4" })
        #expect(try fixture.version() == "Recipes 4")
        #expect(try fixture.count("ZRECIPE") == 4)
    }
}

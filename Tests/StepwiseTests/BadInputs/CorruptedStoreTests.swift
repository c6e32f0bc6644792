import Foundation
import StepwiseMapping
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// Seeded corruptions of a real store, each given to `upgradeIfNeeded`: a deterministic
/// mutation test beside the catalogue's hand-made cases and the libFuzzer targets (which read
/// models, mappings, expressions and metadata, not whole SQLite files).
///
/// Whatever the damage, the call either upgrades the store (SQLite has no checksums, so damage
/// inside row values can go unnoticed) or throws one of Stepwise's typed errors naming the
/// store and leaves it byte-identical. A crash, or an error of another type (a raw GRDB
/// `DatabaseError`), is a failure. Before the integrity check on the copy, 10 of these 40
/// stores that SQLite's `quick_check` finds damaged were upgraded as if sound, and 5 failed
/// inside step 1 (4 as "malformed", 1 as a mapping error on a garbled row).
@Suite("Corrupted stores")
struct CorruptedStoreTests {
    /// How a copy of the store is damaged.
    enum Damage: String, CaseIterable, Sendable {
        /// 8 random bytes anywhere after the 100-byte file header.
        case scatteredBytes
        /// A whole page, other than the first, overwritten with zeros.
        case zeroedPage
        /// The file cut at a page boundary.
        case truncated
        /// 4 random bytes inside the file header (page size, counters, schema cookie…).
        case header
    }

    struct Corruption: Sendable, CustomTestStringConvertible {
        var damage: Damage
        var seed: UInt64
        var testDescription: String { "\(damage.rawValue), seed \(seed)" }
    }

    static let corruptions: [Corruption] = Damage.allCases.flatMap { damage in
        (1...10).map { Corruption(damage: damage, seed: $0) }
    }

    /// Applies `corruption` to the file at `url`.
    static func corrupt(_ url: URL, _ corruption: Corruption) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        var random = SplitMix64(seed: corruption.seed)
        let pageSize = 4_096
        let pages = bytes.count / pageSize
        switch corruption.damage {
        case .scatteredBytes:
            for _ in 0..<8 {
                bytes[Int.random(in: 100..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case .zeroedPage:
            let page = Int.random(in: 1..<pages, using: &random)
            bytes.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: repeatElement(0, count: pageSize))
        case .truncated:
            bytes.removeSubrange(Int.random(in: 1..<pages, using: &random) * pageSize..<bytes.count)
        case .header:
            for _ in 0..<4 {
                bytes[Int.random(in: 16..<100, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        }
        try Data(bytes).write(to: url)
    }

    enum Outcome: Equatable {
        case upgraded
        case refused(String)
    }

    @Test(arguments: corruptions)
    func aDamagedStoreIsUpgradedOrRefusedWithATypedErrorAndLeftAlone(_ corruption: Corruption) throws {
        let fixture = try UpgradeFixture("Recipes")
        let pages = try Data(contentsOf: fixture.store).count / 4_096
        try #require(pages >= 3, "the seeded store needs pages to damage")
        try Self.corrupt(fixture.store, corruption)
        let before = StoreBytes(fixture.store)
        let outcome: Outcome
        do {
            let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
            #expect(report.to == "Recipes 4")
            outcome = .upgraded
        } catch let error as StoreError {
            outcome = .refused("\(error)")
        } catch let error as UpgradeError {
            outcome = .refused("\(error)")
        } catch {
            Issue.record("an untyped error, \(type(of: error)): \(error)")
            return
        }
        switch outcome {
        case .upgraded:
            // Verified before the swap: the store now reads as the newest version.
            #expect(try fixture.version() == "Recipes 4")
        case .refused(let message):
            #expect(StoreBytes(fixture.store) == before, "a refused store is left byte-identical")
            #expect(message.contains(fixture.store.lastPathComponent), "the error names the store: \(message)")
            // Damage SQLite can see is found by the integrity check on the copy, before any
            // step: never reported as a failed step, as if the mapping were at fault.
            if message.contains("malformed") || message.contains("not a database") {
                #expect(!message.contains("step 1 of"), "\(message)")
            }
        }
    }
}

import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A session shares seeded stores and the path stopping at each version between pairs: it
/// must seed each version once, make fewer upgrades, and still give every pair the outcome a
/// check of that pair alone gives.
@Suite("UpgradeMatrix: sessions")
struct UpgradeMatrixSessionTests {
    /// Recipes from `Versions/`: an explicit step, then inferred ones (cases R→R2, R→R3, R→R4,
    /// R2→R3, R2→R4, R3→R4).
    func recipes(
        stages: [MigrationStage] = [], policies: PolicyRegistry = SamplePolicies.registry
    ) throws -> UpgradeMatrix {
        try UpgradeMatrix(
            bundleAt: Corpus.packageRoot.appendingPathComponent("Versions/Recipes.xcdatamodeld"), policies: policies,
            stages: stages)
    }

    /// What a check of one pair ended with, without its time: the result, or the failure's
    /// check and the row and property it names.
    struct Outcome: Hashable, CustomStringConvertible {
        var result: UpgradeMatrix.PairResult?
        var failure: [String?]

        init(_ body: () throws -> UpgradeMatrix.PairResult) {
            do {
                var result = try body()
                result.seconds = 0
                self.result = result
                failure = []
            } catch let error as UpgradeMatrixFailure {
                result = nil
                failure = [
                    error.pair?.description, error.check?.rawValue, error.entity,
                    error.sourcePrimaryKey.map { "\($0)" },
                    error.property,
                ]
            } catch {
                result = nil
                failure = ["\(type(of: error))"]
            }
        }

        var description: String { result.map { "\($0)" } ?? "failed: \(failure)" }
    }

    /// Each pair of `matrix` checked alone, and through one session in `order`.
    func outcomes(_ matrix: UpgradeMatrix, order: [UpgradeMatrix.Pair]) throws -> (
        alone: [UpgradeMatrix.Pair: Outcome], shared: [UpgradeMatrix.Pair: Outcome], session: UpgradeMatrix.Session
    ) {
        let session = try matrix.session(rows: 10)
        var alone: [UpgradeMatrix.Pair: Outcome] = [:]
        var shared: [UpgradeMatrix.Pair: Outcome] = [:]
        for pair in order {
            shared[pair] = Outcome { try session.check(pair) }
            alone[pair] = Outcome { try matrix.check(pair, rows: 10) }
        }
        return (alone, shared, session)
    }

    @Test("a session seeds each version once and carries the stepwise path from pair to pair")
    func sharesSeedingAndPaths() throws {
        let matrix = try recipes()
        let session = try matrix.session(rows: 10)
        for pair in matrix.cases { try session.check(pair) }
        #expect(session.seededVersions == ["Recipes", "Recipes 2", "Recipes 3"])
        // One upgrade all at once per pair (6), plus one stop of the path stopping at each
        // version for each pair with more than one (R→R3, R→R4, R2→R4): each carries on the
        // store the pair before it left. Checked alone, those three take 2 + 3 + 2 calls.
        #expect(session.upgradeCalls == 6 + 3)
        let unmerged = UpgradePlanner(history: matrix.history, mappings: matrix.mappings, mergesInferredSteps: false)
        let stops = try matrix.cases.map { pair in try unmerged.plan(from: pair.from, to: pair.to).steps.count }
        #expect(stops == [1, 2, 3, 1, 2, 1])
    }

    @Test("every pair has the outcome it has alone, in the matrix's order or backwards")
    func sameOutcomes() throws {
        let matrix = try recipes()
        for order in [matrix.cases, matrix.cases.reversed()] {
            let (alone, shared, session) = try outcomes(matrix, order: order)
            #expect(shared == alone)
            #expect(shared.values.allSatisfy { $0.result != nil }, "\(shared)")
            #expect(Set(session.seededVersions) == ["Recipes", "Recipes 2", "Recipes 3"])
            #expect(session.seededVersions.count == 3)
        }
    }

    @Test("a pair that fails fails alike in a session, and the pairs after it still pass or fail as alone")
    func sameFailures() throws {
        var policies = SamplePolicies.registry
        policies.register("ChefNamePolicy") { ASCIINamePolicy() }
        let tampering = MigrationStage(
            from: "Recipes 3", to: "Recipes 4",
            didMigrate: { db, _ in try db.execute(sql: "UPDATE ZRECIPE SET ZNAME = 'tampered' WHERE Z_PK = 3") })
        for matrix in [try recipes(policies: policies), try recipes(stages: [tampering])] {
            let (alone, shared, _) = try outcomes(matrix, order: matrix.cases)
            #expect(shared == alone)
            #expect(shared.values.contains { $0.result == nil }, "some pair fails")
            #expect(shared.values.contains { $0.result != nil }, "some pair passes")
        }
    }

    @Test(
        "checking pairs of different first versions at once gives each pair its outcome alone",
        arguments: [1, 2, 4])
    func concurrentOutcomes(concurrency: Int) throws {
        var policies = SamplePolicies.registry
        policies.register("ChefNamePolicy") { ASCIINamePolicy() }
        for matrix in [try recipes(), try recipes(policies: policies)] {
            let session = try matrix.session(rows: 10)
            let reported = ReportedPairs()
            let checked = session.check(matrix.cases, concurrency: concurrency) { reported.append($0.pair) }
            #expect(checked.map(\.pair) == matrix.cases)
            // Numbered in the order they finished: each number once.
            #expect(checked.map(\.finished).sorted() == Array(1...matrix.cases.count))
            #expect(reported.pairs.sorted { "\($0)" < "\($1)" } == matrix.cases.sorted { "\($0)" < "\($1)" })
            var concurrent: [UpgradeMatrix.Pair: Outcome] = [:]
            var alone: [UpgradeMatrix.Pair: Outcome] = [:]
            for item in checked {
                concurrent[item.pair] = Outcome { try item.result.get() }
                alone[item.pair] = Outcome { try matrix.check(item.pair, rows: 10) }
            }
            #expect(concurrent == alone)
            #expect(Set(session.seededVersions) == ["Recipes", "Recipes 2", "Recipes 3"])
            #expect(session.seededVersions.count == 3)
            #expect(session.upgradeCalls == 6 + 3 || concurrent.values.contains { $0.result == nil })
        }
    }
}

/// The pairs `onResult` reported, from the session's threads.
///
/// `@unchecked Sendable`: `reported` is only read and written with `lock` held.
private final class ReportedPairs: @unchecked Sendable {
    private let lock = NSLock()
    private var reported: [UpgradeMatrix.Pair] = []

    func append(_ pair: UpgradeMatrix.Pair) { lock.withLock { reported.append(pair) } }

    var pairs: [UpgradeMatrix.Pair] { lock.withLock { reported } }
}

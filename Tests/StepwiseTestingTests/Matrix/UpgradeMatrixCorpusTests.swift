import Foundation
import Stepwise
import StepwiseMapping
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The matrix of the corpus's three real model histories, with the corpus's mapping models
/// (as Stepwise files) and its policies in Swift, on seeded stores.
@Suite("UpgradeMatrix: corpus", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct UpgradeMatrixCorpusTests {
    /// wibosco's 2 → 3 policy gives each new Color a fresh `UUID()`: two runs never agree.
    static let ignored: Set<String> = ["Color.colorID"]

    static let matrices = Result {
        try CorpusBundle.allCases.map { bundle in
            let corpus = try Corpus.required()
            return try UpgradeMatrix(
                bundleAt: corpus.url(bundle.path),
                policies: SamplePolicies.registry, ignoring: ignored)
        }
    }

    static func matrix(for pair: UpgradeMatrix.Pair) throws -> UpgradeMatrix {
        try #require(try matrices.get().first { $0.history.version(named: pair.from) != nil })
    }

    @Test("Apptentive's v4 → v5 mapping model without ATMessageSender fails the dropped rows check")
    func leftOutEntityFails() throws {
        let matrix = try Self.matrix(for: UpgradeMatrix.Pair(from: "ATDataModel 4", to: "ATDataModel 5"))
        let key = MappingDirectory.StepKey("ATDataModel 4", "ATDataModel 5")
        var mappings = matrix.mappings
        mappings[key] = try #require(mappings[key]).map { $0.leavingOut(entity: "ATMessageSender") }
        let edited = try UpgradeMatrix(
            history: matrix.history, mappings: mappings, policies: matrix.policies, ignoring: Self.ignored)
        for pair in [("ATDataModel 4", "ATDataModel 5"), ("ATDataModel 2", "ATDataModel 6")] {
            let failure = try #require(
                throws: UpgradeMatrixFailure.self,
                "\(pair)"
            ) { try edited.check(UpgradeMatrix.Pair(from: pair.0, to: pair.1), rows: 10) }
            #expect(failure.check == .droppedRows)
            #expect(failure.entity == "ATMessageSender")
            #expect(failure.description.contains("(left out of the mapping)"), "\(failure)")
        }
    }

    @Test("every later version is reachable from every version")
    func sizes() throws {
        let matrices = try Self.matrices.get()
        let sizes = matrices.map { $0.cases.count }
        let unreachable = matrices.flatMap { $0.unreachable }
        #expect(sizes == [15, 15, 6])
        #expect(unreachable.isEmpty)
    }

    @Test("every pair upgrades a seeded store soundly", arguments: try matrices.get().flatMap { $0.cases })
    func pair(_ pair: UpgradeMatrix.Pair) throws {
        let result = try Self.matrix(for: pair).check(pair, rows: 10)
        #expect(result.pair == pair)
        #expect(result.seededRows > 0)
    }
}

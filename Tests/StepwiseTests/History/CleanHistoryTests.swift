import Foundation
import StepwiseModel
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// A clean history passes: the sample histories in `Versions/` and the corpus bundles (read
/// where they are; no store is opened) have no error, with every policy their mappings name
/// registered.
@Suite("History check on clean histories")
struct CleanHistoryTests {
    @Test(arguments: ["Recipes", "University", "Events"])
    func everySampleHistoryPasses(_ name: String) throws {
        let bundle = Corpus.packageRoot.appendingPathComponent("Versions/\(name).xcdatamodeld")
        let report = try HistoryCheck(bundleAt: bundle, policies: SamplePolicies.registry).run()
        #expect(report.errors == 0, "\(report.findings)")
        #expect(report.findings.allSatisfy { $0.severity != .error })
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusBundle.allCases)
    func everyCorpusHistoryPasses(_ bundle: CorpusBundle) throws {
        let corpus = try Corpus.required()
        let report = try HistoryCheck(bundleAt: corpus.url(bundle), policies: SamplePolicies.registry).run()
        #expect(report.errors == 0, "\(report.findings)")
    }

    /// Wire's 90 versions, shipped as lightweight migrations: no error. Its seven pairs of
    /// versions with identical hashes are warnings (their stores are interchangeable), as are the
    /// attributes its steps drop.
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func wiresHistoryPasses() throws {
        let corpus = try Corpus.required()
        let report = try HistoryCheck(bundleAt: corpus.url("wire-data-model/model/zmessaging.xcdatamodeld")).run()
        #expect(report.errors == 0, "\(report.findings.filter { $0.severity == .error })")
        let duplicates = report.findings.filter { $0.kind == .duplicateVersion }
        #expect(duplicates.count == 7)
        #expect(duplicates.allSatisfy { $0.severity == .warning })
        #expect(duplicates.contains { $0.version == "zmessaging2.15.0" || $0.version == "zmessaging2.11" })
    }

    /// The corpus mapping models name their policies module-qualified, as Xcode writes them:
    /// without a registry that knows them, the check says which.
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func aCorpusPolicyMissingFromTheRegistryIsNamed() throws {
        let corpus = try Corpus.required()
        let report = try HistoryCheck(bundleAt: corpus.url(.wibosco), policies: PolicyRegistry()).run()
        #expect(report.findings.map(\.kind) == [.unregisteredPolicy, .currentVersionNotShipped])
        #expect(report.findings.first?.version == "CoreDataMigration_Example 3")
    }
}

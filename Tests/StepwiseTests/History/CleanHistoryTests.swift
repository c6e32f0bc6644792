import Foundation
import StepwiseModel
import StepwiseTesting
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

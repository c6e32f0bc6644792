import Foundation
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// The bad inputs a user can hand Stepwise, each through the entry point they would hit
/// (`Upgrader`, `VersionRegistry`, `ModelBundle`, `MappingDirectory`, `ExpressionParser`,
/// the `stepwise` command), with the exact typed error it must get.
///
/// Every case is one row of ``BadInputCatalogue/cases``, grouped by area in the
/// `BadInputCatalogue+<Area>.swift` files. Each row checks:
/// - the outcome: the error's type, kind and associated values (file, version, entity,
///   property, row), or for a hostile name a successful upgrade with every value intact;
/// - the files: every input file is byte-identical afterwards, and nothing is left beside
///   the store but the documented lock file (and, after a failed step, the work folder the
///   next call resumes from). See ``Leftovers``.
enum BadInputCatalogue {
    static let cases: [BadInputCase] = stores + models + mappings + environment + identifiers + commandLine
}

@Suite("Bad-input catalogue")
struct BadInputCatalogueTests {
    @Test(
        "each bad input gets its exact error and leaves the files as they were",
        arguments: BadInputCatalogue.cases.filter { $0.requirement == .none })
    func badInput(_ badInput: BadInputCase) throws {
        try Self.run(badInput)
    }

    @Test(
        "bad inputs from the corpus", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"),
        arguments: BadInputCatalogue.cases.filter { $0.requirement == .corpus })
    func corpusBadInput(_ badInput: BadInputCase) throws {
        try Self.run(badInput)
    }

    @Test("the catalogue has at least 40 cases, each named once")
    func catalogueIsComplete() {
        let names = BadInputCatalogue.cases.map(\.testDescription)
        #expect(names.count >= 40)
        #expect(Set(names).count == names.count, "duplicate names")
        let areas = Set(BadInputCatalogue.cases.map(\.area.rawValue))
        #expect(areas == ["store", "model", "mapping", "environment", "hostile identifier", "command line"])
    }

    /// Arranges the inputs, snapshots the workspace, calls the entry point, and checks the
    /// outcome and what changed.
    static func run(_ badInput: BadInputCase) throws {
        let workspace = try BadInputWorkspace()
        try badInput.arrange(workspace)
        let before = FileTree(of: workspace.url)
        let outcome: BadInputOutcome
        do {
            outcome = .returned(try badInput.act(workspace))
        } catch {
            outcome = .threw(error)
        }
        let after = FileTree(of: workspace.url)
        try badInput.expected.verify(outcome, workspace, badInput.sourceLocation)
        badInput.leaves.check(before: before, after: after, in: workspace, at: badInput.sourceLocation)
    }
}

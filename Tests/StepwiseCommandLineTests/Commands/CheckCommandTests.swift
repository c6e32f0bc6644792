import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `stepwise check` as a CI gate: exit 0 on a clean history or one with warnings only, 1 on an
/// error, one line per finding with its fix, and the `--json` shape.
@Suite("stepwise check")
struct CheckCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-check-cli")
        _ = try SampleHistories.write(to: directory.url)
    }

    @Test(arguments: ["Recipes", "University", "Events"])
    func aSampleHistoryPassesWithExitStatusZero(_ name: String) throws {
        let bundle = directory.path("\(name).xcdatamodeld").path
        let result = try CommandRunner().run(["check", "--models", bundle])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(
            result.standardOutput.hasSuffix("\(bundle): 0 errors, 0 warnings, 1 info.\n"), "not recorded as shipped")
        // The stock tool knows only the demo's policies; the test tool knows every sample's.
        #expect(result.standardError.contains("policies not checked"))
        let tool = try CommandRunner.testTool().run(["check", "--models", bundle])
        #expect(tool.status == 0, "\(tool.standardOutput)")
        #expect(!tool.standardError.contains("policies not checked"))
    }

    /// The corpus bundles are read where they are: `check` opens no store.
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusBundle.allCases)
    func aCorpusHistoryPassesWithExitStatusZero(_ bundle: CorpusBundle) throws {
        let corpus = try Corpus.required()
        let result = try CommandRunner.testTool().run(["check", "--models", corpus.url(bundle).path, "--json"])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let findings = try #require(try result.json()["findings"] as? [[String: Any]])
        #expect(findings.allSatisfy { $0["severity"] as? String != "error" })
    }

    @Test func anErrorExitsOneWithALinePerFindingAndItsFix() throws {
        let bundle = try gapBundle()
        let result = try CommandRunner().run(["check", "--models", bundle.path])
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        // The order the paths were checked along comes first.
        #expect(lines.first == "Order: Blog, Blog 2 — natural order of the names")
        #expect(lines[1].hasPrefix("error (noPath): 'Blog' has no path to the current version 'Blog 2'"))
        #expect(lines[1].contains(" Fix: "))
        #expect(lines.last == "\(bundle.path): 1 error, 0 warnings, 1 info.")
    }

    /// Versions with equal hashes are interchangeable for stores (Core Data opens either's
    /// store with either model): a warning, which leaves the gate green.
    @Test func aDuplicateVersionIsAWarningAndExitsZero() throws {
        let bundle = try duplicateBundle()
        let result = try CommandRunner().run(["check", "--models", bundle.path])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init).dropFirst()
        #expect(
            lines.first
                == "warning (duplicateVersion): 'Blog 2' has the same entity hashes as 'Blog', so the two are interchangeable for stores: Core Data opens a store of either with either model, and no step runs between them; their version identifiers (NSStoreModelVersionIdentifiers) are the same too, so Stepwise takes a store of either for 'Blog 2', the newer. Fix: Nothing to do for stores; 'Blog 2' is a copy of 'Blog' with nothing changed, which you may remove before it ships."
        )
        #expect(lines.last == "\(bundle.path): 0 errors, 1 warning, 1 info.")
        let json = try CommandRunner().run(["check", "--models", bundle.path, "--json"])
        #expect(json.status == 0)
        let findings = try #require(try json.json()["findings"] as? [[String: Any]])
        // The kind keeps its name for --json readers; only its severity changed.
        #expect(findings.first?["kind"] as? String == "duplicateVersion")
        #expect(findings.first?["severity"] as? String == "warning")
    }

    @Test func jsonHasTheCountsAndEveryKeyOfEachFinding() throws {
        let bundle = try gapBundle()
        let result = try CommandRunner().run(["check", "--models", bundle.path, "--json"])
        #expect(result.status == 1)
        let json = try result.json()
        #expect(Set(json.keys) == ["errors", "warnings", "accepted", "order", "findings"])
        #expect((json["order"] as? [String: Any])?["versions"] as? [String] == ["Blog", "Blog 2"])
        #expect(json["errors"] as? Int == 1 && json["warnings"] as? Int == 0)
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.map { $0["kind"] as? String } == ["noPath", "currentVersionNotShipped"])
        #expect(
            Set(findings[0].keys) == [
                "severity", "kind", "version", "entity", "property", "message", "fix", "acceptedBecause",
            ])
        #expect(findings[0]["severity"] as? String == "error")
        #expect(findings[0]["kind"] as? String == "noPath")
        #expect(findings[0]["version"] as? String == "Blog")
        #expect(findings[0]["entity"] as? String == "Post" && findings[0]["property"] as? String == "rating")

        let clean = try CommandRunner().run([
            "check", "--models", directory.path("Recipes.xcdatamodeld").path, "--json",
        ])
        #expect(clean.status == 0)
        let cleanJSON = try clean.json()
        #expect(cleanJSON["errors"] as? Int == 0 && cleanJSON["warnings"] as? Int == 0)
        let cleanFindings = try #require(cleanJSON["findings"] as? [[String: Any]])
        #expect(cleanFindings.map { $0["severity"] as? String } == ["info"])
    }

    @Test func helpSaysWhichFindingsFailTheCheck() throws {
        let result = try CommandRunner().run(["check", "--help"])
        #expect(result.status == 0)
        let help = result.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("Warnings (exit status 0): two versions with equal entity hashes"))
        #expect(help.contains("(duplicateVersion)"))
        #expect(help.contains("Only errors fail the check."))
    }

    @Test func aWarningAloneExitsZero() throws {
        let v1 = ObjectModel("Blog") {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("color", .string)
            }
        }
        let v2 = ObjectModel("Blog 2") { Entity("Post") { Attribute("title", .string) } }
        let bundle = directory.path("Blog.xcdatamodeld")
        try XcodeModelWriter.writeBundle([v1, v2], current: "Blog 2", to: bundle)
        let result = try CommandRunner().run(["check", "--models", bundle.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.hasPrefix(
                "Order: Blog, Blog 2 — natural order of the names\nwarning (dropsData): The inferred step 'Blog' → 'Blog 2' drops"
            ))
    }

    @Test func anUnreadableBundleIsAFailureNotAFinding() throws {
        let result = try CommandRunner().run(["check", "--models", directory.path("Missing.xcdatamodeld").path])
        #expect(result.status == 65)
        #expect(result.standardError.hasPrefix("Error: "))
    }

    /// `Blog`, then `Blog 2` with a new required attribute without a default: no path.
    private func gapBundle() throws -> URL {
        let v1 = ObjectModel("Blog") { Entity("Post") { Attribute("title", .string) } }
        let v2 = ObjectModel("Blog 2") {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("rating", .integer16).required()
            }
        }
        let bundle = directory.path("Blog.xcdatamodeld")
        try XcodeModelWriter.writeBundle([v1, v2], current: "Blog 2", to: bundle)
        return bundle
    }

    /// `Blog` and an unchanged copy named `Blog 2`.
    private func duplicateBundle() throws -> URL {
        let v1 = ObjectModel("Blog") { Entity("Post") { Attribute("title", .string) } }
        var v2 = v1
        v2.name = "Blog 2"
        let bundle = directory.path("Blog.xcdatamodeld")
        try XcodeModelWriter.writeBundle([v1, v2], current: "Blog 2", to: bundle)
        return bundle
    }
}

import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Accepting `stepwise check` findings in a committed file, on the Shop history (its explicit
/// step has a cross-entity policy): `Shop 2` shipped, then got an attribute, so the check
/// finds an error a team may decide to live with.
@Suite("History check: accepted findings")
struct AcceptedFindingsTests {
    let directory: TemporaryDirectory
    let bundle: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-accepted")
        bundle = try ShopHistory.writeWithShippedVersionEdited(to: directory.url)
    }

    func writeAccepted(_ json: String, to url: URL? = nil) throws -> URL {
        let url = url ?? AcceptedFindings.defaultURL(forBundleAt: bundle)
        try Data(json.utf8).write(to: url)
        return url
    }

    static let acceptingTheEdit = """
        {"accepted": [{"kind": "shippedVersionEdited", "version": "Shop 2",
                       "reason": "Customer.email was added to Shop 2 after 1.4 shipped; no 1.4 store exists outside QA."}]}
        """

    @Test func withoutTheFileTheEditFailsTheCheck() throws {
        let report = try HistoryCheck(bundleAt: bundle, policies: SamplePolicies.registry).run()
        #expect(!report.passes)
        let edits = report.findings(.shippedVersionEdited)
        #expect(edits.map(\.version) == ["Shop 2"])
        #expect(edits.allSatisfy { !$0.isAccepted })
    }

    @Test func theFileBesideTheBundleAcceptsTheFindingAndListsItWithItsReason() throws {
        _ = try writeAccepted(Self.acceptingTheEdit)
        let report = try HistoryCheck(bundleAt: bundle, policies: SamplePolicies.registry).run()
        #expect(report.passes, "\(report.findings)")
        #expect(report.errors == 0)
        #expect(report.accepted == 1)
        let finding = try #require(report.findings(.shippedVersionEdited).first)
        #expect(finding.severity == .error, "an accepted finding keeps its severity")
        #expect(finding.acceptedBecause?.hasPrefix("Customer.email was added") == true)
        #expect(
            finding.description.hasPrefix("accepted error (shippedVersionEdited): 'Shop 2' changed since it shipped"))
        #expect(finding.description.hasSuffix("Accepted because: \(finding.acceptedBecause ?? "")"))
        #expect(report.findings.last == finding, "accepted findings come last")
        #expect(report.findings(.staleAcceptance).isEmpty)
    }

    @Test func anEntryThatMatchesNoFindingIsReportedStale() throws {
        _ = try writeAccepted(
            """
            {"accepted": [
              {"kind": "shippedVersionEdited", "version": "Shop 2", "reason": "known"},
              {"kind": "duplicateVersion", "version": "Shop 3", "reason": "was true once"},
              {"kind": "shippedVersionEdited", "version": "Shop 2", "entity": "Order", "reason": "narrowed to nothing"}
            ]}
            """)
        let report = try HistoryCheck(bundleAt: bundle, policies: SamplePolicies.registry).run()
        #expect(report.passes, "a stale entry is a warning")
        let stale = report.findings(.staleAcceptance)
        #expect(stale.map(\.version) == ["Shop 3", "Shop 2"])
        #expect(stale.map(\.entity) == [nil, "Order"])
        #expect(stale.allSatisfy { $0.severity == .warning && !$0.isAccepted })
        #expect(
            stale.first?.message
                == "Shop.accepted-findings.json accepts a duplicateVersion finding for 'Shop 3' (entry 2), and the check no longer makes it."
        )
        #expect(stale.first?.fix.hasPrefix("Remove entry 2 from Shop.accepted-findings.json") == true)
    }

    @Test func findingsCanBeAcceptedInCode() throws {
        let check = try HistoryCheck(bundleAt: bundle, policies: SamplePolicies.registry)
        let report = check.accepting(
            AcceptedFindings([.init(.shippedVersionEdited, version: "Shop 2", entity: "Customer", reason: "QA only")])
        ).run()
        #expect(report.passes)
        #expect(report.findings(.shippedVersionEdited).allSatisfy { $0.acceptedBecause == "QA only" })
    }

    /// The issue's case: two versions that differ only by a transient attribute share every
    /// hash. Accepted, the finding is still listed, and counted as accepted, not as a warning.
    @Test func aDuplicateVersionCanBeAccepted() throws {
        let withTransient = ObjectModel("Shop 4", versionIdentifiers: ["4"]) {
            Entity("Customer") {
                Attribute("name", .string).required()
                Attribute("orderCount", .integer32).required().defaultValue("0")
                Attribute("initials", .string).transient()
                Relationship("orders", to: "Order", inverse: "customer").toMany()
            }
            Entity("Order") {
                Attribute("number", .integer32).required()
                Attribute("statusCode", .integer16).required()
                Relationship("customer", to: "Customer", inverse: "orders").required()
                Unique("number")
            }
        }
        let check = HistoryCheck(
            history: VersionHistory(ShopHistory.history.versions + [withTransient]),
            mappings: try ShopHistory.mappings, policies: SamplePolicies.registry)
        #expect(check.run().warnings == 1)
        let report = check.accepting(
            AcceptedFindings([.init(.duplicateVersion, version: "Shop 4", reason: "only a transient attribute")])
        ).run()
        #expect((report.errors, report.warnings, report.accepted) == (0, 0, 1))
        #expect(report.findings(.duplicateVersion).first?.acceptedBecause == "only a transient attribute")
    }

    @Test func theJSONMarksAcceptedFindingsAndCountsThem() throws {
        _ = try writeAccepted(Self.acceptingTheEdit)
        let report = try HistoryCheck(bundleAt: bundle, policies: SamplePolicies.registry).run()
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(json["errors"] as? Int == 0)
        #expect(json["accepted"] as? Int == 1)
        let findings = try #require(json["findings"] as? [[String: Any]])
        let accepted = try #require(findings.first { $0["kind"] as? String == "shippedVersionEdited" })
        #expect((accepted["acceptedBecause"] as? String)?.hasPrefix("Customer.email") == true)
        #expect(
            findings.filter { $0["kind"] as? String != "shippedVersionEdited" }.allSatisfy {
                $0["acceptedBecause"] is NSNull
            })
        #expect(try JSONDecoder().decode(HistoryCheckReport.self, from: JSONEncoder().encode(report)) == report)
    }

    @Test(arguments: [
        (#"{"accepted": [{"kind": "shippedVersionEdited", "version": "Shop 2"}]}"#, "entry 1: key 'reason' is missing"),
        (
            #"{"accepted": [{"kind": "editedVersion", "version": "Shop 2", "reason": "x"}]}"#,
            "unknown kind 'editedVersion'"
        ),
        (#"{"accepted": [{"kind": "noPath", "reason": "x"}]}"#, "key 'version' is missing"),
        (
            #"{"accepted": [{"kind": "noPath", "version": null, "reason": "  "}]}"#,
            "entry 1 (noPath) has an empty reason"
        ),
        (#"{"accepted": [}"#, "the file"),
    ])
    func aMalformedFileIsATypedErrorNamingTheFileAndTheEntry(_ json: String, _ expected: String) throws {
        let url = try writeAccepted(json)
        let error = try #require(throws: UpgradeError.self) {
            try HistoryCheck(bundleAt: bundle, policies: SamplePolicies.registry)
        }
        #expect(error.subjectPath == url.path)
        #expect(error.caseName == "malformed")
        #expect(error.description.contains(expected), "\(error)")
        #expect(error.description.contains("\"reason\""), "says what an entry needs")
    }

    @Test func aNamedFileThatIsMissingIsAnError() throws {
        let missing = directory.path("ci/accepted.json")
        let error = try #require(throws: UpgradeError.self) {
            try HistoryCheck(bundleAt: bundle, acceptedFindingsAt: missing)
        }
        #expect(error.caseName == "unreadable")
        #expect(error.subjectPath == missing.path)
    }
}

import Foundation
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The CI gates turned green honestly, from the command line, on the Shop history (its
/// explicit step's policy rewrites another entity's rows): `check --accept` and the matrix's
/// seeding options.
@Suite("stepwise check --accept and matrix seeding options")
struct GatesCLITests {
    let directory: TemporaryDirectory
    let bundle: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-gates-cli")
        bundle = try ShopHistory.sample.write(to: directory.url)
    }

    @Test func checkAcceptsAFindingFromTheGivenFileAndSaysSo() throws {
        _ = try ShopHistory.writeWithShippedVersionEdited(to: directory.url)
        let failing = try CommandRunner().run(["check", "--models", bundle.path])
        #expect(failing.status == 1, "\(failing.standardOutput)")
        let accepted = directory.path("accepted.json")
        try Data(
            #"{"accepted": [{"kind": "shippedVersionEdited", "version": "Shop 2", "reason": "QA-only build"}]}"#.utf8
        ).write(to: accepted)
        let result = try CommandRunner().run(["check", "--models", bundle.path, "--accept", accepted.path])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix("accepted error (shippedVersionEdited): 'Shop 2' changed since it shipped") })
        #expect(lines.contains { $0.hasSuffix("Accepted because: QA-only build") })
        #expect(lines.last == "\(bundle.path): 0 errors, 0 warnings, 1 info, 1 accepted.")
        let json = try CommandRunner().run(["check", "--models", bundle.path, "--accept", accepted.path, "--json"])
        #expect(json.status == 0)
        let object = try json.json()
        #expect(object["accepted"] as? Int == 1)
        #expect(object["errors"] as? Int == 0)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["acceptedBecause"] as? String == "QA-only build" })
    }

    @Test func checkRefusesAMalformedAcceptedFileNamingIt() throws {
        let accepted = directory.path("Shop.accepted-findings.json")
        try Data(#"{"accepted": [{"kind": "shippedVersionEdited", "version": "Shop 2"}]}"#.utf8).write(to: accepted)
        let result = try CommandRunner().run(["check", "--models", bundle.path])
        #expect(result.status == 65)
        #expect(
            result.standardError.contains(
                "\(accepted.path) is not an accepted-findings file: entry 1: key 'reason' is missing"))
    }

    static let constraints = [
        "--rows", "12", "--rows", "Order=30", "--every", "Order.customer", "--unique", "Order.number", "--values",
        "Order.status=open,shipped,delivered",
    ]

    @Test func theMatrixFailsUnconstrainedAndPassesConstrained() throws {
        let runner = try CommandRunner.testTool()
        let failing = try runner.run(["matrix", "--models", bundle.path, "--rows", "12"])
        #expect(failing.status == 1)
        #expect(failing.standardOutput.contains("✗ Shop 2 → Shop 3: upgrade failed"))
        let result = try runner.run(["matrix", "--models", bundle.path] + Self.constraints)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(
            result.standardOutput.contains("Shop 2 → Shop 3: Customer.orderCount (written by ShopOrderPolicy), Order"))
        #expect(result.standardOutput.contains("3 of 3 pairs passed (12 rows per entity, seed 1)."))
    }

    @Test func theSeedingFileGivesTheSameConstraintsAndJSONEchoesThem() throws {
        let file = directory.path("seeding.json")
        try Data(
            #"""
            {"defaultRows": 12, "rows": {"Order": 30}, "every": ["Order.customer"], "unique": ["Order.number"],
             "values": {"Order.status": ["open", "shipped", "delivered"]}}
            """#.utf8
        ).write(to: file)
        let result = try CommandRunner.testTool().run([
            "matrix", "--models", bundle.path, "--seeding", file.path, "--json",
        ])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let object = try result.json()
        #expect(object["failures"] as? Int == 0)
        let seeding = try #require(object["seeding"] as? [String: Any])
        #expect(seeding["defaultRows"] as? Int == 12)
        #expect(seeding["rows"] as? [String: Int] == ["Order": 30])
        #expect(seeding["values"] as? [String: [String]] == ["Order.status": ["open", "shipped", "delivered"]])
        let pairs = try #require(object["pairs"] as? [[String: Any]])
        let last = try #require(pairs.last)
        #expect((last["unchecked"] as? [String])?.contains("Customer.orderCount (written by ShopOrderPolicy)") == true)
    }

    @Test(arguments: [
        (["--every", "Invoice.customer"], "names the entity 'Invoice', which 'Shop 3' doesn't have"),
        (["--unique", "Order.customer"], "names 'Order.customer' in 'Shop'"),
        (["--values", "Order.number=one"], "'one': it doesn't read as Integer 32"),
    ])
    func anUnknownNameIsRefusedBeforeAnyPairRuns(_ arguments: [String], _ expected: String) throws {
        let result = try CommandRunner.testTool().run(["matrix", "--models", bundle.path] + arguments)
        #expect(result.status == 1)
        #expect(result.standardError.contains(expected), "\(result.standardError)")
        #expect(!result.standardError.contains("[1/3]"), "no pair ran")
    }

    @Test(arguments: [["--rows", "Order=x"], ["--every", "Order"], ["--values", "Order.status"]])
    func badSeedingOptionsAreRefused(_ arguments: [String]) throws {
        let result = try CommandRunner.testTool().run(["matrix", "--models", bundle.path] + arguments)
        #expect(result.status != 0)
        #expect(result.standardError.contains(arguments[0]))
    }
}

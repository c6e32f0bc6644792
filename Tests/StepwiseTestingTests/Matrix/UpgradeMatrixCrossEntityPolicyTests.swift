import Foundation
import Stepwise
import StepwiseMapping
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The matrix on the Shop history, whose `Shop 2 → Shop 3` policy on Order rewrites Customer
/// rows (``ShopOrderPolicy``): seeding constraints make the pairs pass that the policy's
/// assumptions fail unconstrained, and the policy's declared writes keep the value check from
/// failing on the rows it rewrites.
@Suite("UpgradeMatrix: a cross-entity policy")
struct UpgradeMatrixCrossEntityPolicyTests {
    /// What the shop's data always holds and Shop 3 relies on.
    static let seeding = SeedingConstraints(
        rows: RowCounts(default: 12, ["Order": 30]), every: ["Order.customer"], unique: ["Order.number"],
        values: ["Order.status": ["open", "shipped", "delivered"]])

    static let pair = UpgradeMatrix.Pair(from: "Shop 2", to: "Shop 3")

    /// The same policy without its declaration.
    final class UndeclaredShopOrderPolicy: ShopOrderPolicy {
        override var writesOtherEntities: [String: Set<String>] { [:] }
    }

    static func matrix(declaring: Bool = true) throws -> UpgradeMatrix {
        var policies = SamplePolicies.registry
        if !declaring { policies.register("ShopOrderPolicy") { UndeclaredShopOrderPolicy() } }
        return try UpgradeMatrix(history: ShopHistory.history, mappings: try ShopHistory.mappings, policies: policies)
    }

    @Test func unconstrainedSeedingFailsTheExplicitStep() throws {
        let failure = try #require(throws: UpgradeMatrixFailure.self) {
            try Self.matrix().check(Self.pair, seeding: SeedingConstraints(rows: RowCounts(default: 12, ["Order": 30])))
        }
        #expect(failure.check == .upgrade)
    }

    @Test func constrainedSeedingPassesAndListsThePolicysWritesAsUnchecked() throws {
        let result = try Self.matrix().check(Self.pair, seeding: Self.seeding)
        #expect(result.seededRows == 12 + 30)
        #expect(result.copiedEntities == ["Customer"])
        #expect(result.unchecked.contains("Customer.orderCount (written by ShopOrderPolicy)"), "\(result.unchecked)")
        #expect(result.unchecked.contains("Order"), "made by a policy")
        #expect(result.valuesCompared == 12, "Customer.name of each customer; orderCount is left to the policy")
    }

    @Test func withoutTheDeclarationTheValueCheckFailsOnTheRewrittenRows() throws {
        let failure = try #require(throws: UpgradeMatrixFailure.self) {
            try Self.matrix(declaring: false).check(Self.pair, seeding: Self.seeding)
        }
        #expect(failure.check == .value)
        #expect(failure.entity == "Customer")
        #expect(failure.property == "orderCount")
    }

    /// Each constraint is needed: without it, the step fails on the data it excludes.
    @Test(arguments: ["every", "unique", "values"])
    func eachConstraintIsNeeded(_ left: String) throws {
        var seeding = Self.seeding
        switch left {
        case "every": seeding.every = []
        case "unique": seeding.unique = []
        default: seeding.values = [:]
        }
        let failure = try #require(throws: UpgradeMatrixFailure.self) {
            try Self.matrix().check(Self.pair, seeding: seeding)
        }
        #expect(failure.check == .upgrade, "\(failure)")
    }

    @Test func everyPairPassesWithTheConstraints() throws {
        let matrix = try Self.matrix()
        try matrix.validate(Self.seeding)
        #expect(matrix.cases.map(\.description) == ["Shop → Shop 2", "Shop → Shop 3", "Shop 2 → Shop 3"])
        for pair in matrix.cases {
            try matrix.check(pair, seeding: Self.seeding)
        }
    }

    @Test func aConstraintNoVersionHasIsATypedErrorNamingItAndTheVersion() throws {
        let matrix = try Self.matrix()
        let entity = try #require(throws: UpgradeMatrixFailure.self) {
            try matrix.validate(SeedingConstraints(every: ["Invoice.customer"]))
        }
        #expect(
            entity.kind == .unknownEntity(entity: "Invoice", version: "Shop 3", constraint: "every Invoice.customer"))
        let property = try #require(throws: UpgradeMatrixFailure.self) {
            try matrix.validate(SeedingConstraints(unique: ["Order.customer"]))
        }
        guard case .unknownProperty(let name, let attribute, let version, _, let reason) = property.kind else {
            Issue.record("\(property)")
            return
        }
        #expect((name, attribute, version) == ("Order", "customer", "Shop"))
        #expect(reason.contains("it has: number, status"))
        // Order.status exists in Shop and Shop 2 only: it applies there, and isn't an error.
        try matrix.validate(SeedingConstraints(values: ["Order.status": ["open"]]))
    }
}

import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// A plan from a store's cached model joins the history at the version the cached model
/// differs least from, keeping what the step straight to the target would drop, and says so
/// (`ModelCacheJoin`, issue 42). The history renames `text` → `body` → `content` → `markdown`;
/// the cache is Journal 2 as it shipped, before `pinned` was added in place
/// (`CachedRenameHistory`).
@Suite("Upgrade planner: joining the history from a cached model")
struct ModelCacheJoinTests {
    static let cacheName = "Journal.sqlite's model cache"
    static let cache = CachedRenameHistory.cached(named: cacheName)

    static func planner(cache: ObjectModel = cache, merging: Bool = true) -> UpgradePlanner {
        UpgradePlanner(history: CachedRenameHistory.history, mergesInferredSteps: merging)
            .startingFrom(modelCache: cache)
    }

    static func describe(_ plan: UpgradePlan) -> [String] {
        plan.steps.map { $0.description.replacingOccurrences(of: cacheName, with: "cache") }
    }

    static let body = DroppedData(entity: "Entry", property: "body", kind: .attribute, reason: .removedFromModel)
    static let mood = DroppedData(entity: "Entry", property: "mood", kind: .attribute, reason: .removedFromModel)

    @Test func theCachedModelDiffersLeastFromTheVersionItWasBeforeTheEdit() {
        let nearest = Self.planner().nearestVersions(to: Self.cache)
        #expect(nearest.map(\.version.name) == ["Journal 2"])
        #expect(nearest.first?.differences.map(\.description) == ["Entry.pinned was added (Boolean, optional)."])
    }

    /// The exact failure of issue 42: straight to Journal 4, one inferred step drops `body`,
    /// which the history renames through three versions. Through Journal 2 nothing is dropped.
    @Test func thePlanGoesThroughTheNearestVersionAndKeepsTheRenamedValue() throws {
        let separate = try Self.planner(merging: false).plan(from: Self.cacheName, to: "Journal 4")
        #expect(
            Self.describe(separate) == [
                "cache → Journal 2 (inferred)", "Journal 2 → Journal 3 (inferred)", "Journal 3 → Journal 4 (inferred)",
            ])
        #expect(separate.steps.flatMap(UpgradePlanner.drops(of:)) == [])

        let merged = try Self.planner().plan(from: Self.cacheName, to: "Journal 4")
        #expect(Self.describe(merged) == ["cache → Journal 4 via Journal 2, Journal 3 (inferred)"])
        #expect(merged.steps.flatMap(UpgradePlanner.drops(of:)) == [])

        let straight = try #require(
            Self.planner().modelCacheEdges(from: Self.cacheName, to: "Journal 4").first { $0.to == "Journal 4" })
        #expect(UpgradePlanner.drops(of: straight) == [Self.body])
        #expect(merged.modelCacheJoin?.droppedGoingStraight == [Self.body])
    }

    /// The cache offers two steps: to its nearest version and straight to the target.
    @Test func theCacheHasAnEdgeToItsNearestVersionAndOneToTheTarget() {
        let edges = Self.planner().modelCacheEdges(from: Self.cacheName, to: "Journal 4")
        #expect(edges.map(\.to) == ["Journal 2", "Journal 4"])
        #expect(edges.allSatisfy { $0.kind == .inferred && $0.from == Self.cacheName })
        #expect(Self.planner().modelCacheEdges(from: "Journal", to: "Journal 4").isEmpty)
    }

    /// A cache edited both ways: `mood`, which no version has, is dropped on every path, so
    /// every path drops something; the plan still goes through Journal 2, which drops only that.
    @Test func whenEveryPathDropsThePlanDropsTheLeast() throws {
        let cache = CachedRenameHistory.cachedWithMood(named: Self.cacheName)
        let plan = try Self.planner(cache: cache, merging: false).plan(from: Self.cacheName, to: "Journal 4")
        #expect(plan.steps.first?.to == "Journal 2")
        #expect(plan.steps.flatMap(UpgradePlanner.drops(of:)) == [Self.mood])
        let join = try #require(plan.modelCacheJoin)
        #expect(join.route == .throughVersion)
        #expect(join.differences.count == 2)
        // What the straight step drops beyond the plan: `body`, not `mood`, which both drop.
        #expect(join.droppedGoingStraight == [Self.body])
    }

    struct Route: Sendable, CustomTestStringConvertible {
        var target: String
        var steps: [String]
        var route: ModelCacheJoin.Route
        var description: String
        var testDescription: String { "to \(target)" }
    }

    static let routes: [Route] = [
        Route(
            target: "Journal 4", steps: ["cache → Journal 4 via Journal 2, Journal 3 (inferred)"],
            route: .throughVersion,
            description:
                "the store's cached model differs least from 'Journal 2' (1 difference: Entry.pinned was added (Boolean, optional)), so the plan joins the history there: the step straight to 'Journal 4' would drop Entry.body (removed from the model)"
        ),
        // Journal 3's `content` is renamed from `body`: straight there drops nothing, in one step.
        Route(
            target: "Journal 3", steps: ["cache → Journal 3 (inferred)"], route: .straightToTarget,
            description:
                "the store's cached model differs least from 'Journal 2' (1 difference: Entry.pinned was added (Boolean, optional)), but the plan goes straight to 'Journal 3': the way through 'Journal 2' drops no less and takes more steps"
        ),
        Route(
            target: "Journal 2", steps: ["cache → Journal 2 (inferred)"], route: .versionIsTarget,
            description:
                "the store's cached model differs least from 'Journal 2', the target (1 difference: Entry.pinned was added (Boolean, optional))"
        ),
        // Nothing leads back from Journal 2 without a mapping written for it.
        Route(
            target: "Journal", steps: ["cache → Journal (inferred)"], route: .noPathFromVersion,
            description:
                "the store's cached model differs least from 'Journal 2' (1 difference: Entry.pinned was added (Boolean, optional)), but the plan goes straight to 'Journal': no path leads from 'Journal 2' to 'Journal'"
        ),
    ]

    @Test(arguments: routes)
    func thePlanSaysWhereItJoinsTheHistoryAndWhy(_ expected: Route) throws {
        let plan = try Self.planner().plan(from: Self.cacheName, to: expected.target)
        #expect(Self.describe(plan) == expected.steps)
        let join = try #require(plan.modelCacheJoin)
        #expect(join.route == expected.route)
        #expect(join.version == "Journal 2")
        #expect(join.target == expected.target)
        #expect(join.description == expected.description)
    }

    @Test func aPlanFromAVersionOfTheHistoryHasNoJoin() throws {
        let plan = try Self.planner().plan(from: "Journal", to: "Journal 4")
        #expect(plan.modelCacheJoin == nil)
        #expect(plan.steps.first?.from == "Journal")
    }

    @Test func theJoinEncodesEveryFieldAndItsSentence() throws {
        let plan = try Self.planner().plan(from: Self.cacheName, to: "Journal 4")
        let data = try JSONEncoder().encode(try #require(plan.modelCacheJoin))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["version"] as? String == "Journal 2")
        #expect(json["route"] as? String == "throughVersion")
        #expect(json["target"] as? String == "Journal 4")
        #expect(json["differences"] as? [String] == ["Entry.pinned was added (Boolean, optional)."])
        let dropped = try #require(json["droppedGoingStraight"] as? [[String: Any]])
        #expect(dropped.map { $0["property"] as? String } == ["body"])
        #expect((json["description"] as? String)?.hasPrefix("the store's cached model differs least from") == true)
    }
}

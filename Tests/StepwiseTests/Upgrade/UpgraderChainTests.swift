import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Every version of every sample history upgrades to the latest, and the latest is
/// up to date at the cost of one metadata read.
@Suite("upgradeIfNeeded: chains")
struct UpgraderChainTests {
    /// Each (history, start version) pair of Versions/.
    static let starts: [(String, Int)] = SampleHistories.all.flatMap { sample in
        sample.history.versions.indices.dropLast().map { (sample.name, $0) }
    }

    @Test("every version upgrades to the latest", arguments: starts)
    func everyVersionUpgradesToTheLatest(sampleName: String, startIndex: Int) throws {
        let fixture = try UpgradeFixture(sampleName)
        let start = fixture.history.versions[startIndex].name
        // Bring the seeded v1 store to the start version first (itself an upgrade with a target).
        if startIndex > 0 {
            let report = try fixture.upgrader(to: start).upgradeIfNeededSynchronously(storeAt: fixture.store)
            #expect(report.from == fixture.history.versions[0].name)
            #expect(report.to == start)
        }
        #expect(try fixture.version() == start)
        let before = try countOfFirstEntity(fixture)

        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.upToDate == false)
        #expect(report.from == start)
        #expect(report.to == fixture.latest)
        #expect(report.steps.first?.from == start)
        #expect(report.steps.last?.to == fixture.latest)
        #expect(report.steps.allSatisfy { !$0.resumed })
        #expect(try fixture.version() == fixture.latest)
        #expect(try countOfFirstEntity(fixture) == before, "rows of the history's first entity were lost")
        // Nothing is left beside the store but the lock files.
        #expect(
            fixture.directoryListing().filter { $0.hasPrefix(".Store.sqlite") } == [
                ".Store.sqlite.stepwise-access", ".Store.sqlite.stepwise-lock",
            ])
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path + "-wal"))
    }

    /// Recipes keep their recipes, University its universities; each Event becomes one
    /// TimeStampEvent (Events 2 splits the entity in two, one mapping model each).
    private func countOfFirstEntity(_ fixture: UpgradeFixture) throws -> Int {
        switch fixture.sample.name {
        case "Recipes": return try fixture.count("ZRECIPE")
        case "University": return try fixture.count("ZUNIVERSITY")
        default: return try fixture.count(try fixture.version() == "Events" ? "ZEVENT" : "ZTIMESTAMPEVENT")
        }
    }

    @Test("Recipes 1 → 4: values as the mappings and policies make them")
    func recipesOutcome() throws {
        let fixture = try UpgradeFixture("Recipes")
        let recorder = UpgradeRecorder()
        let report = try fixture.upgrader(progress: recorder.record).upgradeIfNeededSynchronously(
            storeAt: fixture.store)
        #expect(report.from == "Recipes")
        #expect(report.to == "Recipes 4")
        #expect(report.steps.last?.to == "Recipes 4")
        #expect(
            try fixture.strings(#"SELECT ZFIRSTNAME || '|' || ZLASTNAME FROM ZCHEF ORDER BY 1"#).contains(
                "Miguel|Sanchez"))
        #expect(try fixture.strings("SELECT ZNAME FROM ZCUISINE ORDER BY 1") == ["French", "Mexican"])
        #expect(try fixture.count("ZRECIPE") == 4)
        #expect(try fixture.count("ZINGREDIENT") == 5, "\"chiles\" is shared from Recipes 3 on")
        #expect(try fixture.count("ZRECIPEINGREDIENT") == 6)

        // Progress: planned, then each step started and finished, verify, swap, finished.
        let events = recorder.events
        let started = events.compactMap { event -> Int? in
            if case .stepStarted(let index, _, _) = event { return index }
            return nil
        }
        #expect(started == Array(1...report.steps.count))
        #expect(events.contains { if case .planned = $0 { return true } else { return false } })
        #expect(events.contains { if case .rows = $0 { return true } else { return false } })
        #expect(events.contains { if case .verifying(.quick) = $0 { return true } else { return false } })
        #expect(events.contains { if case .swapping = $0 { return true } else { return false } })
        #expect(events.contains { if case .swapped = $0 { return true } else { return false } })
        guard case .finished(let finished)? = events.last else {
            Issue.record("the last event is \(String(describing: events.last)), not .finished")
            return
        }
        #expect(finished.to == "Recipes 4")
        // print(event) reads as text, not as the enum's dump.
        let texts = events.map { String(describing: $0) }
        #expect(texts.allSatisfy { !$0.contains("Stepwise.") && !$0.contains("(from:") })
        #expect(texts.contains("step 1/\(report.steps.count): Recipes → Recipes 2 (explicit)"))
        #expect(texts.contains { $0.hasPrefix("planned Recipes → Recipes 4: \(report.steps.count) step(s)") })
        #expect(
            texts.last?.hasPrefix("finished: upgraded Recipes → Recipes 4 in \(report.steps.count) step(s), ") == true)
        #expect(
            String(describing: UpgradeReport.noStore(at: "Recipes 4"))
                == "no store: nothing to upgrade (target Recipes 4)")
    }

    @Test("an up-to-date store costs one metadata read: no file is created or changed")
    func upToDateTouchesNothing() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        let bytes = StoreBytes(fixture.store)
        let listing = fixture.directoryListing()
        let recorder = UpgradeRecorder()
        let report = try fixture.upgrader(fileSystem: recorder.fileSystem()).upgradeIfNeededSynchronously(
            storeAt: fixture.store)
        #expect(report == .upToDate(at: "Recipes 4"))
        #expect(report.upToDate && report.steps.isEmpty)
        #expect(recorder.sites.isEmpty, "the up-to-date path reached \(recorder.sites)")
        #expect(StoreBytes(fixture.store) == bytes)
        #expect(fixture.directoryListing() == listing, "no -wal, -shm, lock or work directory appears")
    }

    @Test("needsUpgrade: true before, false after, and it creates or changes no file")
    func needsUpgradeIsTheCheapCheck() throws {
        let fixture = try UpgradeFixture("Recipes")
        let bytes = StoreBytes(fixture.store)
        let listing = fixture.directoryListing()
        let recorder = UpgradeRecorder()
        #expect(try fixture.upgrader(fileSystem: recorder.fileSystem()).needsUpgrade(storeAt: fixture.store))
        #expect(recorder.sites.isEmpty, "needsUpgrade reached \(recorder.sites)")
        #expect(StoreBytes(fixture.store) == bytes)
        #expect(fixture.directoryListing() == listing)
        // --to the store's own version: nothing to do.
        #expect(try !fixture.upgrader(to: "Recipes").needsUpgrade(storeAt: fixture.store))

        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(try !fixture.upgrader().needsUpgrade(storeAt: fixture.store))

        // A first launch: no store, nothing to upgrade, nothing created beside the path.
        let missing = fixture.directory.path("Missing.sqlite")
        #expect(try !fixture.upgrader().needsUpgrade(storeAt: missing))
        #expect(!FileManager.default.fileExists(atPath: fixture.directory.path(".Missing.sqlite.stepwise-lock").path))
    }

    @Test("the async variant and the event stream give the same result")
    func asyncVariants() async throws {
        let fixture = try UpgradeFixture("Events")
        var seen: [String] = []
        for try await event in try fixture.upgrader().events(upgradingStoreAt: fixture.store) {
            if case .stepFinished(_, _, let report) = event { seen.append("\(report.from) → \(report.to)") }
            if case .finished(let report) = event { seen.append("finished at \(report.to)") }
        }
        #expect(seen == ["Events → Events 2", "finished at Events 2"])
        let again = try await fixture.upgrader().upgradeIfNeeded(storeAt: fixture.store)
        #expect(again.upToDate)
    }

    @Test("--to stops at the requested version, and a later call goes on from there")
    func targetVersion() throws {
        let fixture = try UpgradeFixture("University")
        let first = try fixture.upgrader(to: "University 2").upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(first.to == "University 2")
        #expect(try fixture.version() == "University 2")
        let second = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(second.from == "University 2")
        #expect(second.to == "University 4")
        #expect(try fixture.count("ZUNIVERSITY") == UniversitySeed.universities.count)
    }
}

/// The planner's merged inferred steps, end to end through the upgrader.
@Suite("upgradeIfNeeded: merged inferred steps")
struct UpgraderMergedStepTests {
    @Test("a renames-only chain Pets → Pets 2 → Pets 3 runs as one pass and keeps every value")
    func renameChainRunsAsOnePass() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-upgrade-renames")
        let store = directory.path("Pets.sqlite")
        try RenameChainHistory.seed(at: store)
        let report = try Upgrader(history: RenameChainHistory.history).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.count == 1)
        #expect(report.steps.first?.from == "Pets" && report.steps.first?.to == "Pets 3")
        #expect(report.steps.first?.kind == .inferred)

        let identification = try VersionRegistry(history: RenameChainHistory.history).identify(storeAt: store)
        #expect(identification.version?.name == "Pets 3")
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        let (keepers, creatures) = try snapshot.database.read { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: RenameChainHistory.v3))
            let keepers = try objects.fetch("Keeper").map { $0.string("displayName") ?? "" }.sorted()
            let creatures = try objects.fetch("Creature").map { creature in
                let keeper = try objects.related(creature.id, "keeper").first.map {
                    try objects.object($0).string("displayName") ?? ""
                }
                return "\(creature.string("label") ?? "") of \(keeper ?? "nobody")"
            }.sorted()
            return (keepers, creatures)
        }
        #expect(keepers == RenameChainHistory.people.map(\.name).sorted())
        let owned = RenameChainHistory.people.flatMap { person in person.pets.map { "\($0.name) of \(person.name)" } }
        #expect(creatures == (owned + ["\(RenameChainHistory.stray.name) of nobody"]).sorted())
    }

    @Test("a step with a stage is kept apart, so its hooks run on their own versions")
    func stagedStepIsKeptApart() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-upgrade-renames")
        let store = directory.path("Pets.sqlite")
        try RenameChainHistory.seed(at: store)
        let stage = MigrationStage(
            from: "Pets", to: "Pets 2",
            didMigrate: { db, _ in
                try db.execute(sql: #"UPDATE "ZOWNER" SET "ZNICKNAME" = 'staged'"#)
            })
        let upgrader = try Upgrader(
            history: RenameChainHistory.history, stages: [stage])
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.map(\.to) == ["Pets 2", "Pets 3"])
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        let nicknames = try snapshot.database.read { db in
            try String.fetchAll(db, sql: #"SELECT DISTINCT "ZNICKNAME" FROM "ZKEEPER""#)
        }
        #expect(nicknames == ["staged"])
    }
}

@Suite("upgradeIfNeeded: stages")
struct UpgradeStageTests {
    @Test("two stages for one step, or a stage naming an unknown version, are refused before anything is written")
    func stagesAreCheckedWhenPlanning() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-upgrade-stages")
        let store = directory.path("Pets.sqlite")
        try RenameChainHistory.seed(at: store)
        let before = StoreBytes(store)
        let once = MigrationStage(from: "Pets", to: "Pets 2", didMigrate: { _, _ in })
        let twice = try Upgrader(history: RenameChainHistory.history, stages: [once, once])
        let duplicate = try #require(throws: UpgradeError.self) {
            try twice.upgradeIfNeededSynchronously(storeAt: store)
        }
        guard case .duplicateStage("Pets", "Pets 2") = duplicate.kind else {
            Issue.record("expected duplicateStage, got \(duplicate)")
            return
        }
        let unknown = try Upgrader(
            history: RenameChainHistory.history, stages: [MigrationStage(from: "Pets", to: "Pets 9")])
        let error = try #require(throws: UpgradeError.self) {
            try unknown.upgradeIfNeededSynchronously(storeAt: store)
        }
        guard case .unknownVersion("Pets 9", _) = error.kind else {
            Issue.record("expected unknownVersion, got \(error)")
            return
        }
        #expect(StoreBytes(store) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreFiles(store: store).workDirectory.path))
    }
}

@Suite("Upgrader.plan(forStoreAt:)")
struct UpgraderPlanTests {
    @Test("the plan shown is the plan that runs, and the store is never opened")
    func planMatchesTheRun() throws {
        let fixture = try UpgradeFixture("Recipes")
        let bytes = StoreBytes(fixture.store)
        let listing = fixture.directoryListing()
        let prepared = try fixture.upgrader().plan(forStoreAt: fixture.store)
        #expect(prepared.version == "Recipes")
        #expect(prepared.identification.matchedBy == .hash)
        #expect(!prepared.isUpToDate)
        #expect(prepared.drops.count == prepared.plan.steps.count)
        #expect(StoreBytes(fixture.store) == bytes)
        #expect(fixture.directoryListing() == listing, "no lock, no work folder")
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(
            report.steps.map { "\($0.from) → \($0.to) (\($0.kind))" }
                == prepared.plan.steps.map { "\($0.from) → \($0.to) (\($0.kind))" })
        #expect(try fixture.upgrader().plan(forStoreAt: fixture.store).isUpToDate)
    }

    @Test("a plan naming an unregistered policy is refused, as the upgrade refuses it")
    func unregisteredPolicyIsRefusedByThePlan() throws {
        let fixture = try UpgradeFixture("Recipes")
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader(policies: PolicyRegistry()).plan(forStoreAt: fixture.store)
        }
        guard case .unregisteredPolicy = error.kind else {
            Issue.record("expected unregisteredPolicy, got \(error)")
            return
        }
    }
}

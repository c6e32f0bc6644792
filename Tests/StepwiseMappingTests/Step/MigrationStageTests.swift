import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Custom work around a step: `willMigrate` on the private copy of the source, `didMigrate` on
/// the destination before validation.
@Suite("Migration stages")
struct MigrationStageTests {
    let directory: TemporaryDirectory
    let source: URL
    let destination: URL

    /// A University v1 store whose second row lacks its required name (Z_PK 2).
    init() throws {
        directory = try TemporaryDirectory()
        source = directory.path("University.sqlite")
        destination = directory.path("University 2.sqlite")
        try StoreCreator.createStore(at: source, model: UniversityHistory.v1)
        try UniversitySeed.seed(
            at: source,
            universities: [
                .init(name: "Harvard University", domain: "harvard.edu"),
                .init(name: "", domain: "mit.edu"),
                .init(name: "ETH Zürich", domain: "ethz.ch"),
            ])
        try StepFixtures.write(source, UniversityHistory.v1) { objects in
            try objects.update(ObjectID(entity: "University", primaryKey: 2), ["name": nil])
        }
    }

    func run(_ stage: MigrationStage?, source: URL? = nil, sourceIsPrivateCopy: Bool = false) throws -> StepReport {
        try MigrationStep(from: UniversityHistory.v1, to: UniversityHistory.v2, stage: stage)
            .run(
                source: source ?? self.source, destination: destination,
                access: sourceIsPrivateCopy ? .privateCopy : .copy)
    }

    func names(_ url: URL, _ model: ObjectModel) throws -> [String?] {
        try StepFixtures.read(url, model) { try $0.fetch("University").map { $0.string("name") } }
    }

    /// What a stage handler saw, recorded from inside the step.
    final class Sightings: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [String] = []
        func append(_ sighting: String) { lock.withLock { storage.append(sighting) } }
        var all: [String] { lock.withLock { storage } }
    }

    /// The step alters the store in place and keeps `name` as the source held it: as Core Data's
    /// own lightweight migration, it answers for what it changes, and a NULL the source already
    /// held against its own model is carried (`InPlacePlan.requiredAttributesKnownFilled`). A
    /// stage is how to fix it on the way (below).
    @Test func withoutAStageTheMissingRequiredNameIsCarriedInPlace() throws {
        let report = try run(nil)
        #expect(report.strategy == .inPlace)
        #expect(try names(destination, UniversityHistory.v2).contains(nil))
    }

    @Test func willMigrateFixesThePrivateCopyBeforePassOneAndTheOriginalStaysIntact() throws {
        let before = StepFixtures.bytes(source)
        let sightings = Sightings()
        let stage = MigrationStage(
            from: "University", to: "University 2",
            willMigrate: { db, objects in
                sightings.append("version \(objects.layout.model.name)")
                sightings.append("schema \(objects.schemaName), \(try objects.count("University")) universities")
                let nameless = try objects.fetch("University", where: .isNil("name"))
                for university in nameless {
                    try objects.update(university.id, ["name": "Massachusetts Institute of Technology"])
                }
                sightings.append("fixed \(nameless.map(\.id.primaryKey))")
                // The copy is a file of its own, beside the destination.
                let file = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'")
                sightings.append(
                    "file \(URL(fileURLWithPath: file ?? "").lastPathComponent.hasPrefix(".stepwise-source-"))")
            })
        let report = try run(stage)
        #expect(
            sightings.all == [
                "version University", "schema main, 3 universities", "fixed [2]", "file true",
            ])
        #expect(report.rows == 3)
        #expect(
            try names(destination, UniversityHistory.v2) == [
                "Harvard University", "Massachusetts Institute of Technology", "ETH Zürich",
            ])
        #expect(StepFixtures.bytes(source) == before)
        #expect(try names(source, UniversityHistory.v1) == ["Harvard University", nil, "ETH Zürich"])
        #expect(StepFixtures.files(in: directory.url) == ["University 2.sqlite", "University.sqlite"])
    }

    @Test func willMigrateWritesToASourceThatIsAlreadyAPrivateCopy() throws {
        let copy = directory.path("Copy.sqlite")
        try FileManager.default.copyItem(at: source, to: copy)
        let stage = MigrationStage(
            from: "University", to: "University 2",
            willMigrate: { _, objects in
                try objects.update(ObjectID(entity: "University", primaryKey: 2), ["name": "MIT"])
            })
        _ = try run(stage, source: copy, sourceIsPrivateCopy: true)
        #expect(try names(copy, UniversityHistory.v1) == ["Harvard University", "MIT", "ETH Zürich"])
        #expect(try names(destination, UniversityHistory.v2) == ["Harvard University", "MIT", "ETH Zürich"])
        #expect(StepFixtures.files(in: directory.url).contains("Copy.sqlite"))
    }

    @Test func didMigrateSeesTheDestinationVersionAfterPassTwoAndItsFixIsValidated() throws {
        let sightings = Sightings()
        let stage = MigrationStage(
            from: "University", to: "University 2",
            didMigrate: { _, objects in
                sightings.append("version \(objects.layout.model.name)")
                sightings.append("\(try objects.count("University")) universities")
                sightings.append(
                    "nameless \(try objects.fetch("University", where: .isNil("name")).map(\.id.primaryKey))")
                try objects.update(
                    ObjectID(entity: "University", primaryKey: 2),
                    ["name": "Unknown", "estDate": Date(timeIntervalSinceReferenceDate: 0)])
            })
        _ = try run(stage)
        #expect(sightings.all == ["version University 2", "3 universities", "nameless [2]"])
        let university = try StepFixtures.read(destination, UniversityHistory.v2) {
            try $0.object(ObjectID(entity: "University", primaryKey: 2))
        }
        #expect(university.string("name") == "Unknown")
        #expect(university.double("estDate") == 0)
    }

    @Test func didMigrateBreakingARequiredValueIsRejectedByValidation() throws {
        let fixed = directory.path("Fixed.sqlite")
        try StoreCreator.createStore(at: fixed, model: UniversityHistory.v1)
        try UniversitySeed.seed(at: fixed)
        let before = StepFixtures.bytes(fixed)
        let stage = MigrationStage(
            from: "University", to: "University 2",
            didMigrate: { _, objects in
                try objects.update(ObjectID(entity: "University", primaryKey: 4), ["name": nil])
            })
        let error = #expect(throws: MappingError.self) { try run(stage, source: fixed) }
        guard case .validation(let reason) = error?.kind else {
            Issue.record("expected a validation error, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("required attribute"))
        #expect(error?.entity == "University")
        #expect(error?.property == "name")
        #expect(error?.entityMapping == "UniversityToUniversity")
        #expect(error?.sourcePrimaryKey == 4)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(StepFixtures.bytes(fixed) == before)
    }

    struct StageFailure: Error, Equatable {}

    @Test(arguments: [true, false])
    func aThrowingStageFailsTheStepWithItsOwnErrorAndLeavesNothing(inWillMigrate: Bool) throws {
        let before = StepFixtures.bytes(source)
        let fail: MigrationStage.Handler = { _, _ in throw StageFailure() }
        let stage =
            inWillMigrate
            ? MigrationStage(from: "University", to: "University 2", willMigrate: fail)
            : MigrationStage(from: "University", to: "University 2", didMigrate: fail)
        #expect(throws: StageFailure()) { try run(stage) }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(StepFixtures.bytes(source) == before)
        #expect(StepFixtures.files(in: directory.url) == ["University.sqlite"])
    }

    @Test func willMigrateRunsBeforeDidMigrateOncePerStep() throws {
        let sightings = Sightings()
        let stage = MigrationStage(
            from: "University", to: "University 2",
            willMigrate: { _, objects in
                sightings.append("will \(objects.layout.model.name)")
                try objects.update(ObjectID(entity: "University", primaryKey: 2), ["name": "MIT"])
            },
            didMigrate: { _, objects in sightings.append("did \(objects.layout.model.name)") })
        _ = try run(stage)
        #expect(sightings.all == ["will University", "did University 2"])
    }
}

extension MigrationStageTests {
    @Test func aStageWrittenForOtherVersionsIsRefusedAndNothingIsWritten() throws {
        let before = StepFixtures.bytes(source)
        let stage = MigrationStage(from: "University 2", to: "University 3", didMigrate: { _, _ in })
        let error = try #require(throws: MappingError.self) { try run(stage) }
        #expect(error.description.contains("'University 2' → 'University 3'"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(StepFixtures.bytes(source) == before)
    }
}

import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// The derived values a step writes (``Derivation``): `now()` stamps carried from the source
/// are kept, rows without one are stamped, by an in-place step and by a rebuild.
@Suite("upgradeIfNeeded: derived values")
struct DerivedValuesUpgradeTests {
    static let stamp = Derivation(expression: "now()", kind: .now)

    enum Notes {
        static let v1 = ObjectModel("Notes", versionIdentifiers: ["1"]) {
            Entity("Note") { Attribute("title", .string) }
        }

        /// `edited = now()` added: the step runs in place.
        static let v2 = ObjectModel("Notes 2", versionIdentifiers: ["2"]) {
            Entity("Note") {
                Attribute("title", .string)
                Attribute("edited", .date).derived(DerivedValuesUpgradeTests.stamp)
            }
        }

        /// `Folder` sorts first and renumbers Note: the step rebuilds.
        static let v3 = ObjectModel("Notes 3", versionIdentifiers: ["3"]) {
            Entity("Folder") { Attribute("name", .string) }
            Entity("Note") {
                Attribute("title", .string)
                Attribute("edited", .date).derived(DerivedValuesUpgradeTests.stamp)
            }
        }

        /// With `rebuilding`, a willMigrate hook (which sees the source's rows) makes every step
        /// rebuild.
        static func upgrader(_ versions: [ObjectModel], to target: String, rebuilding: Bool = false) throws
            -> Upgrader
        {
            let stages = zip(versions, versions.dropFirst()).map { from, to in
                MigrationStage(from: from.name, to: to.name, willMigrate: { _, _ in })
            }
            return try Upgrader(
                history: VersionHistory(versions), mappings: [:], stages: rebuilding ? stages : [],
                options: UpgradeOptions(targetVersion: target))
        }
    }

    /// A store of `model` holding the notes `titles`, each with the `edited` value given (in
    /// seconds since 2001), when the model has the attribute.
    static func store(
        _ model: ObjectModel, _ notes: KeyValuePairs<String, Double?>, in directory: TemporaryDirectory
    ) throws -> URL {
        let url = directory.path("Notes.sqlite")
        try StoreCreator.createStore(at: url, model: model)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: model))
            for (title, edited) in notes {
                _ = try objects.insert("Note", ["title": title])
                // The insert fired the now() trigger; a stamp of an earlier save is set directly
                // (an update of ZEDITED alone fires none: the trigger watches Z_OPT).
                if model[entity: "Note"]?.attribute(named: "edited") != nil {
                    try db.execute(
                        sql: #"UPDATE "ZNOTE" SET "ZEDITED" = ? WHERE "ZTITLE" = ?"#, arguments: [edited, title])
                }
            }
        }
        try queue.close()
        return url
    }

    /// Each note's title and `ZEDITED`, by primary key.
    static func edited(at url: URL) throws -> [String: Double?] {
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        return try snapshot.database.read { db in
            let rows = try Row.fetchAll(db, sql: #"SELECT "ZTITLE", "ZEDITED" FROM "ZNOTE" ORDER BY "Z_PK""#)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
        }
    }

    @Test("an in-place step that adds a now() attribute stamps every row")
    func inPlaceStampsNewColumn() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-derived")
        let url = try Self.store(Notes.v1, ["a": nil, "b": nil], in: directory)
        let report = try Notes.upgrader([Notes.v1, Notes.v2], to: "Notes 2").upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.steps.map(\.strategy) == [.inPlace])
        let edited = try Self.edited(at: url)
        #expect(edited.count == 2)
        #expect(edited.values.allSatisfy { $0 != nil })
    }

    @Test("a rebuild keeps the now() stamps the source has, and stamps only rows without one")
    func rebuildKeepsStamps() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-derived")
        let url = try Self.store(Notes.v2, ["kept": 700_000_000, "missing": nil], in: directory)
        let report = try Notes.upgrader([Notes.v2, Notes.v3], to: "Notes 3", rebuilding: true)
            .upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.steps.map(\.strategy) == [.rebuild])
        let edited = try Self.edited(at: url)
        #expect(edited["kept"] == 700_000_000)
        #expect(edited["missing"].flatMap { $0 } != nil)
    }
}

extension DerivedValuesUpgradeTests {
    enum Ledger {
        static func model(_ name: String, accountLabel: Bool) -> ObjectModel {
            ObjectModel(name) {
                Entity("Account") {
                    if accountLabel { Attribute("label", .string) }
                    Attribute("name", .string)
                    Relationship("entries", to: "Entry", inverse: "account").toMany()
                }
                Entity("Entry") {
                    Attribute("edited", .date).derived(DerivedValuesUpgradeTests.stamp)
                    Attribute("note", .string)
                    Relationship("account", to: "Account", inverse: "entries")
                }
            }
        }

        static let v1 = model("Ledger", accountLabel: false)
        /// Account gains `label`, from `name`: only ZACCOUNT is rebuilt.
        static let v2 = model("Ledger 2", accountLabel: true)
    }

    @Test("a partial rebuild takes a source with derived-attribute triggers, and keeps the kept table's stamps")
    func partialRebuildAcceptsDerivedTriggers() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-derived")
        let url = directory.path("Ledger.sqlite")
        try StoreCreator.createStore(at: url, model: Ledger.v1)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Ledger.v1))
            let account = try objects.insert("Account", ["name": "Cash"])
            for index in 0..<3 {
                _ = try objects.insert("Entry", ["note": "n\(index)", "account": account])
            }
            // Stamps of earlier saves, set past the now() triggers the store was created with
            // (`Z_DA_ZENTRY_Entry_edited_…`, which watch Z_OPT): the step replaces them with the
            // destination's, so they don't keep the step from keeping ZENTRY.
            try db.execute(sql: #"UPDATE "ZENTRY" SET "ZEDITED" = 700000000 + "Z_PK" - 1"#)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE 'Z_DA_%'") == 2)
        }
        try queue.close()
        let upgrader = try Upgrader(
            history: VersionHistory([Ledger.v1, Ledger.v2]),
            mappings: [
                MappingDirectory.StepKey(Ledger.v1.name, Ledger.v2.name): [
                    try PartialRebuildMapping.transforming(
                        "Account", ["label": "$source.name"], from: Ledger.v1, to: Ledger.v2)
                ]
            ], options: UpgradeOptions())
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.steps.map(\.keptTables) == [["ZENTRY"]])
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        let stamps = try snapshot.database.read { db in
            try Double.fetchAll(db, sql: #"SELECT "ZEDITED" FROM "ZENTRY" ORDER BY "Z_PK""#)
        }
        #expect(stamps == [700_000_000, 700_000_001, 700_000_002])
    }
}

extension Attribute {
    /// This attribute, derived as `derivation` says.
    fileprivate func derived(_ derivation: Derivation) -> Attribute {
        var attribute = self
        attribute.derivation = derivation
        return attribute
    }
}

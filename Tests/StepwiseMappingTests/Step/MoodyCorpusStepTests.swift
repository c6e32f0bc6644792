import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// objc.io's Moody history, one step at a time from the real stores M1…M5 (corpus README §6.4).
///
/// M2…M5 are the real results of the previous step (same Z_UUID and rows), so each step's
/// output is compared with the next store by content: every attribute, and relationships as
/// the keys of the objects they reach (`numericISO3166Code` for regions, `remoteID` for moods).
@Suite("Moody corpus steps", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct MoodyCorpusStepTests {
    /// The four moods' remote IDs and their countries (corpus README §4.2).
    static let countryOfMood: [String: Int64] = [
        "64C6E1D4-7C2E-4F04-B867-1A9E2941F9FF": 704,
        "47300BAD-DE7D-4B54-B94C-04A3EE4CD0C5": 710,
        "3A9BAEFD-7716-41C0-9FFF-A7C4BCE32679": 710,
        "83922344-ED0B-4ABE-B8B0-E00F4E7E1D94": 231,
    ]
    static let storeUUID = "374C5961-3E41-43E5-915C-383EA914074C"
    static let appKey = "io.objc.Moody.CloudKitUserID"

    @Test func theStepsUseTheCorpusMappingModelsExceptOneToTwoWhichIsInferred() throws {
        let runner = try CorpusStepRunner(.moody)
        #expect(runner.mappingModels(from: 1).isEmpty)
        #expect(runner.mappingModels(from: 2).map(\.name) == ["Moody 2-Moody 3"])
        #expect(runner.mappingModels(from: 3).map(\.name) == ["Moody 3-Moody 4"])
        #expect(runner.mappingModels(from: 4).map(\.name) == ["Moody 4-Moody 5"])
        #expect(runner.mappingModels(from: 5).map(\.name) == ["Moody 5-Moody 6"])
        let twoToThree = try #require(runner.mappingModels(from: 2).first)
        #expect(twoToThree.entityMappings.map(\.name) == ["MoodToMood", "CountryToCountry", "ContinentToContinent"])
        let fiveToSix = try #require(runner.mappingModels(from: 5).first)
        #expect(fiveToSix.entityMappings.map(\.name) == ["ToContinent", "CountryToCountry", "MoodToMood"])
        #expect(fiveToSix.entityMapping(named: "CountryToCountry")?.policyName == "Migrations.Country5ToCountry6Policy")
    }

    /// 1 → 2 (inferred): `remoteIdentifier` is renamed `remoteID` by elementID, `rating` is new.
    @Test func oneToTwoRenamesRemoteIdentifierToRemoteIDAndRatesEveryMoodZero() throws {
        let runner = try CorpusStepRunner(.moody)
        let source = try runner.copy("M1")
        let (destination, report) = try runner.step(from: 1, source: source)
        #expect(report.kind == .inferred)
        #expect(report.rows == 9)

        let before = try CorpusStepRunner.read(source) { db in
            try Row.fetchAll(db, sql: "SELECT ZREMOTEIDENTIFIER, ZDATE FROM ZMOOD").map {
                ($0["ZDATE"] as Double, $0["ZREMOTEIDENTIFIER"] as String)
            }
        }
        let after = try CorpusStepRunner.read(destination) { db in
            try Row.fetchAll(db, sql: "SELECT ZREMOTEID, ZDATE, ZRATING FROM ZMOOD").map {
                ($0["ZDATE"] as Double, $0["ZREMOTEID"] as String, $0["ZRATING"] as Int?)
            }
        }
        #expect(before.count == 4)
        #expect(
            Dictionary(uniqueKeysWithValues: after.map { ($0.0, $0.1) }) == Dictionary(uniqueKeysWithValues: before))
        #expect(after.map(\.2) == [0, 0, 0, 0])
        let countries = try runner.read(destination, version: 2) { objects in
            try Self.countryCodes(of: objects)
        }
        #expect(countries == Self.countryOfMood)
    }

    /// 2 → 3: `Mood.continent` = `$source.country.continent` (ContinentToContinent) and
    /// `Continent.moods` = `$source.countries.@distinctUnionOfSets.moods` (MoodToMood).
    @Test func twoToThreeLinksEachMoodToItsCountrysContinent() throws {
        let runner = try CorpusStepRunner(.moody)
        let (destination, report) = try runner.step(from: 2, source: try runner.copy("M2"))
        #expect(report.kind == .explicit)
        let (continentOfMood, moodsOfContinent) = try runner.read(destination, version: 3) { objects in
            var continentOfMood: [String: Int64] = [:]
            for mood in try objects.fetch("Mood") {
                let continent = try #require(try objects.related(mood.id, "continent").first)
                continentOfMood[mood.string("remoteID") ?? ""] = try objects.object(continent).int("numericISO3166Code")
            }
            var moodsOfContinent: [Int64: Set<String>] = [:]
            for continent in try objects.fetch("Continent") {
                moodsOfContinent[continent.int("numericISO3166Code") ?? -1] = Set(
                    try objects.related(continent.id, "moods").map { try objects.object($0).string("remoteID") ?? "" })
            }
            return (continentOfMood, moodsOfContinent)
        }
        #expect(
            continentOfMood == [
                "64C6E1D4-7C2E-4F04-B867-1A9E2941F9FF": 10005,
                "47300BAD-DE7D-4B54-B94C-04A3EE4CD0C5": 10004,
                "3A9BAEFD-7716-41C0-9FFF-A7C4BCE32679": 10004,
                "83922344-ED0B-4ABE-B8B0-E00F4E7E1D94": 10004,
            ])
        #expect(
            moodsOfContinent == [
                10005: ["64C6E1D4-7C2E-4F04-B867-1A9E2941F9FF"],
                10004: [
                    "47300BAD-DE7D-4B54-B94C-04A3EE4CD0C5", "3A9BAEFD-7716-41C0-9FFF-A7C4BCE32679",
                    "83922344-ED0B-4ABE-B8B0-E00F4E7E1D94",
                ],
            ])
        // M3 is the real result of this step.
        #expect(try content(destination, version: 3, runner) == content(try runner.copy("M3"), version: 3, runner))
    }

    /// 3 → 4: GeographicRegion goes; Continent and Country become roots with their own tables.
    @Test func threeToFourGivesTheContentOfM4() throws {
        let runner = try CorpusStepRunner(.moody)
        let (destination, _) = try runner.step(from: 3, source: try runner.copy("M3"))
        let migrated = try content(destination, version: 4, runner)
        #expect(migrated.count == 9)
        #expect(migrated == (try content(try runner.copy("M4"), version: 4, runner)))
    }

    /// 4 → 5: `Country.isoContinent` = `$source.continent.numericISO3166Code`; Continent goes.
    @Test func fourToFiveStoresEachCountrysContinentCode() throws {
        let runner = try CorpusStepRunner(.moody)
        let (destination, _) = try runner.step(from: 4, source: try runner.copy("M4"))
        let isoContinent = try runner.read(destination, version: 5) { objects in
            Dictionary(
                uniqueKeysWithValues: try objects.fetch("Country").map {
                    ($0.int("numericISO3166Code") ?? -1, $0.int("isoContinent"))
                })
        }
        #expect(isoContinent == [710: 10004, 231: 10004, 704: 10005])
        #expect(!(try CorpusStepRunner.tableNames(destination)).contains("ZCONTINENT"))
        #expect(try content(destination, version: 5, runner) == content(try runner.copy("M5"), version: 5, runner))
    }

    /// 5 → 6 with `Migrations.Country5ToCountry6Policy`: one Continent per distinct code.
    @Test func fiveToSixMakesOneContinentPerCodeThroughThePolicy() throws {
        let runner = try CorpusStepRunner(.moody)
        let (destination, report) = try runner.step(from: 5, source: try runner.copy("M5"))
        #expect(report.entityMappings.first { $0.name == "CountryToCountry" }?.setBased == false)
        let result = try runner.read(destination, version: 6) { objects in
            var countriesOfContinent: [Int64: Set<Int64>] = [:]
            for continent in try objects.fetch("Continent") {
                countriesOfContinent[continent.int("numericISO3166Code") ?? -1] = Set(
                    try objects.related(continent.id, "countries").map {
                        try objects.object($0).int("numericISO3166Code") ?? -1
                    })
            }
            return (
                continents: try objects.count("Continent"), countriesOfContinent: countriesOfContinent,
                countries: try objects.count("Country"), moods: try objects.count("Mood"),
                countryOfMood: try Self.countryCodes(of: objects)
            )
        }
        #expect(result.continents == 2)
        #expect(result.countriesOfContinent == [10004: [710, 231], 10005: [704]])
        #expect(result.countries == 3)
        #expect(result.moods == 4)
        #expect(result.countryOfMood == Self.countryOfMood)
    }

    /// Every step keeps the store UUID and the app's metadata key, writes the destination
    /// version's hashes, and numbers primary keys densely (corpus README §6.7).
    @Test(arguments: 1...5)
    func eachStepKeepsTheStoreUUIDAndAppKeyAndWritesTheDestinationHashes(_ number: Int) throws {
        let runner = try CorpusStepRunner(.moody)
        let source = try runner.copy("M\(number)")
        let (destination, report) = try runner.step(from: number, source: source)
        let (sourceMetadata, _) = try CorpusStepRunner.metadata(source)
        let (metadata, zUUID) = try CorpusStepRunner.metadata(destination)
        #expect(zUUID == Self.storeUUID)
        #expect(metadata.storeUUID == Self.storeUUID)
        let appValue = try #require(sourceMetadata.additionalEntries[Self.appKey])
        #expect(metadata.additionalEntries[Self.appKey] == appValue)
        #expect(metadata.versionHashes == (try runner.version(number + 1)).entityVersionHashes)
        if number < 5 {
            // The next real store: the same hashes and the same Z_PRIMARYKEY (names, parents, Z_MAX).
            let next = try runner.copy("M\(number + 1)")
            #expect(metadata.versionHashes == (try CorpusStepRunner.metadata(next)).metadata.versionHashes)
            if report.strategy == .inPlace {
                // An in-place step keeps every primary key, so each root keeps its Z_MAX;
                // names and parents are the next version's.
                let withoutMaximum = { (rows: [String]) in
                    rows.map { $0.split(separator: " ").dropLast().joined(separator: " ") }
                }
                #expect(
                    withoutMaximum(try CorpusStepRunner.primaryKeyRows(destination))
                        == withoutMaximum(try CorpusStepRunner.primaryKeyRows(next)))
                #expect(
                    try CorpusStepRunner.primaryKeyRows(destination).map { $0.split(separator: " ").last }
                        == CorpusStepRunner.primaryKeyRows(source).map { $0.split(separator: " ").last })
            } else {
                // A rebuilt destination numbers keys densely from 1, as Core Data does (§6.7).
                #expect(try CorpusStepRunner.primaryKeyRows(destination) == CorpusStepRunner.primaryKeyRows(next))
            }
        } else {
            #expect(try CorpusStepRunner.primaryKeyRows(destination) == ["Continent 0 2", "Country 0 3", "Mood 0 4"])
        }
    }

    @Test func theWholeChainFromM1GivesTwoContinentsThreeCountriesAndFourMoods() throws {
        let runner = try CorpusStepRunner(.moody)
        let destination = try runner.chain(from: 1, to: 6, source: try runner.copy("M1"))
        let result = try runner.read(destination, version: 6) { objects in
            (
                continents: Set(try objects.fetch("Continent").compactMap { $0.int("numericISO3166Code") }),
                countries: try objects.count("Country"),
                countryOfMood: try Self.countryCodes(of: objects)
            )
        }
        #expect(result.continents == [10004, 10005])
        #expect(result.countries == 3)
        #expect(result.countryOfMood == Self.countryOfMood)
        #expect((try CorpusStepRunner.metadata(destination)).zUUID == Self.storeUUID)
    }

    // MARK: Helpers

    /// Each mood's remote ID (`remoteID`, from version 2 on) and its country's code.
    static func countryCodes(of objects: ObjectContext) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for mood in try objects.fetch("Mood") {
            let country = try #require(try objects.related(mood.id, "country").first)
            result[mood.string("remoteID") ?? ""] = try objects.object(country).int("numericISO3166Code")
        }
        return result
    }

    /// Every object of a Moody store as one line, without primary keys or `Z_OPT`: its entity,
    /// its attributes, and each relationship as the sorted keys of the objects it reaches.
    func content(_ url: URL, version number: Int, _ runner: CorpusStepRunner) throws -> [String] {
        let model = try runner.version(number)
        return try runner.read(url, version: number) { objects in
            func key(_ id: ObjectID) throws -> String {
                let object = try objects.object(id)
                return object.string("remoteID") ?? object.int("numericISO3166Code").map(String.init) ?? "?"
            }
            var lines: [String] = []
            for entity in model.entities where !entity.isAbstract {
                for object in try objects.fetch(entity.name, includingSubentities: false) {
                    var fields = model.allAttributes(of: entity).map { "\($0.name)=\(object[$0.name])" }
                    for relationship in model.allRelationships(of: entity) {
                        let keys = try objects.related(object.id, relationship.name).map(key).sorted()
                        fields.append("\(relationship.name)=[\(keys.joined(separator: ","))]")
                    }
                    lines.append("\(entity.name)(\(fields.sorted().joined(separator: " ")))")
                }
            }
            return lines.sorted()
        }
    }
}

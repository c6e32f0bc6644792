import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The University history, step by step, with the mappings and policies of `Versions/`.
@Suite("University steps")
struct UniversityStepTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A store at `model`'s version seeded with `universities`.
    func seeded(
        _ model: ObjectModel, _ universities: [UniversitySeed.University] = UniversitySeed.universities
    ) throws -> URL {
        let url = directory.path("\(model.name).sqlite")
        try StoreCreator.createStore(at: url, model: model)
        try UniversitySeed.seed(at: url, model: model, universities: universities)
        return url
    }

    /// Runs one step with the sample mapping files and policies (none: inferred).
    @discardableResult
    func run(_ from: ObjectModel, _ to: ObjectModel, _ files: [String] = [], source: URL) throws -> (URL, StepReport) {
        let destination = directory.path("\(to.name).sqlite")
        let models = try StepFixtures.mappingModels(files, from: from, to: to)
        let report = try MigrationStep(from: from, to: to, mappingModels: models, policies: SamplePolicies.registry)
            .run(source: source, destination: destination)
        return (destination, report)
    }

    /// Runs the steps from `source` at `history.versions[start]` to the last version.
    func runChain(from start: Int, source: URL) throws -> URL {
        let versions = UniversityHistory.history.versions
        let files = [
            "University 2": SampleMappings.university2to3, "University 3": SampleMappings.university3to4,
        ]
        var current = source
        for index in start..<(versions.count - 1) {
            let from = versions[index]
            (current, _) = try run(from, versions[index + 1], files[from.name].map { [$0] } ?? [], source: current)
        }
        return current
    }

    /// name → (domain, website) of every university in a store.
    func identities(_ url: URL, _ model: ObjectModel) throws -> [String: [String?]] {
        try StepFixtures.read(url, model) { objects in
            var result: [String: [String?]] = [:]
            for university in try objects.fetch("University") {
                result[university.string("name") ?? ""] = [university.string("domain"), university.string("website")]
            }
            return result
        }
    }

    var seededIdentities: [String: [String?]] {
        Dictionary(uniqueKeysWithValues: UniversitySeed.universities.map { ($0.name, [$0.domain, $0.website]) })
    }

    // MARK: 1 → 2

    @Test func oneToTwoIsInferredSetBasedAndLeavesTheNewDateEmpty() throws {
        let source = try seeded(UniversityHistory.v1)
        let before = StepFixtures.bytes(source)
        let (destination, report) = try run(UniversityHistory.v1, UniversityHistory.v2, source: source)
        #expect(StepFixtures.bytes(source) == before)
        #expect(report.kind == .inferred)
        #expect(report.entityMappings.map(\.name) == ["UniversityToUniversity"])
        #expect(report.entityMappings.allSatisfy { $0.setBased })
        #expect(report.rows == UniversitySeed.universities.count)
        let (countries, withDate) = try StepFixtures.read(destination, UniversityHistory.v2) { objects in
            (
                try objects.fetch("University").map { $0.string("country") },
                try objects.count("University", where: .isNotNil("estDate"))
            )
        }
        #expect(countries == UniversitySeed.universities.map(\.country))
        #expect(withDate == 0)
        #expect(try identities(destination, UniversityHistory.v2) == seededIdentities)
    }

    // MARK: 2 → 3

    struct YearCase: Sendable, CustomTestStringConvertible {
        var established: Date?
        var year: String?
        var testDescription: String { "\(established.map { "\($0)" } ?? "nil") → \(year ?? "nil")" }
    }

    @Test(arguments: [
        YearCase(established: UniversitySeed.utc(1636, 9, 8), year: "1636"),
        YearCase(established: UniversitySeed.utc(1861, 4, 10), year: "1861"),
        // The last minute of 1999 in UTC is already 2000 east of Greenwich: the year is UTC's.
        YearCase(established: UniversitySeed.utc(1999, 12, 31, hour: 23, minute: 59), year: "1999"),
        YearCase(established: UniversitySeed.utc(2000, 1, 1), year: "2000"),
        YearCase(established: nil, year: nil),
    ])
    func twoToThreeTurnsTheEstablishmentDateIntoItsUTCYear(_ yearCase: YearCase) throws {
        let source = try seeded(
            UniversityHistory.v2, [.init(name: "Harvard", domain: "harvard.edu", established: yearCase.established)])
        let (destination, report) = try run(
            UniversityHistory.v2, UniversityHistory.v3, [SampleMappings.university2to3], source: source)
        #expect(report.kind == .explicit)
        #expect(report.entityMappings.map(\.setBased) == [false])
        let university = try #require(
            try StepFixtures.read(destination, UniversityHistory.v3) { try $0.fetch("University") }.first)
        #expect(university.string("estYear") == yearCase.year)
        #expect(university.string("name") == "Harvard")
        #expect(university.string("domain") == "harvard.edu")
    }

    @Test func twoToThreeKeepsEveryOtherPropertyOfEveryUniversity() throws {
        let source = try seeded(UniversityHistory.v2)
        let (destination, _) = try run(
            UniversityHistory.v2, UniversityHistory.v3, [SampleMappings.university2to3], source: source)
        let years = try StepFixtures.read(destination, UniversityHistory.v3) { objects in
            try objects.fetch("University").map { [$0.string("name"), $0.string("estYear"), $0.string("country")] }
        }
        #expect(
            years == [
                ["Harvard University", "1636", "United States"],
                ["University of Oxford", nil, "United Kingdom"],
                ["ETH Zürich", "1855", "Switzerland"],
                ["Massachusetts Institute of Technology", "1861", "United States"],
                ["University of Cambridge", "1209", "United Kingdom"],
                ["Open Online University", "1999", nil],
            ])
        #expect(try identities(destination, UniversityHistory.v3) == seededIdentities)
    }

    // MARK: 3 → 4

    @Test func threeToFourMakesOneCountryPerDistinctNameLinkedToItsUniversities() throws {
        let v1 = try seeded(UniversityHistory.v1)
        let v4 = try runChain(from: 0, source: v1)
        let (countries, unlinked, countryOfEach) = try StepFixtures.read(v4, UniversityHistory.v4) { objects in
            var countries: [String: Set<String>] = [:]
            for country in try objects.fetch("Country") {
                let universities = try objects.related(country.id, "universities").map {
                    try objects.object($0).string("name") ?? ""
                }
                countries[country.string("name") ?? "", default: []].formUnion(universities)
            }
            var countryOfEach: [String: String?] = [:]
            for university in try objects.fetch("University") {
                let country = try objects.related(university.id, "country").first.map {
                    try objects.object($0).string("name")
                }
                countryOfEach.updateValue(country ?? nil, forKey: university.string("name") ?? "")
            }
            return (
                try objects.fetch("Country").map { $0.string("name") ?? "" }.sorted(),
                try objects.fetch("University", where: .isNil("country")).map { $0.string("name") ?? "" },
                countryOfEach
            )
        }
        #expect(countries == ["Switzerland", "United Kingdom", "United States"])
        #expect(unlinked == ["Open Online University"])
        #expect(
            countryOfEach == [
                "Harvard University": "United States", "Massachusetts Institute of Technology": "United States",
                "University of Oxford": "United Kingdom", "University of Cambridge": "United Kingdom",
                "ETH Zürich": "Switzerland", "Open Online University": nil,
            ])
        let linked = try StepFixtures.read(v4, UniversityHistory.v4) { objects in
            try objects.fetch("Country").map { try objects.related($0.id, "universities").count }.sorted()
        }
        #expect(linked == [1, 2, 2])
        #expect(try StepFixtures.maxima(v4) == ["Country": 3, "University": 6])
    }

    @Test(arguments: [0, 1, 5, 12])
    func threeToFourMakesExactlyOneCountryPerDistinctName(universitiesPerCountry: Int) throws {
        let names = ["Canada", "Japan", "Brazil"]
        let universities = (0..<universitiesPerCountry).flatMap { index in
            names.map { UniversitySeed.University(name: "\($0) \(index)", country: $0) }
        }
        let v3 = try seeded(UniversityHistory.v3, universities)
        let (v4, report) = try run(
            UniversityHistory.v3, UniversityHistory.v4, [SampleMappings.university3to4], source: v3)
        #expect(report.rows == universities.count)
        let perCountry = try StepFixtures.read(v4, UniversityHistory.v4) { objects in
            try objects.fetch("Country").map {
                "\($0.string("name") ?? "")=\(try objects.related($0.id, "universities").count)"
            }.sorted()
        }
        let expected = universitiesPerCountry == 0 ? [] : names.sorted().map { "\($0)=\(universitiesPerCountry)" }
        #expect(perCountry == expected)
    }

    // MARK: The whole chain

    @Test(arguments: [0, 1])
    func theWholeChainKeepsEveryUniversityWithItsNameDomainAndWebsite(startingAt start: Int) throws {
        let source = try seeded(UniversityHistory.history.versions[start])
        let before = StepFixtures.bytes(source)
        let v4 = try runChain(from: start, source: source)
        #expect(StepFixtures.bytes(source) == before)
        #expect(try identities(v4, UniversityHistory.v4) == seededIdentities)
        let years = try StepFixtures.read(v4, UniversityHistory.v4) { objects in
            try objects.fetch("University").compactMap { $0.string("estYear") }
        }
        // v1 has no establishment dates; v2's survive as years.
        #expect(years == (start == 0 ? [] : ["1636", "1855", "1861", "1209", "1999"]))
        let metadata = try {
            let queue = try DatabaseQueue(path: v4.path)
            defer { try? queue.close() }
            return try queue.read { try StoreMetadata.read(from: $0, path: v4.path) }
        }()
        #expect(metadata.versionHashes == UniversityHistory.v4.entityVersionHashes)
        #expect(metadata.modelVersionName == "University 4")
    }
}

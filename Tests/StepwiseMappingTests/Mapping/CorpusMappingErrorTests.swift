import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// Mistakes in a corpus step's mapping file or policies: each fails with a ``MappingError``
/// that says where (file, entity mapping, entity, property), and leaves no destination behind.
@Suite("Corpus mapping errors", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CorpusMappingErrorTests {
    /// Moody 4 → 5 with one entity mapping replaced by `mapping`.
    static func fourToFive(_ mapping: String) -> String {
        """
        {
          "source": "Moody 4",
          "destination": "Moody 5",
          "entityMappings": [
            { "source": "Mood", "destination": "Mood" },
            \(mapping)
          ]
        }
        """
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var mapping: String
        var kind: MappingError.Kind
        var entityMapping: String
        var property: String?
    }

    static let badFiles: [BadFile] = [
        BadFile(
            testDescription: "missing source entity",
            mapping: #"{ "source": "Countries", "destination": "Country" }"#,
            kind: .unknownEntity("Countries", version: "Moody 4"), entityMapping: "CountriesToCountry"),
        BadFile(
            testDescription: "missing destination entity",
            mapping: #"{ "source": "Continent", "destination": "Continent" }"#,
            kind: .unknownEntity("Continent", version: "Moody 5"), entityMapping: "ContinentToContinent"),
        BadFile(
            testDescription: "missing destination attribute",
            mapping: #"""
                { "source": "Country", "destination": "Country", "attributes": { "isoContinentCode": "$source.continent.numericISO3166Code" } }
                """#,
            kind: .unknownProperty(entity: "Country", property: "isoContinentCode", version: "Moody 5"),
            entityMapping: "CountryToCountry"),
        BadFile(
            testDescription: "missing destination relationship",
            mapping: #"""
                { "source": "Country", "destination": "Country", "relationships": { "continent": "$source.continent" } }
                """#,
            kind: .unknownProperty(entity: "Country", property: "continent", version: "Moody 5"),
            entityMapping: "CountryToCountry"),
    ]

    @Test(arguments: badFiles)
    func aMappingFileNamingSomethingMissingFailsNamingTheFileAndEntity(_ bad: BadFile) throws {
        let runner = try CorpusStepRunner(.moody)
        let file = runner.directory.path("Moody 4-Moody 5.json")
        try Data(Self.fourToFive(bad.mapping).utf8).write(to: file)
        let error = try #require(throws: MappingError.self) {
            try MappingFile.load(file, source: try runner.version(4), destination: try runner.version(5))
        }
        #expect(error.kind == bad.kind)
        #expect(error.file == file.path)
        #expect(error.entityMapping == bad.entityMapping)
        #expect(error.description.contains(file.path))
        #expect(error.description.contains(bad.entityMapping))
    }

    /// The same mistake in a mapping folder stops the whole folder from loading, naming the file.
    @Test func aMappingFolderWithABadFileNamesTheFile() throws {
        let runner = try CorpusStepRunner(.moody)
        let folder = runner.directory.path("Moody.mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Moody 4-Moody 5.json")
        try Data(Self.fourToFive(#"{ "source": "Continent", "destination": "Continent" }"#).utf8).write(to: file)
        let error = try #require(throws: MappingError.self) {
            try MappingDirectory(contentsOf: folder, history: runner.models.history)
        }
        #expect(error.file == file.path)
        #expect(error.kind == .unknownEntity("Continent", version: "Moody 5"))
    }

    /// A source key path that doesn't exist fails when the mapping file is read, naming the
    /// entity mapping, the destination property and the missing source property.
    @Test func aSourceKeyPathToAMissingPropertyFailsWhenTheFileIsRead() throws {
        let runner = try CorpusStepRunner(.moody)
        let error = try #require(throws: MappingError.self) {
            try MappingFile.decode(
                Data(
                    Self.fourToFive(
                        #"""
                        { "source": "Country", "destination": "Country", "attributes": { "isoContinent": "$source.continent.isoCode" } }
                        """#
                    ).utf8),
                source: try runner.version(4), destination: try runner.version(5))
        }
        #expect(error.kind == .unknownProperty(entity: "Continent", property: "isoCode", version: "Moody 4"))
        #expect(error.entityMapping == "CountryToCountry")
        #expect(error.property == "isoContinent")
        #expect(error.description.contains("entity mapping CountryToCountry"))
    }

    /// The same mistake in a mapping built in Swift is found when the step runs, naming the
    /// entity mapping and the missing source property; the destination is removed.
    @Test func aSourceKeyPathToAMissingPropertyFailsTheStepNamingTheMapping() throws {
        let runner = try CorpusStepRunner(.moody)
        let model = MappingModel(
            from: "Moody 4", to: "Moody 5",
            entityMappings: [
                EntityMapping(
                    kind: .transform, source: "Country", destination: "Country",
                    attributeMappings: [PropertyMapping("isoContinent", .source("continent", "isoCode"))])
            ])
        let source = try runner.copy("M4")
        let before = StoreFileBytes(source)
        let destination = runner.directory.path("failed.sqlite")
        let step = MigrationStep(
            from: try runner.version(4), to: try runner.version(5), mappingModels: [model],
            policies: SamplePolicies.registry)
        let error = try #require(throws: MappingError.self) {
            try step.run(source: source, destination: destination)
        }
        #expect(error.kind == .unknownProperty(entity: "Continent", property: "isoCode", version: "Moody 4"))
        #expect(error.entityMapping == "CountryToCountry")
        #expect(error.description.contains("entity mapping CountryToCountry"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(StoreFileBytes(source) == before)
    }

    /// Moody 5 → 6 names `Migrations.Country5ToCountry6Policy`: without it registered, the
    /// step fails before writing anything.
    @Test(arguments: [false, true])
    func aPolicyThatIsNotRegisteredFailsWithUnknownPolicy(_ registerOthers: Bool) throws {
        let runner = try CorpusStepRunner(.moody)
        var policies = PolicyRegistry()
        if registerOthers {
            policies.register("Post2ToPost3MigrationPolicy") { Post2ToPost3MigrationPolicy() }
            policies.register("Country5ToCountry7Policy") { Country5ToCountry6Policy() }
        }
        let source = try runner.copy("M5")
        let before = StoreFileBytes(source)
        let destination = runner.directory.path("Moody 6.sqlite")
        let step = MigrationStep(
            from: try runner.version(5), to: try runner.version(6), mappingModels: runner.mappingModels(from: 5),
            policies: policies)
        let error = try #require(throws: MappingError.self) {
            try step.run(source: source, destination: destination)
        }
        #expect(error.kind == .unknownPolicy("Migrations.Country5ToCountry6Policy"))
        #expect(error.entityMapping == "CountryToCountry")
        #expect(error.mappingModel == "Moody 5-Moody 6")
        #expect(error.description.contains("PolicyRegistry.register"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(StoreFileBytes(source) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: runner.directory.url.path)
            .filter { $0.hasPrefix(".stepwise-source-") }
        #expect(leftovers.isEmpty, "the step's private copy of the source is removed")
    }
}

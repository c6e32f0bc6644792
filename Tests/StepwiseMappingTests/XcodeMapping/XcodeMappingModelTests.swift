import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import Testing

/// The corpus's own `.xcmappingmodel` files read exactly as corpus README §3 describes them.
@Suite("Xcode mapping models", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct XcodeMappingModelTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var bundle: CorpusBundle
        var file: String
        var source: String
        var destination: String
        var objects: Int
        var orphans: Int
        var entityMappings: [String]
        var testDescription: String { file }
    }

    static let expected: [Expected] = [
        Expected(
            bundle: .apptentive, file: "ATDataModel v1 to v2", source: "ATDataModel", destination: "ATDataModel 2",
            objects: 103, orphans: 0,
            entityMappings: [
                "ATAutomatedMessageToATAutomatedMessage", "ATMessageSenderToATMessageSender",
                "ATFileMessageToATFileMessage", "ATFileAttachmentToATFileAttachment", "ATTextMessageToATTextMessage",
                "ATMessageDisplayTypeToATMessageDisplayType", "ATEventToATEvent", "ToATSurveyResponse",
                "ATUpgradeRequestMessageToATUpgradeRequestMessage",
            ]),
        Expected(
            bundle: .apptentive, file: "ATDataModel v4 to v5", source: "ATDataModel 4", destination: "ATDataModel 5",
            objects: 113, orphans: 22,
            entityMappings: [
                "ATSurveyResponseToATSurveyResponse", "ATFileAttachmentToATFileAttachment", "ATEventToATEvent",
                "ATMessageSenderToATMessageSender", "ATTextMessageToATMessage", "ATFileMessageToATMessage",
                "ATAutomatedMessageToATMessage",
            ]),
        Expected(
            bundle: .apptentive, file: "ATDataModel v5 to v6", source: "ATDataModel 5", destination: "ATDataModel 6",
            objects: 71, orphans: 0,
            entityMappings: [
                "ATEventToATEvent", "ATSurveyResponseToATSurveyResponse", "ATFileAttachmentToATFileAttachment",
                "ATMessageSenderToATMessageSender", "ToQueuedAttachment", "ATMessageToATMessage", "ToQueuedRequest",
            ]),
        Expected(
            bundle: .moody, file: "Moody 2-Moody 3", source: "Moody 2", destination: "Moody 3", objects: 32, orphans: 2,
            entityMappings: ["MoodToMood", "CountryToCountry", "ContinentToContinent"]),
        Expected(
            bundle: .moody, file: "Moody 3-Moody 4", source: "Moody 3", destination: "Moody 4", objects: 30, orphans: 0,
            entityMappings: ["ContinentToContinent", "CountryToCountry", "MoodToMood"]),
        Expected(
            bundle: .moody, file: "Moody 4-Moody 5", source: "Moody 4", destination: "Moody 5", objects: 20, orphans: 0,
            entityMappings: ["MoodToMood", "CountryToCountry"]),
        Expected(
            bundle: .moody, file: "Moody 5-Moody 6", source: "Moody 5", destination: "Moody 6", objects: 26, orphans: 3,
            entityMappings: ["ToContinent", "CountryToCountry", "MoodToMood"]),
        Expected(
            bundle: .wibosco, file: "Migration1to2", source: "CoreDataMigration_Example",
            destination: "CoreDataMigration_Example 2", objects: 5, orphans: 0, entityMappings: ["PostToPost"]),
        Expected(
            bundle: .wibosco, file: "Migration2to3", source: "CoreDataMigration_Example 2",
            destination: "CoreDataMigration_Example 3", objects: 9, orphans: 0,
            entityMappings: ["ToColor", "PostToPost"]),
    ]

    static func url(_ bundle: CorpusBundle, _ file: String) throws -> URL {
        try Corpus.required().url(bundle).deletingLastPathComponent().appendingPathComponent("\(file).xcmappingmodel")
    }

    static func load(_ bundle: CorpusBundle, _ file: String) throws -> MappingModel {
        try XcodeMappingModel.load(url(bundle, file), history: try Corpus.required().modelBundle(bundle).history)
    }

    @Test(arguments: expected)
    func readsLiveAndOrphanObjectsAndBindsByModelPaths(_ expected: Expected) throws {
        let url = try Self.url(expected.bundle, expected.file)
        let document = try XcodeMappingDocument(contentsOf: url)
        #expect(document.objectCount == expected.objects)
        #expect(document.orphanCount == expected.orphans)
        let model = try Self.load(expected.bundle, expected.file)
        #expect(model.sourceVersion == expected.source)
        #expect(model.destinationVersion == expected.destination)
        #expect(model.entityMappings.map(\.name) == expected.entityMappings)
        #expect(model.origin == MappingOrigin(path: url.path, format: .xcmappingmodel, binding: .modelPaths))
    }

    /// v1 → v2, v2 → v3 and v3 → v4 hold only same-name mappings: 81/85/89 attribute and 12
    /// relationship mappings, none with a written value.
    @Test(arguments: [("ATDataModel v1 to v2", 81), ("ATDataModel v2 to v3", 85), ("ATDataModel v3 to v4", 89)])
    func apptentiveSameNameMappingsHaveNoWrittenValue(file: String, attributes: Int) throws {
        let document = try XcodeMappingDocument(contentsOf: Self.url(.apptentive, file))
        let properties = document.entityMappings.flatMap { $0.attributeMappings + $0.relationshipMappings }
        #expect(document.entityMappings.flatMap(\.attributeMappings).count == attributes)
        #expect(document.entityMappings.flatMap(\.relationshipMappings).count == 12)
        #expect(properties.allSatisfy { $0.valueExpressionData == nil && $0.sourceKeyPath == nil })
    }

    @Test func apptentiveFourToFiveDecodesConstantsAndNamedMappingFunctions() throws {
        let model = try Self.load(.apptentive, "ATDataModel v4 to v5")
        func value(_ mapping: String, _ property: String) -> String? {
            model.entityMapping(named: mapping)?.propertyMapping(named: property)?.valueExpression?.description
        }
        #expect(value("ATTextMessageToATMessage", "automated") == "0")
        #expect(value("ATFileMessageToATMessage", "automated") == "0")
        #expect(value("ATAutomatedMessageToATMessage", "automated") == "1")
        #expect(
            value("ATFileAttachmentToATFileAttachment", "message")
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ATFileMessageToATMessage", $source.fileMessage)"#
        )
        #expect(
            value("ATFileMessageToATMessage", "attachments")
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ATFileAttachmentToATFileAttachment", $source.fileAttachment)"#
        )
        // Autogenerated: the same-named source property.
        #expect(value("ATTextMessageToATMessage", "body") == "$source.body")
        #expect(value("ATTextMessageToATMessage", "sender") == "$source.sender")
    }

    @Test func moodyTwoToThreeReadsSourceKeyPathsAndMappingNames() throws {
        let document = try XcodeMappingDocument(contentsOf: Self.url(.moody, "Moody 2-Moody 3"))
        let written = document.entityMappings.flatMap { mapping in
            mapping.relationshipMappings.compactMap { property in
                property.sourceKeyPath.map {
                    "\(mapping.resolvedName).\(property.name): \($0) / \(property.sourceMappingName ?? "-")"
                }
            }
        }
        #expect(
            written.sorted() == [
                "ContinentToContinent.moods: $source.countries.@distinctUnionOfSets.moods / MoodToMood",
                "MoodToMood.continent: $source.country.continent / ContinentToContinent",
                "MoodToMood.country: $source.country / CountryToCountry",
            ])
        let model = try Self.load(.moody, "Moody 2-Moody 3")
        #expect(
            model.entityMapping(named: "MoodToMood")?.propertyMapping(named: "continent")?.valueExpression?.description
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ContinentToContinent", $source.country.continent)"#
        )
    }

    @Test func moodyFourToFiveDecodesADottedKeyPath() throws {
        let model = try Self.load(.moody, "Moody 4-Moody 5")
        #expect(
            model.entityMapping(named: "CountryToCountry")?.propertyMapping(named: "isoContinent")?.valueExpression
                == .source("continent", "numericISO3166Code"))
    }

    @Test func wiboscoOneToTwoMapsTheRenamedColor() throws {
        let model = try Self.load(.wibosco, "Migration1to2")
        let post = try #require(model.entityMapping(named: "PostToPost"))
        #expect(post.propertyMapping(named: "hexColor")?.valueExpression == .source("color"))
        #expect(post.propertyMapping(named: "postID")?.valueExpression == .source("postID"))
    }

    @Test(arguments: [
        (CorpusBundle.moody, "Moody 5-Moody 6", "CountryToCountry", "Migrations.Country5ToCountry6Policy"),
        (CorpusBundle.wibosco, "Migration2to3", "PostToPost", "CoreDataMigration_Example.Post2ToPost3MigrationPolicy"),
    ])
    func readsPolicyClassNames(bundle: CorpusBundle, file: String, mapping: String, policy: String) throws {
        let model = try Self.load(bundle, file)
        #expect(model.entityMapping(named: mapping)?.policyName == policy)
        #expect(model.entityMappings.compactMap(\.policyName) == [policy])
        #expect(SamplePolicies.registry.contains(policy))
    }

    /// A bundle's mapping models are found beside it, one step each.
    @Test(arguments: CorpusBundle.allCases)
    func mappingModelsBesideTheBundleAreFound(_ bundle: CorpusBundle) throws {
        let corpus = try Corpus.required()
        let directory = try MappingDirectory(
            bundleAt: corpus.url(bundle), history: try corpus.modelBundle(bundle).history)
        #expect(directory.files.map(\.lastPathComponent) == (try corpus.mappingModels(bundle)).map(\.lastPathComponent))
        #expect(directory.steps.values.allSatisfy { $0.count == 1 })
        #expect(directory.steps.count == directory.files.count)
    }
}

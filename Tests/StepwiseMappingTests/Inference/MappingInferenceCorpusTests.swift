import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import Testing

/// One consecutive step of a corpus bundle, and what inference makes of it.
struct CorpusStep: Sendable, CustomTestStringConvertible {
    var bundle: CorpusBundle
    /// The source version's number (1 for the unnumbered first version).
    var from: Int
    /// `"<kind> <name>"` of every entity mapping, when the step is inferable.
    var mappings: [String]
    /// The problems, when it isn't.
    var problems: [InferenceProblem]

    var source: String { bundle.versionName(from) }
    var destination: String { bundle.versionName(from + 1) }
    var testDescription: String { "\(source) → \(destination)" }

    init(_ bundle: CorpusBundle, _ from: Int, mappings: [String] = [], problems: [InferenceProblem] = []) {
        self.bundle = bundle
        self.from = from
        self.mappings = mappings
        self.problems = problems
    }

    /// Every consecutive pair of the three bundles (corpus README §2).
    ///
    /// Copy versus transform agrees with the corpus stores: an entity is copied exactly when
    /// its version hash is the same in the stores of both versions (README §4.1), e.g. ATEvent
    /// always, ATMessageSender in 2 → 3 but not in 1 → 2.
    static let all: [CorpusStep] = [
        // ATMessage (abstract) is removed and ATAbstractMessage added: no elementID links them.
        // Their concrete subentities keep their names and, matched over inherited properties,
        // all their values; DisplayType.messages and Sender.sentMessages now point to
        // ATAbstractMessage, which every message they hold becomes a kind of. So the step is
        // inferable; the repository's v1 → v2 mapping model is exactly this one, written out
        // (same-name mappings, empty property mappings, ∅ → ATSurveyResponse).
        CorpusStep(
            .apptentive, 1,
            mappings: [
                "add ToATAbstractMessage", "transform ATAutomatedMessageToATAutomatedMessage", "copy ATEventToATEvent",
                "copy ATFileAttachmentToATFileAttachment", "transform ATFileMessageToATFileMessage",
                "transform ATMessageDisplayTypeToATMessageDisplayType", "transform ATMessageSenderToATMessageSender",
                "copy ATRecordToATRecord", "add ToATSurveyResponse", "transform ATTextMessageToATTextMessage",
                "transform ATUpgradeRequestMessageToATUpgradeRequestMessage", "remove ATMessageTo",
            ]),
        // + ATAbstractMessage.customData (optional): its subentities change too.
        CorpusStep(.apptentive, 2, mappings: apptentiveMiddleStep),
        // + ATAbstractMessage.hidden (optional, default NO).
        CorpusStep(.apptentive, 3, mappings: apptentiveMiddleStep),
        // The message hierarchy is flattened into a new concrete ATMessage: every old message
        // entity is removed (no elementID), and ATMessageSender.sentMessages moves from
        // ATAbstractMessage to that unrelated ATMessage. Core Data infers a mapping that drops
        // every message (and so every link of sentMessages); so does Stepwise, naming the drops.
        // The repository wrote the v4 → v5 mapping model (ATTextMessageToATMessage,
        // ATFileMessageToATMessage, …), which the planner prefers. The new
        // ATFileAttachment.message is optional and fileMessage's removal is fine.
        CorpusStep(
            .apptentive, 4,
            mappings: [
                "copy ATEventToATEvent", "transform ATFileAttachmentToATFileAttachment", "add ToATMessage",
                "transform ATMessageSenderToATMessageSender", "copy ATRecordToATRecord",
                "copy ATSurveyResponseToATSurveyResponse", "remove ATAbstractMessageTo", "remove ATAutomatedMessageTo",
                "remove ATFileMessageTo", "remove ATMessageDisplayTypeTo", "remove ATTextMessageTo",
                "remove ATUpgradeRequestMessageTo",
            ]),
        // + QueuedRequest, QueuedAttachment; class names change, which no hash sees.
        CorpusStep(
            .apptentive, 5,
            mappings: [
                "copy ATEventToATEvent", "copy ATFileAttachmentToATFileAttachment", "copy ATMessageToATMessage",
                "copy ATMessageSenderToATMessageSender", "copy ATRecordToATRecord",
                "copy ATSurveyResponseToATSurveyResponse", "add ToQueuedAttachment", "add ToQueuedRequest",
            ]),
        // remoteIdentifier → remoteID by elementID, + rating (required, default 0).
        CorpusStep(
            .moody, 1,
            mappings: [
                "copy ContinentToContinent", "copy CountryToCountry", "copy GeographicRegionToGeographicRegion",
                "transform MoodToMood",
            ]),
        // + Continent.moods ↔ Mood.continent, both new, so both start empty: inferable. The
        // repository's mapping model fills Mood.continent from $source.country.continent, which
        // no inference can guess. Continent.moods is a to-many without a minimum count, so an
        // empty set is valid although the file leaves out optional="YES".
        CorpusStep(
            .moody, 2,
            mappings: [
                "transform ContinentToContinent", "copy CountryToCountry", "copy GeographicRegionToGeographicRegion",
                "transform MoodToMood",
            ]),
        // GeographicRegion (abstract) is removed; Continent and Country leave the hierarchy and
        // keep their inherited attributes as their own: inferable (a split, not a merge).
        CorpusStep(
            .moody, 3,
            mappings: [
                "transform ContinentToContinent", "transform CountryToCountry", "copy MoodToMood",
                "remove GeographicRegionTo",
            ]),
        // − Continent (its rows are dropped), + Country.isoContinent (optional, default 0):
        // inferable, but every isoContinent becomes 0; the repository's mapping model computes
        // it from $source.continent.numericISO3166Code.
        CorpusStep(
            .moody, 4, mappings: ["transform CountryToCountry", "transform MoodToMood", "remove ContinentTo"]),
        // + Continent, + Country.continent (optional), − isoContinent: inferable with no
        // continents at all; the repository's Country5ToCountry6Policy recreates them.
        CorpusStep(.moody, 5, mappings: ["add ToContinent", "transform CountryToCountry", "copy MoodToMood"]),
        // color → hexColor without elementID: to Core Data, as here, that is color removed and
        // hexColor added (optional, so NULL). Inferable, but it loses every color, which is why
        // the repository ships Migration1to2 with hexColor = $source.color.
        CorpusStep(.wibosco, 1, mappings: ["transform PostToPost"]),
        // + Post.color, a required to-one to the new Color: existing posts can't have one.
        CorpusStep(
            .wibosco, 2,
            problems: [
                InferenceProblem(
                    entity: "Post", property: "color", reason: .newRequiredRelationship(destination: "Color"))
            ]),
        // + Post.hide (optional, default NO): the repository relies on lightweight migration.
        CorpusStep(.wibosco, 3, mappings: ["copy ColorToColor", "transform PostToPost"]),
    ]

    static let apptentiveMiddleStep = [
        "transform ATAbstractMessageToATAbstractMessage", "transform ATAutomatedMessageToATAutomatedMessage",
        "copy ATEventToATEvent", "copy ATFileAttachmentToATFileAttachment", "transform ATFileMessageToATFileMessage",
        "copy ATMessageDisplayTypeToATMessageDisplayType", "copy ATMessageSenderToATMessageSender",
        "copy ATRecordToATRecord", "copy ATSurveyResponseToATSurveyResponse", "transform ATTextMessageToATTextMessage",
        "transform ATUpgradeRequestMessageToATUpgradeRequestMessage",
    ]
}

@Suite("MappingInference on the corpus", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct MappingInferenceCorpusTests {
    func versions(_ bundle: CorpusBundle, _ from: Int) throws -> (ObjectModel, ObjectModel) {
        let models = try Corpus.required().modelBundle(bundle)
        return (
            try models.version(named: bundle.versionName(from)), try models.version(named: bundle.versionName(from + 1))
        )
    }

    func mapping(_ bundle: CorpusBundle, _ from: Int) throws -> MappingModel {
        let (source, destination) = try versions(bundle, from)
        return try MappingInference.inferMapping(from: source, to: destination)
    }

    @Test func everyConsecutivePairIsListed() {
        let listed = CorpusStep.all.map(\.testDescription)
        let expected = CorpusBundle.allCases.flatMap { bundle in
            (1..<bundle.versionCount).map { "\(bundle.versionName($0)) → \(bundle.versionName($0 + 1))" }
        }
        #expect(listed == expected)
    }

    @Test(arguments: CorpusStep.all)
    func infersTheStepOrListsItsProblems(_ step: CorpusStep) throws {
        let (source, destination) = try versions(step.bundle, step.from)
        do {
            let mapping = try MappingInference.inferMapping(from: source, to: destination)
            #expect(step.problems.isEmpty, "inferred, but problems were expected")
            #expect(mapping.entityMappings.map { "\($0.kind.rawValue) \($0.name)" } == step.mappings)
            #expect(mapping.isInferred && mapping.name == "\(step.source) → \(step.destination)")
        } catch {
            guard case .notInferable(let problems) = error.kind else { throw error }
            #expect(problems == step.problems)
            #expect(error.mappingModel == "\(step.source) → \(step.destination)")
        }
    }

    @Test func moodyOneToTwoRenamesRemoteIdentifierAndLeavesRatingToItsDefault() throws {
        let mood = try #require(try mapping(.moody, 1).entityMapping(named: "MoodToMood"))
        #expect(mood.propertyMapping(named: "remoteID")?.valueExpression == .source("remoteIdentifier"))
        #expect(mood.propertyMapping(named: "rating") == nil)
        #expect(
            mood.attributeMappings.map(\.summary) == [
                "colors=$source.colors", "creatorID=$source.creatorID", "date=$source.date",
                "latitude=$source.latitude", "longitude=$source.longitude",
                "markedForDeletionDate=$source.markedForDeletionDate",
                "markedForRemoteDeletion=$source.markedForRemoteDeletion", "remoteID=$source.remoteIdentifier",
            ])
        #expect(mood.relationshipMappings.map(\.summary) == ["country=→CountryToCountry($source.country)"])
    }

    @Test func wiboscoOneToTwoDropsColorAndLeavesHexColorEmpty() throws {
        let post = try #require(try mapping(.wibosco, 1).entityMapping(named: "PostToPost"))
        #expect(post.attributeMappings.map(\.summary) == ["date=$source.date", "postID=$source.postID"])
    }

    @Test func wiboscoThreeToFourLeavesHideToItsDefault() throws {
        let post = try #require(try mapping(.wibosco, 3).entityMapping(named: "PostToPost"))
        #expect(post.propertyMapping(named: "hide") == nil)
        #expect(post.relationshipMappings.map(\.summary) == ["color=→ColorToColor($source.color)"])
    }

    @Test func apptentiveOneToTwoResolvesMessagesThroughTheNewAbstractParent() throws {
        let mapping = try mapping(.apptentive, 1)
        let displayType = try #require(mapping.entityMapping(named: "ATMessageDisplayTypeToATMessageDisplayType"))
        #expect(displayType.relationshipMappings.map(\.summary) == ["messages=→ToATAbstractMessage($source.messages)"])
        let fileMessage = try #require(mapping.entityMapping(named: "ATFileMessageToATFileMessage"))
        #expect(
            fileMessage.relationshipMappings.map(\.summary) == [
                "displayTypes=→ATMessageDisplayTypeToATMessageDisplayType($source.displayTypes)",
                "sender=→ATMessageSenderToATMessageSender($source.sender)",
                "fileAttachment=→ATFileAttachmentToATFileAttachment($source.fileAttachment)",
            ])
        #expect(fileMessage.propertyMapping(named: "pendingState")?.valueExpression == .source("pendingState"))
    }

    @Test func moodyThreeToFourKeepsTheInheritedAttributesOfTheNewRoots() throws {
        let mapping = try mapping(.moody, 3)
        for name in ["Continent", "Country"] {
            let entityMapping = try #require(mapping.entityMapping(named: "\(name)To\(name)"))
            for attribute in ["markedForDeletionDate", "numberOfMoods", "numericISO3166Code", "uniquenessDummy"] {
                #expect(entityMapping.propertyMapping(named: attribute)?.valueExpression == .source(attribute))
            }
        }
    }

    @Test func moodyFourToFiveAndFiveToSixLeaveWhatTheirMappingModelsComputeEmpty() throws {
        let country5 = try #require(try mapping(.moody, 4).entityMapping(named: "CountryToCountry"))
        #expect(country5.propertyMapping(named: "isoContinent") == nil)
        #expect(country5.relationshipMappings.map(\.summary) == ["moods=→MoodToMood($source.moods)"])
        let country6 = try #require(try mapping(.moody, 5).entityMapping(named: "CountryToCountry"))
        #expect(country6.propertyMapping(named: "continent") == nil)
    }
}

import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// What one corpus entity must read as: name, parent, abstract flag and own property counts.
struct ExpectedEntity: Sendable, Equatable, CustomStringConvertible {
    var name: String
    var parent: String?
    var isAbstract: Bool
    var attributeCount: Int
    var relationshipCount: Int

    init(_ name: String, parent: String? = nil, abstract: Bool = false, attributes: Int, relationships: Int) {
        self.name = name
        self.parent = parent
        self.isAbstract = abstract
        self.attributeCount = attributes
        self.relationshipCount = relationships
    }

    init(_ entity: Entity) {
        self.init(
            entity.name, parent: entity.parentName, abstract: entity.isAbstract,
            attributes: entity.attributes.count, relationships: entity.relationships.count)
    }

    var description: String {
        "\(name)\(parent.map { " ⊂ \($0)" } ?? "")\(isAbstract ? " (abstract)" : ""): "
            + "\(attributeCount) attributes, \(relationshipCount) relationships"
    }
}

/// What one corpus version must read as (corpus README §2, checked against the files).
struct ExpectedVersion: Sendable, CustomTestStringConvertible {
    var name: String
    var identifiers: [String]
    var entities: [ExpectedEntity]

    init(_ name: String, identifiers: [String] = [], entities: [ExpectedEntity]) {
        self.name = name
        self.identifiers = identifiers
        self.entities = entities
    }

    var testDescription: String { name }

    /// The Apptentive message hierarchy of versions 2–4: only ATAbstractMessage's attribute count changes.
    private static func apptentiveMessages(_ name: String, abstractMessageAttributes: Int) -> ExpectedVersion {
        ExpectedVersion(
            name,
            entities: [
                .init(
                    "ATAbstractMessage", parent: "ATRecord", abstract: true, attributes: abstractMessageAttributes,
                    relationships: 2),
                .init("ATAutomatedMessage", parent: "ATTextMessage", attributes: 1, relationships: 0),
                .init("ATEvent", parent: "ATRecord", attributes: 3, relationships: 0),
                .init("ATFileAttachment", attributes: 6, relationships: 1),
                .init("ATFileMessage", parent: "ATAbstractMessage", attributes: 0, relationships: 1),
                .init("ATMessageDisplayType", attributes: 1, relationships: 1),
                .init("ATMessageSender", attributes: 4, relationships: 1),
                .init("ATRecord", abstract: true, attributes: 5, relationships: 0),
                .init("ATSurveyResponse", parent: "ATRecord", attributes: 4, relationships: 0),
                .init("ATTextMessage", parent: "ATAbstractMessage", attributes: 1, relationships: 0),
                .init("ATUpgradeRequestMessage", parent: "ATTextMessage", attributes: 1, relationships: 0),
            ])
    }

    /// The flattened Apptentive models 5 and 6 share their first six entities.
    private static let apptentiveFlattened: [ExpectedEntity] = [
        .init("ATEvent", parent: "ATRecord", attributes: 3, relationships: 0),
        .init("ATFileAttachment", attributes: 5, relationships: 1),
        .init("ATMessage", parent: "ATRecord", attributes: 12, relationships: 2),
        .init("ATMessageSender", attributes: 4, relationships: 1),
        .init("ATRecord", abstract: true, attributes: 5, relationships: 0),
        .init("ATSurveyResponse", parent: "ATRecord", attributes: 4, relationships: 0),
    ]

    /// Moody 1–3: the abstract GeographicRegion with Continent and Country below it.
    private static func moodyWithRegions(_ name: String, continentRelationships: Int, moodAttributes: Int)
        -> ExpectedVersion
    {
        ExpectedVersion(
            name, identifiers: [name == "Moody" ? "1" : String(name.suffix(1))],
            entities: [
                .init("Continent", parent: "GeographicRegion", attributes: 1, relationships: continentRelationships),
                .init("Country", parent: "GeographicRegion", attributes: 0, relationships: 2),
                .init("GeographicRegion", abstract: true, attributes: 5, relationships: 0),
                .init("Mood", attributes: moodAttributes, relationships: continentRelationships),
            ])
    }

    static let all: [ExpectedVersion] = [
        ExpectedVersion(
            "ATDataModel",
            entities: [
                .init("ATAutomatedMessage", parent: "ATTextMessage", attributes: 1, relationships: 0),
                .init("ATEvent", parent: "ATRecord", attributes: 3, relationships: 0),
                .init("ATFileAttachment", attributes: 6, relationships: 1),
                .init("ATFileMessage", parent: "ATMessage", attributes: 0, relationships: 1),
                .init("ATMessage", parent: "ATRecord", abstract: true, attributes: 7, relationships: 2),
                .init("ATMessageDisplayType", attributes: 1, relationships: 1),
                .init("ATMessageSender", attributes: 4, relationships: 1),
                .init("ATRecord", abstract: true, attributes: 5, relationships: 0),
                .init("ATTextMessage", parent: "ATMessage", attributes: 1, relationships: 0),
                .init("ATUpgradeRequestMessage", parent: "ATTextMessage", attributes: 1, relationships: 0),
            ]),
        apptentiveMessages("ATDataModel 2", abstractMessageAttributes: 7),
        apptentiveMessages("ATDataModel 3", abstractMessageAttributes: 8),
        apptentiveMessages("ATDataModel 4", abstractMessageAttributes: 9),
        ExpectedVersion("ATDataModel 5", entities: apptentiveFlattened),
        ExpectedVersion(
            "ATDataModel 6",
            entities: apptentiveFlattened + [
                .init("QueuedAttachment", attributes: 3, relationships: 1),
                .init("QueuedRequest", attributes: 11, relationships: 1),
            ]),
        moodyWithRegions("Moody", continentRelationships: 1, moodAttributes: 8),
        moodyWithRegions("Moody 2", continentRelationships: 1, moodAttributes: 9),
        moodyWithRegions("Moody 3", continentRelationships: 2, moodAttributes: 9),
        ExpectedVersion(
            "Moody 4", identifiers: ["4"],
            entities: [
                .init("Continent", attributes: 6, relationships: 2),
                .init("Country", attributes: 5, relationships: 2),
                .init("Mood", attributes: 9, relationships: 2),
            ]),
        ExpectedVersion(
            "Moody 5", identifiers: ["5"],
            entities: [
                .init("Country", attributes: 6, relationships: 1),
                .init("Mood", attributes: 9, relationships: 1),
            ]),
        ExpectedVersion(
            "Moody 6", identifiers: ["6"],
            entities: [
                .init("Continent", attributes: 1, relationships: 1),
                .init("Country", attributes: 5, relationships: 2),
                .init("Mood", attributes: 9, relationships: 1),
            ]),
        ExpectedVersion("CoreDataMigration_Example", entities: [.init("Post", attributes: 3, relationships: 0)]),
        ExpectedVersion("CoreDataMigration_Example 2", entities: [.init("Post", attributes: 3, relationships: 0)]),
        ExpectedVersion(
            "CoreDataMigration_Example 3",
            entities: [.init("Color", attributes: 2, relationships: 1), .init("Post", attributes: 2, relationships: 1)]
        ),
        ExpectedVersion(
            "CoreDataMigration_Example 4",
            entities: [.init("Color", attributes: 2, relationships: 1), .init("Post", attributes: 3, relationships: 1)]
        ),
    ]
}

@Suite("XcodeModelReader")
struct XcodeModelReaderTests {
    // MARK: - Corpus versions

    @Test("The expectation table covers all 16 corpus versions")
    func expectationTableCoversEveryCorpusVersion() {
        #expect(ExpectedVersion.all.map(\.name) == CorpusBundle.allVersionNames)
        #expect(ExpectedVersion.all.count == 16)
    }

    @Test(
        "Reads every corpus version's entities, parents, abstract flags and property counts",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: ExpectedVersion.all)
    func readsEveryCorpusVersionExactly(_ expected: ExpectedVersion) throws {
        let model = try Corpus.required().readVersion(expected.name)
        #expect(model.name == expected.name)
        #expect(model.versionIdentifiers == expected.identifiers)
        #expect(model.entities.map(ExpectedEntity.init) == expected.entities)
    }

    @Test(
        "Reads Moody 2's renamed, indexed remoteID and its required rating with a default",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsMoodyTwoMoodAttributes() throws {
        let model = try Corpus.required().readVersion("Moody 2")
        let mood = try #require(model[entity: "Mood"])
        #expect(
            mood.attributes.map(\.name) == [
                "colors", "creatorID", "date", "latitude", "longitude", "markedForDeletionDate",
                "markedForRemoteDeletion", "rating", "remoteID",
            ])
        #expect(
            mood.attribute(named: "remoteID")
                == Attribute("remoteID", .string, isIndexed: true, renamingIdentifier: "remoteIdentifier"))
        #expect(
            mood.attribute(named: "rating") == Attribute("rating", .integer16, isOptional: false, defaultValue: "0"))
        #expect(
            mood.attribute(named: "colors")
                == Attribute("colors", .transformable, valueTransformerName: "ColorsTransformer"))
        #expect(mood.attribute(named: "date") == Attribute("date", .date, isOptional: false))
        #expect(
            mood.attribute(named: "markedForRemoteDeletion")
                == Attribute("markedForRemoteDeletion", .boolean, isOptional: false, defaultValue: "NO"))
        #expect(mood.compoundIndexes == [["markedForRemoteDeletion", "markedForDeletionDate", "date"]])
        #expect(mood.uniquenessConstraints.isEmpty)
        #expect(
            mood.relationship(named: "country") == Relationship("country", destination: "Country", inverse: "moods"))
        #expect(mood.className == nil)
    }

    @Test(
        "Reads GeographicRegion's compound index and uniqueness constraint",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: ["Moody", "Moody 2", "Moody 3"])
    func readsGeographicRegionIndexesAndConstraints(_ versionName: String) throws {
        let model = try Corpus.required().readVersion(versionName)
        let region = try #require(model[entity: "GeographicRegion"])
        #expect(region.compoundIndexes == [["markedForDeletionDate", "updatedAt"]])
        #expect(region.uniquenessConstraints == [["numericISO3166Code", "uniquenessDummy"]])
        #expect(
            region.attribute(named: "numericISO3166Code")
                == Attribute("numericISO3166Code", .integer16, isOptional: false, defaultValue: "0"))
        // Constraints and indexes are not copied to subentities.
        #expect(model[entity: "Continent"]?.uniquenessConstraints == [])
        #expect(model[entity: "Country"]?.compoundIndexes == [])
    }

    @Test(
        "Reads Moody 4's roots, each with the former parent's index and constraint",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsMoodyFourFlattenedRoots() throws {
        let model = try Corpus.required().readVersion("Moody 4")
        for name in ["Continent", "Country"] {
            let entity = try #require(model[entity: name])
            #expect(entity.compoundIndexes == [["markedForDeletionDate", "updatedAt"]])
            #expect(entity.uniquenessConstraints == [["numericISO3166Code", "uniquenessDummy"]])
        }
        #expect(model.rootEntities.map(\.name) == ["Continent", "Country", "Mood"])
    }

    @Test("Reads the Moody version identifiers", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsMoodyVersionIdentifiers() throws {
        let corpus = try Corpus.required()
        let identifiers = try CorpusBundle.moody.versionNames.map { try corpus.readVersion($0).versionIdentifiers }
        #expect(identifiers == [["1"], ["2"], ["3"], ["4"], ["5"], ["6"]])
        // An empty userDefinedModelVersionIdentifier reads as no identifier.
        #expect(try corpus.readVersion("ATDataModel").versionIdentifiers == [])
        #expect(try corpus.readVersion("CoreDataMigration_Example 4").versionIdentifiers == [])
    }

    @Test(
        "Reads Apptentive 1's ATMessage with pendingState's odd default and its relationships",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsApptentiveOneMessage() throws {
        let model = try Corpus.required().readVersion("ATDataModel")
        let message = try #require(model[entity: "ATMessage"])
        #expect(message.className == "ATMessage")
        #expect(
            message.attribute(named: "pendingState")
                == Attribute("pendingState", .integer32, isOptional: false, defaultValue: "YES"))
        #expect(
            message.attribute(named: "pendingMessageID") == Attribute("pendingMessageID", .string, isIndexed: true))
        #expect(
            message.relationship(named: "displayTypes")
                == Relationship(
                    "displayTypes", destination: "ATMessageDisplayType", inverse: "messages", isToMany: true))
        #expect(
            message.relationship(named: "sender")
                == Relationship("sender", destination: "ATMessageSender", inverse: "sentMessages", minCount: 1))
        let attachment = try #require(model[entity: "ATFileAttachment"])
        let fileMessage = try #require(attachment.relationship(named: "fileMessage"))
        #expect(fileMessage.minCount == 1)
        #expect(fileMessage.maxCount == 1)
        #expect(fileMessage.isOptional)
        #expect(
            attachment.attribute(named: "userVisible")
                == Attribute("userVisible", .boolean, isOptional: false, defaultValue: "YES"))
        let sender = try #require(model[entity: "ATMessageSender"])
        #expect(
            sender.attribute(named: "apptentiveID")
                == Attribute("apptentiveID", .string, isOptional: false, isIndexed: true))
    }

    @Test(
        "Reads Apptentive 5's ordered to-many attachments",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsApptentiveFiveOrderedAttachments() throws {
        let model = try Corpus.required().readVersion("ATDataModel 5")
        let message = try #require(model[entity: "ATMessage"])
        let attachments = try #require(message.relationship(named: "attachments"))
        #expect(attachments.destination == "ATFileAttachment")
        #expect(attachments.inverse == "message")
        #expect(attachments.isToMany)
        #expect(attachments.isOrdered)
        #expect(attachments.minCount == 0)
        #expect(attachments.maxCount == 0)
        #expect(attachments.deletionRule == .nullify)
        #expect(message.className == "ApptentiveMessage")
        #expect(message.attribute(named: "automated")?.usesScalarValueType == nil)
        let inverse = try #require(model[entity: "ATFileAttachment"]?.relationship(named: "message"))
        #expect(inverse == Relationship("message", destination: "ATMessage", inverse: "attachments"))
    }

    @Test(
        "Reads Apptentive 6's cascading queue, legacy class names and scalar flags",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsApptentiveSixQueue() throws {
        let model = try Corpus.required().readVersion("ATDataModel 6")
        let request = try #require(model[entity: "QueuedRequest"])
        #expect(
            request.relationship(named: "attachments")
                == Relationship(
                    "attachments", destination: "QueuedAttachment", inverse: "request", isToMany: true,
                    isOrdered: true, deletionRule: .cascade))
        #expect(request.attribute(named: "date") == Attribute("date", .date, usesScalarValueType: false))
        #expect(request.attribute(named: "payload")?.type == .binary)
        #expect(model[entity: "QueuedAttachment"]?.attribute(named: "path")?.isOptional == false)
        #expect(model[entity: "ATEvent"]?.className == "ApptentiveLegacyEvent")
        #expect(model[entity: "ATMessage"]?.attribute(named: "automated")?.usesScalarValueType == false)
    }

    @Test(
        "Reads wibosco 3's required to-one and 4's scalar Boolean",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func readsWiboscoRelationships() throws {
        let corpus = try Corpus.required()
        let three = try corpus.readVersion("CoreDataMigration_Example 3")
        #expect(
            three[entity: "Post"]?.relationship(named: "color")
                == Relationship("color", destination: "Color", inverse: "post", isOptional: false))
        let four = try corpus.readVersion("CoreDataMigration_Example 4")
        #expect(
            four[entity: "Post"]?.attribute(named: "hide")
                == Attribute("hide", .boolean, defaultValue: "NO", usesScalarValueType: true))
        #expect(four[entity: "Post"]?.attributes.map(\.name) == ["date", "hide", "postID"])
    }

    // MARK: - In-memory XML

    @Test("Parses fetch indexes, user info, modifiers and renames from XML")
    func parsesEveryElementXcodeWrites() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" userDefinedModelVersionIdentifier="7">
                <entity name="Recipe" representedClassName="RecipeMO" elementID="Dish" versionHashModifier="v2" syncable="YES">
                    <attribute name="name" attributeType="String" minValueString="1" maxValueString="80" syncable="YES">
                        <userInfo>
                            <entry key="note" value="a &amp; b"/>
                        </userInfo>
                    </attribute>
                    <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" versionHashModifier="p" syncable="YES"/>
                    <attribute name="cache" optional="YES" transient="YES" attributeType="Transformable" customClassName="NSArray" syncable="YES"/>
                    <relationship name="steps" optional="YES" toMany="YES" minCount="2" maxCount="9" deletionRule="Deny" destinationEntity="Step" elementID="parts" syncable="YES"/>
                    <fetchIndex name="byName">
                        <fetchIndexElement property="name" type="Binary" order="descending"/>
                        <fetchIndexElement property="photo" type="R-Tree" order="ascending"/>
                    </fetchIndex>
                    <userInfo>
                        <entry key="owner" value="kitchen"/>
                    </userInfo>
                </entity>
                <entity name="Step" syncable="YES"/>
                <elements>
                    <element name="Recipe" positionX="0" positionY="0" width="128" height="90"/>
                </elements>
            </model>
            """
        let model = try XcodeModelReader.parse(Data(xml.utf8), versionName: "Recipes 7")
        #expect(model.name == "Recipes 7")
        #expect(model.versionIdentifiers == ["7"])
        #expect(model.entityNames == ["Recipe", "Step"])
        let expected = Entity(
            "Recipe", className: "RecipeMO",
            attributes: [
                Attribute(
                    "name", .string, isOptional: false, minValue: "1", maxValue: "80", userInfo: ["note": "a & b"]),
                Attribute(
                    "photo", .binary, versionHashModifier: "p", allowsExternalBinaryDataStorage: true),
                Attribute("cache", .transformable, isTransient: true, customClassName: "NSArray"),
            ],
            relationships: [
                Relationship(
                    "steps", destination: "Step", isToMany: true, minCount: 2, maxCount: 9, deletionRule: .deny,
                    renamingIdentifier: "parts")
            ],
            userInfo: ["owner": "kitchen"], versionHashModifier: "v2", renamingIdentifier: "Dish",
            fetchIndexes: [
                FetchIndex(
                    name: "byName",
                    elements: [
                        FetchIndex.Element(property: "name", kind: "Binary", isAscending: false),
                        FetchIndex.Element(property: "photo", kind: "R-Tree", isAscending: true),
                    ])
            ])
        #expect(model[entity: "Recipe"] == expected)
        #expect(model[entity: "Step"] == Entity("Step"))
    }

    @Test("Reads a missing maxCount as 1 for a to-one and 0 for a to-many")
    func defaultsMaxCountByCardinality() throws {
        let xml = """
            <model>
                <entity name="A">
                    <relationship name="one" optional="YES" deletionRule="Nullify" destinationEntity="A"/>
                    <relationship name="many" optional="YES" toMany="YES" destinationEntity="A"/>
                </entity>
            </model>
            """
        let entity = try #require(XcodeModelReader.parse(Data(xml.utf8), versionName: "M")[entity: "A"])
        #expect(entity.relationships.map(\.maxCount) == [1, 0])
        #expect(entity.relationships.map(\.minCount) == [0, 0])
        #expect(entity.relationships.map(\.deletionRule) == [.nullify, .nullify])
    }

    // MARK: - Errors

    @Test("A missing path is reported as not found")
    func missingPathIsNotFound() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Missing.xcdatamodel")
        let error = #expect(throws: ModelError.self) { try XcodeModelReader.readVersion(at: url) }
        #expect(error == ModelError(path: url.path, kind: .notFound))
        #expect(error?.description.contains("no model at \(url.path)") == true)
    }

    @Test("A plain file is not a model")
    func plainFileIsNotAModel() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Model.xcdatamodel")
        try Data("hello".utf8).write(to: url)
        let error = #expect(throws: ModelError.self) { try XcodeModelReader.readVersion(at: url) }
        #expect(error?.kind == .notAModel)
    }

    @Test("An old-format model with only elements and layout files is reported as legacy binary")
    func legacyBinaryFormatIsReported() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data([0x62, 0x70, 0x6c, 0x69, 0x73, 0x74]).write(to: url.appendingPathComponent("elements"))
        try Data([0x62, 0x70, 0x6c, 0x69, 0x73, 0x74]).write(to: url.appendingPathComponent("layout"))
        let error = try #require(#expect(throws: ModelError.self) { try XcodeModelReader.readVersion(at: url) })
        #expect(error.kind == .legacyBinaryFormat)
        #expect(error.path == url.path)
        #expect(error.description.contains("pre-Xcode 4 binary model format"))
        #expect(error.description.contains("'elements'/'layout'"))
    }

    @Test("Malformed XML is reported as malformed, naming the contents file")
    func malformedXMLIsReported() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let contents = url.appendingPathComponent("contents")
        try Data("<model><entity name=\"A\"></model>".utf8).write(to: contents)
        let error = try #require(#expect(throws: ModelError.self) { try XcodeModelReader.readVersion(at: url) })
        #expect(error.path == contents.path)
        guard case .malformed(let reason) = error.kind else {
            Issue.record("expected .malformed, got \(error.kind)")
            return
        }
        #expect(reason.hasPrefix("not well-formed XML (XML parser error "))
        #expect(reason.contains("at line 1"))
    }

    @Test(
        "Truncated or mismatched XML is malformed",
        arguments: [
            #"<model><entity name="A"></model>"#,
            #"<model><entity name="A">"#,
            #"<model><entity name="A" name="B"/></model>"#,
            #"<model><entity name="&bogus;"/></model>"#,
            #"<model><entity name="A"/></model><model/>"#,
        ])
    func truncatedXMLIsMalformed(_ xml: String) {
        let error = #expect(throws: ModelError.self) {
            try XcodeModelReader.parse(Data(xml.utf8), versionName: "M", path: "p")
        }
        guard case .malformed(let reason) = error?.kind else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("not well-formed XML"))
    }

    /// Found by `Scripts/fuzz model`: XMLParser accepts these without an error, and the
    /// XMLDocument the reader used to build then crashed on libxml2's NULL document.
    @Test(
        "A contents file without any element is malformed, not a crash",
        arguments: [Data(), Data([0]), Data([0xEF, 0xBB, 0xBF])])
    func fileWithoutElementIsMalformed(_ data: Data) {
        let expected = ModelError(path: "/x/contents", kind: .malformed("not well-formed XML (no root element)"))
        #expect(throws: expected) {
            try XcodeModelReader.parse(data, versionName: "M", path: "/x/contents")
        }
    }

    /// Found by `Scripts/fuzz model`: on Linux, XMLParser trapped on an element name that is
    /// not UTF-8 (libxml2 falls back to Latin-1 and hands it the raw bytes).
    @Test(
        "A contents file that is not UTF-8 is malformed, naming the first bad byte",
        arguments: [
            (Data([0x3C, 0xFF, 0xFF, 0x00]), 1),
            (Data(#"<model><entity name="Caf"#.utf8) + Data([0xE9]) + Data(#""/></model>"#.utf8), 24),
            (Data([0xFE, 0xFF, 0x00, 0x3C]), 0),
        ])
    func nonUTF8FileIsMalformed(_ data: Data, offset: Int) {
        let reason = "not UTF-8 at byte offset \(offset) (Xcode writes model files in UTF-8)"
        #expect(throws: ModelError(path: "/x/contents", kind: .malformed(reason))) {
            try XcodeModelReader.parse(data, versionName: "M", path: "/x/contents")
        }
    }

    /// Found by `Scripts/fuzz model`: on Linux, XMLParser with a delegate crashed on a
    /// processing instruction without data (`<?x?>`); its DTD callbacks force-unwrap too.
    @Test(
        "Processing instructions and document type declarations are malformed",
        arguments: [
            (#"<model><?x?></model>"#, "a processing instruction at byte offset 7"),
            (#"<?xml version="1.0"?><?xml-stylesheet?><model/>"#, "a processing instruction at byte offset 21"),
            (#"<?xml-x?><model/>"#, "a processing instruction at byte offset 0"),
            (#"<!DOCTYPE model [<!ENTITY e "x">]><model name="&e;"/>"#, "a document type declaration at byte offset 0"),
        ])
    func processingInstructionsAndDTDsAreMalformed(_ xml: String, _ what: String) {
        let expected = ModelError(
            path: "/x/contents", kind: .malformed("\(what) (Xcode writes none in a model file)"))
        #expect(throws: expected) {
            try XcodeModelReader.parse(Data(xml.utf8), versionName: "M", path: "/x/contents")
        }
    }

    @Test("Comments and CDATA may hold what looks like markup")
    func commentsAndCDATAAreSkipped() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- <?not a pi?> <!DOCTYPE no> --><model><![CDATA[<?x?><!x>]]><entity name="A"/></model>
            """
        let model = try XcodeModelReader.parse(Data(xml.utf8), versionName: "M", path: "p")
        #expect(model.entities.map(\.name) == ["A"])
    }

    @Test("XML whose root is not <model> is malformed")
    func wrongRootElementIsMalformed() {
        let error = #expect(throws: ModelError.self) {
            try XcodeModelReader.parse(Data("<plist/>".utf8), versionName: "M", path: "/x/contents")
        }
        #expect(error == ModelError(path: "/x/contents", kind: .malformed("the root element is not <model>")))
    }

    @Test("An unknown attribute type is an invalid value naming the entity and property")
    func unknownAttributeTypeNamesTheProperty() {
        let xml = #"<model><entity name="Post"><attribute name="colour" attributeType="Colour"/></entity></model>"#
        let error = #expect(throws: ModelError.self) {
            try XcodeModelReader.parse(Data(xml.utf8), versionName: "M", path: "/x/contents")
        }
        #expect(
            error
                == ModelError(
                    path: "/x/contents",
                    kind: .invalidValue(element: "attribute 'Post.colour'", attribute: "attributeType", value: "Colour")
                ))
        #expect(
            error?.description
                == "/x/contents: attribute 'Post.colour' has 'Colour' for 'attributeType'. Fix the model file in Xcode."
        )
    }

    @Test("A missing attribute type is Xcode's Undefined, valid on a transient attribute only")
    func missingAttributeTypeIsUndefined() throws {
        // How Xcode writes Undefined (Wire's 1,434 transient attributes, zmessaging 1.27 to 2.101).
        let transient =
            #"<model><entity name="Post"><attribute name="draft" optional="YES" transient="YES"/></entity></model>"#
        let model = try XcodeModelReader.parse(Data(transient.utf8), versionName: "M", path: "p")
        let draft = try #require(model[entity: "Post"]?.attributes.first)
        #expect(draft.type == .undefined)
        #expect(model.problems() == [])
        #expect(
            model.entityVersionHashes["Post"]
                == ObjectModel("M", entities: [Entity("Post")]).entityVersionHashes["Post"])

        let stored = #"<model><entity name="Post"><attribute name="date"/></entity></model>"#
        let storedModel = try XcodeModelReader.parse(Data(stored.utf8), versionName: "M", path: "p")
        #expect(storedModel.problems() == [.undefinedTypeStored(entity: "Post", attribute: "date")])
        #expect(
            ModelProblem.undefinedTypeStored(entity: "Post", attribute: "date").description
                == "attribute 'Post.date' has type Undefined but is not transient; Core Data allows Undefined on transient attributes only: give it a type or mark it transient"
        )
    }

    @Test(
        "Invalid relationship values name the relationship",
        arguments: [
            (
                #"<relationship name="r" deletionRule="Nullify"/>"#,
                ModelError.Kind.invalidValue(
                    element: "relationship 'A.r'", attribute: "destinationEntity", value: nil)
            ),
            (
                #"<relationship name="r" deletionRule="Explode" destinationEntity="A"/>"#,
                .invalidValue(element: "relationship 'A.r'", attribute: "deletionRule", value: "Explode")
            ),
            (
                #"<relationship name="r" maxCount="-1" destinationEntity="A"/>"#,
                .invalidValue(element: "relationship 'A.r'", attribute: "maxCount", value: "-1")
            ),
            (
                #"<relationship name="r" minCount="two" destinationEntity="A"/>"#,
                .invalidValue(element: "relationship 'A.r'", attribute: "minCount", value: "two")
            ),
            (
                #"<relationship destinationEntity="A"/>"#,
                .invalidValue(element: "<relationship>", attribute: "name", value: nil)
            ),
        ])
    func invalidRelationshipValuesAreReported(_ relationship: String, _ kind: ModelError.Kind) {
        let xml = #"<model><entity name="A">\#(relationship)</entity></model>"#
        let error = #expect(throws: ModelError.self) {
            try XcodeModelReader.parse(Data(xml.utf8), versionName: "M", path: "p")
        }
        #expect(error?.kind == kind)
    }

    @Test("An entity without a name is an invalid value")
    func entityWithoutNameIsInvalid() {
        let error = #expect(throws: ModelError.self) {
            try XcodeModelReader.parse(Data(#"<model><entity name=""/></model>"#.utf8), versionName: "M", path: "p")
        }
        #expect(error?.kind == .invalidValue(element: "<entity>", attribute: "name", value: nil))
    }
}

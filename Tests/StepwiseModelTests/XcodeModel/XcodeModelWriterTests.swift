import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("XcodeModelWriter")
struct XcodeModelWriterTests {
    /// A model that uses every attribute type, flag and value, every deletion rule, bounded
    /// and ordered to-manys, fetch and compound indexes and several uniqueness constraints.
    static let everything = ObjectModel("Everything 2", versionIdentifiers: ["2.0"]) {
        Entity("Record", isAbstract: true, className: "RecordMO") {
            Attribute("id", .uuid).required().indexed()
            Attribute("createdAt", .date).userInfo("source", "server")
            Unique("id")
        }
        .versionHashModifier("record-2")
        .renamed(from: "BaseRecord")
        .userInfo("layer", "base")
        .userInfo("owner", "sync team")
        Entity("Sample", parent: "Record", className: "SampleMO") {
            Attribute("int16", .integer16).required().defaultValue("0").range(min: "-5", max: "5")
            Attribute("int32", .integer32).indexed()
            Attribute("int64", .integer64).defaultValue("9223372036854775807")
            Attribute("decimal", .decimal).defaultValue("1.5")
            Attribute("double", .double).range(min: "0.0", max: "1.0")
            Attribute("float", .float).versionHashModifier("float-2")
            Attribute("string", .string)
                .range(min: "1", max: "255")
                .defaultValue("It's \"quoted\" & <tagged>\n\ttoo")
                .renamed(from: "text")
                .userInfo("unit", "characters")
            Attribute("boolean", .boolean, isOptional: false, defaultValue: "YES", usesScalarValueType: true)
            Attribute("date", .date).transient()
            Attribute("binary", .binary).externalStorage()
            Attribute("transformable", .transformable, customClassName: "[String]").transformer(
                "NSSecureUnarchiveFromData")
            Attribute("uuid", .uuid, usesScalarValueType: false)
            Attribute("uri", .uri)
            Attribute("objectID", .objectID).transient()
            Attribute("undefined", .undefined).transient()
            Attribute("tombstoned", .string).preservedAfterDeletion()
            Attribute.composite(
                "address",
                elements: [
                    Attribute("street", .string),
                    Attribute.composite(
                        "place", elements: [Attribute("zip", .integer32, isOptional: false)], compositeName: "Place"),
                ], compositeName: "Address")
            Relationship("nullified", to: "Item", inverse: "nullifyOwner").toMany()
            Relationship("cascaded", to: "Item", inverse: "cascadeOwner").ordered().deletionRule(.cascade)
            Relationship("denied", to: "Item", inverse: "denyOwner")
                .toMany()
                .count(min: 1, max: 10)
                .required()
                .deletionRule(.deny)
            Relationship("unmanaged", to: "Item").deletionRule(.noAction).userInfo("why", "a cache")
            Relationship("cached", to: "Item")
                .transient()
                .versionHashModifier("cached-2")
                .renamed(from: "memo")
            FetchIndex(
                name: "byInt32AndDouble",
                elements: [
                    FetchIndex.Element(property: "int32"),
                    FetchIndex.Element(property: "double", kind: "R-Tree", isAscending: false),
                ])
            CompoundIndex("int16", "int32")
            CompoundIndex("string")
            Unique("int64")
            Unique("string", "int16")
            Unique("decimal", "uuid", "uri")
        }
        Entity("Item") {
            Attribute("name", .string)
            Relationship("nullifyOwner", to: "Sample", inverse: "nullified")
            Relationship("cascadeOwner", to: "Sample", inverse: "cascaded")
            Relationship("denyOwner", to: "Sample", inverse: "denied").required()
        }
    }

    @Test("The everything model really uses every type, rule and flag")
    func everythingModelCoversEverything() throws {
        let model = Self.everything
        #expect(model.problems() == [])
        let sample = try #require(model[entity: "Sample"])
        #expect(Set(sample.attributes.map(\.type)) == Set(AttributeType.allCases))
        #expect(sample.attributes.count == 17)
        #expect(sample.attributes.contains { $0.preservesValueInHistoryOnDeletion })
        #expect(Set(sample.relationships.map(\.deletionRule)) == Set(DeletionRule.allCases))
        #expect(sample.uniquenessConstraints.count == 3)
        #expect(sample.relationships.filter(\.isOrdered).map(\.name) == ["cascaded"])
    }

    @Test("A Swift-built model with every feature round-trips through Xcode's format")
    func everythingRoundTrips() throws {
        let contents = XcodeModelWriter.contents(of: Self.everything)
        let read = try XcodeModelReader.parse(Data(contents.utf8), versionName: "Everything 2")
        #expect(read == Self.everything)
        // Entity by entity, so a failure points at the culprit.
        for entity in Self.everything.entities {
            #expect(read[entity: entity.name] == entity)
        }
    }

    @Test(
        "Every corpus version round-trips through the writer",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusBundle.allVersionNames)
    func corpusVersionRoundTrips(_ versionName: String) throws {
        let corpus = try Corpus.required()
        let original = try corpus.readVersion(versionName)
        let directory = try TemporaryDirectory()
        let url = directory.path("\(versionName).xcdatamodel")
        try XcodeModelWriter.writeVersion(original, to: url)
        let reread = try XcodeModelReader.readVersion(at: url)
        #expect(reread == original)
        #expect(reread.entityVersionHashes == original.entityVersionHashes)
    }

    @Test(
        "The writer writes each corpus entity, attribute and relationship tag as Xcode did",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusBundle.allVersionNames)
    func writerMatchesXcodeTags(_ versionName: String) throws {
        let corpus = try Corpus.required()
        let url = try corpus.versionURL(versionName)
        let original = try String(contentsOf: url.appendingPathComponent("contents"), encoding: .utf8)
        let written = XcodeModelWriter.contents(of: try corpus.readVersion(versionName))
        // codeGenerationType (Xcode's class generation setting) is not part of the model.
        func tags(_ text: String) -> [String] {
            text.split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("<entity ") || $0.hasPrefix("<attribute ") || $0.hasPrefix("<relationship ") }
                .map { $0.replacingOccurrences(of: #" codeGenerationType="class""#, with: "") }
        }
        let expected = tags(original)
        #expect(!expected.isEmpty)
        #expect(tags(written) == expected)
    }

    @Test("A small model is written exactly as Xcode would write it")
    func smallModelIsWrittenExactly() {
        let model = ObjectModel("Notes", versionIdentifiers: ["1"]) {
            Entity("Note", className: "Note") {
                Attribute("text", .string).required()
                Relationship("tags", to: "Tag", inverse: "notes").toMany()
            }
            Entity("Tag", parent: "Label", isAbstract: true) {
                Relationship("notes", to: "Note", inverse: "tags").toMany()
            }
        }
        let expected = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" \
            sourceLanguage="Swift" userDefinedModelVersionIdentifier="1">
                <entity name="Note" representedClassName="Note" syncable="YES">
                    <attribute name="text" attributeType="String" syncable="YES"/>
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" \
            destinationEntity="Tag" inverseName="notes" inverseEntity="Tag" syncable="YES"/>
                </entity>
                <entity name="Tag" isAbstract="YES" parentEntity="Label" syncable="YES">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" \
            destinationEntity="Note" inverseName="tags" inverseEntity="Note" syncable="YES"/>
                </entity>
            </model>

            """
        #expect(XcodeModelWriter.contents(of: model) == expected)
    }

    @Test("A to-one always gets maxCount, a to-many only when bounded")
    func maxCountIsWrittenLikeXcode() {
        let model = ObjectModel("M") {
            Entity("A") {
                Relationship("one", to: "A")
                Relationship("many", to: "A").toMany()
                Relationship("some", to: "A").toMany().count(min: 2, max: 3)
            }
        }
        let lines = XcodeModelWriter.contents(of: model).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(#"name="one" optional="YES" maxCount="1" deletionRule"#) })
        #expect(lines.contains { $0.contains(#"name="many" optional="YES" toMany="YES" deletionRule"#) })
        #expect(lines.contains { $0.contains(#"name="some" optional="YES" toMany="YES" minCount="2" maxCount="3""#) })
    }

    @Test("Special characters in names, values and user info are escaped and read back")
    func specialCharactersRoundTrip() throws {
        let awkward = "a & b < c > d \"e\" 'f'\ng\th"
        let model = ObjectModel("Odd") {
            Entity("A") {
                Attribute("text", .string).defaultValue(awkward).userInfo(awkward, awkward)
                Relationship("r", to: "A").userInfo("k", awkward)
            }
            .userInfo("empty", "")
        }
        let contents = XcodeModelWriter.contents(of: model)
        #expect(contents.contains("a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;&#10;g&#9;h"))
        let read = try XcodeModelReader.parse(Data(contents.utf8), versionName: "Odd")
        #expect(read == model)
        #expect(read[entity: "A"]?.attribute(named: "text")?.defaultValue == awkward)
    }

    @Test("writeVersion writes a contents file that reads back under the folder's name")
    func writeVersionWritesContents() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Everything 2.xcdatamodel")
        try XcodeModelWriter.writeVersion(Self.everything, to: url)
        let files = try FileManager.default.contentsOfDirectory(atPath: url.path)
        #expect(files == ["contents"])
        let data = try Data(contentsOf: url.appendingPathComponent("contents"))
        #expect(data == Data(XcodeModelWriter.contents(of: Self.everything).utf8))
        #expect(try XcodeModelReader.readVersion(at: url) == Self.everything)
    }

    @Test("writeBundle writes every version and the current-version plist")
    func writeBundleWritesVersionsAndCurrent() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Notes.xcdatamodeld")
        let versions = [
            ObjectModel("Notes", entities: [Entity("Note", attributes: [Attribute("text", .string)])]),
            ObjectModel(
                "Notes 2", versionIdentifiers: ["2"],
                entities: [Entity("Note", attributes: [Attribute("text", .string), Attribute("date", .date)])]),
        ]
        try XcodeModelWriter.writeBundle(versions, current: "Notes", to: url)
        let files = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        #expect(files == [".xccurrentversion", "Notes 2.xcdatamodel", "Notes.xcdatamodel"])
        let plistData = try Data(contentsOf: url.appendingPathComponent(".xccurrentversion"))
        let plist = try PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: String]
        #expect(plist == ["_XCCurrentVersionName": "Notes.xcdatamodel"])
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.history.versions == versions)
        #expect(bundle.current == versions[0])
    }

    /// Notes 2's `Note.tags` names `Tag.notes` as its inverse, but `Tag.notes` doesn't point back.
    static let wrongInverse = ObjectModel("Notes 2") {
        Entity("Note") { Relationship("tags", to: "Tag", inverse: "notes").toMany() }
        Entity("Tag") { Relationship("notes", to: "Note").toMany() }
    }

    @Test("A model with a wrong inverse is refused and nothing is written")
    func wrongInverseIsRefused() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.path("Notes.xcdatamodeld")
        let valid = ObjectModel("Notes", entities: [Entity("Note", attributes: [Attribute("text", .string)])])
        let expected = ModelError(
            version: "Notes 2", file: bundle.appendingPathComponent("Notes 2.xcdatamodel/contents").path,
            problems: [.inverseMismatch(entity: "Note", relationship: "tags", inverseEntity: "Tag", inverse: "notes")])
        // The valid version comes first: it must not be written either.
        let bundleError = #expect(throws: ModelError.self) {
            try XcodeModelWriter.writeBundle([valid, Self.wrongInverse], current: "Notes 2", to: bundle)
        }
        #expect(bundleError == expected)
        #expect(!FileManager.default.fileExists(atPath: bundle.path))

        let version = directory.path("Notes 2.xcdatamodel")
        let versionError = #expect(throws: ModelError.self) {
            try XcodeModelWriter.writeVersion(Self.wrongInverse, to: version)
        }
        #expect(
            versionError
                == ModelError(
                    path: version.appendingPathComponent("contents").path,
                    kind: .invalidModel(
                        version: "Notes 2",
                        problems: [
                            .inverseMismatch(
                                entity: "Note", relationship: "tags", inverseEntity: "Tag", inverse: "notes")
                        ])))
        #expect(!FileManager.default.fileExists(atPath: version.path))
    }

    @Test("A current version that isn't among the versions is refused and nothing is written")
    func unknownCurrentIsRefused() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.path("Notes.xcdatamodeld")
        let versions = [ObjectModel("Notes", entities: []), ObjectModel("Notes 2", entities: [])]
        let error = #expect(throws: ModelError.self) {
            try XcodeModelWriter.writeBundle(versions, current: "Notes 3", to: bundle)
        }
        #expect(
            error
                == ModelError(
                    path: bundle.path, kind: .unknownVersion("Notes 3", available: ["Notes", "Notes 2"])))
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
    }
}

import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTesting
import Testing

@testable import Stepwise

/// One test per finding kind: each builds its own small "Blog" history in Swift (written as a
/// bundle where mapping files are involved) and expects the exact finding and fix.
@Suite("History check")
struct HistoryCheckTests {
    /// Where a test writes its bundle and mapping files.
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-check")
    }

    static let blog = ObjectModel("Blog") {
        Entity("Post") {
            Attribute("title", .string)
            Attribute("color", .string)
        }
    }

    /// `Blog 2`, where `color` became `hexColor` without a renaming identifier.
    static let hexColor = ObjectModel("Blog 2") {
        Entity("Post") {
            Attribute("title", .string)
            Attribute("hexColor", .string)
        }
    }

    /// `Blog`'s versions written as `Blog.xcdatamodeld` in a fresh folder, with mapping files
    /// (file name → JSON) in `Blog.mappings`.
    static func bundle(
        _ versions: [ObjectModel], mappings: [String: String] = [:], in directory: TemporaryDirectory
    ) throws -> URL {
        let url = directory.path("Blog.xcdatamodeld")
        try XcodeModelWriter.writeBundle(versions, current: versions[versions.count - 1].name, to: url)
        let folder = directory.path("Blog.mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, json) in mappings {
            try Data(json.utf8).write(to: folder.appendingPathComponent(name))
        }
        return url
    }

    /// `Blog 2` with an index on `title`: an index changes no hash.
    static let indexed = ObjectModel("Blog 2") {
        Entity("Post") {
            Attribute("title", .string).indexed()
            Attribute("color", .string)
        }
    }

    @Test func aDuplicateVersionIsAWarningThatTheVersionsAreInterchangeableForStores() {
        let report = HistoryCheck(history: VersionHistory([Self.blog, Self.indexed])).run()
        #expect(
            report.problems == [
                HistoryFinding(
                    .duplicateVersion, version: "Blog 2", entity: "Post",
                    message:
                        "'Blog 2' has the same entity hashes as 'Blog', so the two are interchangeable for stores: Core Data opens a store of either with either model, and no step runs between them; their version identifiers (NSStoreModelVersionIdentifiers) are the same too, so Stepwise takes a store of either for 'Blog 2', the newer.",
                    fix:
                        "Nothing to do if stores of 'Blog' need nothing 'Blog 2' changes in 'Post' (a transient attribute, a class name, a default value). If they do (a new index, say), give 'Post' a version hash modifier (Xcode: Data Model inspector, Versioning, Hash Modifier) in 'Blog 2', so that stores of 'Blog' get a step."
                )
            ])
        #expect(report.problems.first?.severity == .warning)
        // Only a warning: the history passes, and `stepwise check` exits 0.
        #expect(report.errors == 0 && report.warnings == 1 && report.passes)
    }

    /// Versions with their own identifiers (Wire's `userDefinedModelVersionIdentifier`, "2.11"
    /// and "2.15.0") tell their stores apart through the metadata.
    @Test func distinctVersionIdentifiersNameTheVersionAStoreIsTakenFor() {
        var first = Self.blog
        first.versionIdentifiers = ["2.11"]
        var second = Self.indexed
        second.versionIdentifiers = ["2.15.0"]
        let report = HistoryCheck(history: VersionHistory([first, second])).run()
        #expect(
            report.problems.map(\.message) == [
                "'Blog 2' has the same entity hashes as 'Blog', so the two are interchangeable for stores: Core Data opens a store of either with either model, and no step runs between them; Stepwise takes such a store for the version its metadata names in NSStoreModelVersionIdentifiers ('2.11' or '2.15.0')."
            ])
        #expect(report.passes)
    }

    /// Once the newer version has shipped, its hashes are its stores': a modifier belongs in a new version.
    @Test func aShippedDuplicateGetsItsHashModifierInANewVersion() {
        let record = ShippedVersion(
            model: Self.indexed, contents: XcodeModelWriter.contents(of: Self.indexed), shippedAt: Date())
        let report = HistoryCheck(history: VersionHistory([Self.blog, Self.indexed]), shipped: [record]).run()
        #expect(
            report.findings(.duplicateVersion).map(\.fix) == [
                "Nothing to do if stores of 'Blog' need nothing 'Blog 2' changes in 'Post' (a transient attribute, a class name, a default value). If they do (a new index, say), give 'Post' a version hash modifier (Xcode: Data Model inspector, Versioning, Hash Modifier) in a new version: 'Blog 2' has shipped, and its stores carry its hashes."
            ])
        #expect(report.passes)
    }

    @Test func anUnchangedCopyNeedsNothing() {
        var copy = Self.blog
        copy.name = "Blog 2"
        let report = HistoryCheck(history: VersionHistory([Self.blog, copy])).run()
        #expect(
            report.problems.map(\.fix) == [
                "Nothing to do for stores; 'Blog 2' is a copy of 'Blog' with nothing changed, which you may remove before it ships."
            ])
        #expect(report.passes)
        let shipped = ShippedVersion(model: copy, contents: XcodeModelWriter.contents(of: copy), shippedAt: Date())
        #expect(
            HistoryCheck(history: VersionHistory([Self.blog, copy]), shipped: [shipped]).run()
                .findings(.duplicateVersion).map(\.fix) == [
                    "Nothing to do: 'Blog 2' is a copy of 'Blog' with nothing changed, and stores of either are read alike."
                ])
    }

    @Test func versionsOfTwoStemsAreOrderedByTheBundlesNameAndTheCurrentVersion() throws {
        var other = Self.blog
        other.name = "Journal 2"
        let url = directory.path("Blog.xcdatamodeld")
        try XcodeModelWriter.writeBundle([other, Self.blog], current: "Journal 2", to: url)
        // 'Blog' is named after the bundle, so it is the first version; 'Journal 2' is current.
        #expect(try ModelBundle(contentsOf: url).history.names == ["Blog", "Journal 2"])
        let report = try HistoryCheck(bundleAt: url).run()
        #expect(report.problems.map(\.kind) == [.duplicateVersion])
    }

    @Test func versionsOfThreeStemsAreOrderedWhenTheBundlesNameAndTheCurrentVersionFrameThem() throws {
        var journal = Self.blog
        journal.name = "Journal 2"
        var diary = Self.blog
        diary.name = "Diary 3"
        let url = directory.path("Blog.xcdatamodeld")
        try XcodeModelWriter.writeBundle([Self.blog, journal, diary], current: "Journal 2", to: url)
        let report = try HistoryCheck(bundleAt: url).run()
        // 'Blog' first as the bundle's name, 'Journal 2' last as the current version: 'Diary 3'
        // can only be between.
        #expect(report.order?.names == ["Blog", "Diary 3", "Journal 2"])
        #expect(
            report.order?.clues == [
                .naturalOrder(stems: ["Blog", "Diary", "Journal"]), .bundleName("Blog"),
                .currentVersion("Journal 2", file: url.standardizedFileURL.path + "/.xccurrentversion"),
            ])
        #expect(report.problems.map(\.kind) == [.duplicateVersion, .duplicateVersion])
    }

    @Test func versionsOfFourStemsThatNothingOrdersAreAnAmbiguousOrder() throws {
        var journal = Self.blog
        journal.name = "Journal 2"
        var diary = Self.blog
        diary.name = "Diary 3"
        var notes = Self.blog
        notes.name = "Notes 4"
        let url = directory.path("Blog.xcdatamodeld")
        try XcodeModelWriter.writeBundle([Self.blog, journal, diary, notes], current: "Journal 2", to: url)
        let report = try HistoryCheck(bundleAt: url).run()
        #expect(report.order == nil)
        // The versions are still compared: equal hashes are found without an order.
        #expect(
            report.problems.map(\.kind) == [.ambiguousOrder, .duplicateVersion, .duplicateVersion, .duplicateVersion])
        // Only the two versions that could go either way are named.
        #expect(
            report.problems.first
                == HistoryFinding(
                    .ambiguousOrder, version: nil,
                    message:
                        "The order of the versions 'Diary 3', 'Notes 4' can't be told: the names have 4 stems ('Blog', 'Diary', 'Journal', 'Notes'), and nothing in the bundle tells which comes first: 'Diary 3' or 'Notes 4'.",
                    fix:
                        "List every version oldest first, one per line, in Blog.history beside the bundle; paths and steps are checked once the order is known."
                ))
    }

    @Test func aGapInTheChainNamesTheStepAndTheMappingFileToAdd() throws {
        let rated = ObjectModel("Blog 2") {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("color", .string)
                Attribute("rating", .integer16).required()
            }
        }
        var third = rated
        third.name = "Blog 3"
        third.entities[0].attributes.append(Attribute("summary", .string))
        let url = try Self.bundle([Self.blog, rated, third], in: directory)
        let report = try HistoryCheck(bundleAt: url).run()
        #expect(
            report.problems == [
                HistoryFinding(
                    .noPath, version: "Blog", entity: "Post", property: "rating",
                    message:
                        "'Blog' has no path to the current version 'Blog 3': the step 'Blog' → 'Blog 2' has no mapping file and can't be inferred: Post.rating is a new required attribute without a default value, which existing Post rows can't fill.",
                    fix:
                        "Add a mapping file 'Blog to Blog 2.json' (source \"Blog\", destination \"Blog 2\") to Blog.mappings, or make the step inferable: Give 'rating' a default value or make it optional."
                )
            ])
    }

    @Test func oneGapIsOneFindingNamingEveryVersionItCutsOff() throws {
        let titled = ObjectModel("Blog 2") {
            Entity("Post") { Attribute("title", .string) }
        }
        var rated = titled
        rated.name = "Blog 3"
        rated.entities[0].attributes.append(Attribute("rating", .integer16).required())
        var fourth = rated
        fourth.name = "Blog 4"
        let report = HistoryCheck(history: VersionHistory([Self.blog, titled, rated, fourth])).run()
        #expect(report.findings(.noPath).map(\.version) == ["Blog 2"])
        #expect(
            report.findings(.noPath).first?.message.hasPrefix(
                "'Blog' and 'Blog 2' have no path to the current version 'Blog 4': the step 'Blog 2' → 'Blog 3' has no mapping file"
            ) == true)
    }

    @Test func aMappingFileNamingAMissingPropertyOrVersionIsStale() throws {
        let url = try Self.bundle(
            [Self.blog, Self.hexColor],
            mappings: [
                "Blog to Blog 2.json": """
                {"source": "Blog", "destination": "Blog 2", "entityMappings": [
                  {"source": "Post", "destination": "Post", "attributes": {"hexColour": "$source.color"}}]}
                """,
                "Blog 0 to Blog.json": """
                {"source": "Blog 0", "destination": "Blog", "entityMappings": []}
                """,
            ], in: directory)
        let report = try HistoryCheck(bundleAt: url).run()
        #expect(
            report.findings(.staleMapping) == [
                HistoryFinding(
                    .staleMapping, version: nil,
                    message:
                        "The mapping file 'Blog 0 to Blog.json' maps 'Blog 0' → 'Blog', and the bundle has no version 'Blog 0'.",
                    fix:
                        "Set its source and destination to versions of the bundle (Blog, Blog 2), or remove it if the step is gone."
                ),
                HistoryFinding(
                    .staleMapping, version: "Blog 2", entity: "Post", property: "hexColour",
                    message:
                        "The mapping file 'Blog to Blog 2.json' names the property 'Post.hexColour', which 'Blog 2' doesn't have.",
                    fix:
                        "Update Blog to Blog 2.json to the versions it maps between, or remove it if the step no longer needs it."
                ),
            ])
        // With the stale file set aside, the step is inferred, and drops 'color'.
        #expect(report.problems.map(\.kind) == [.staleMapping, .staleMapping, .dropsData])
    }

    @Test func aStaleXcodeMappingModelBesideTheBundleIsAnError() throws {
        let url = try Self.bundle([Self.blog, Self.hexColor], in: directory)
        // Made for a 'Blog 2' whose attribute was called hexColour, as Xcode's editor saves it.
        try Self.writeMappingModel(property: "hexColour", in: directory)
        let report = try HistoryCheck(bundleAt: url).run()
        #expect(
            report.findings(.staleMapping) == [
                HistoryFinding(
                    .staleMapping, version: "Blog 2", entity: "Post", property: "hexColour",
                    message:
                        "The mapping model 'Blog1to2.xcmappingmodel' names the property 'Post.hexColour', which 'Blog 2' doesn't have.",
                    fix:
                        "Update Blog1to2.xcmappingmodel to the versions it maps between, or remove it if the step no longer needs it."
                )
            ])
        #expect(!report.passes)
    }

    @Test func anXcodeMappingModelWhosePathsAndPropertiesFitNoPairIsStale() throws {
        let url = try Self.bundle([Self.blog, Self.hexColor], in: directory)
        // Its versions were renamed since, and its attribute too.
        try Self.writeMappingModel(property: "hexColour", versions: ("Old", "Old 2"), in: directory)
        let finding = try #require(try HistoryCheck(bundleAt: url).run().findings(.staleMapping).first)
        #expect(
            finding.message
                == "The mapping model 'Blog1to2.xcmappingmodel' fits no single pair of the bundle's versions: its model paths name 'Old' → 'Old 2', which the bundle doesn't have both of, its embedded model copies match no version, and no pair of versions has every entity and property its entity mappings name."
        )
        #expect(finding.fix.hasPrefix("The closest pair is 'Blog' → 'Blog 2': "), "\(finding.fix)")
        #expect(
            finding.fix.hasSuffix(
                "Set the mapping model's source and destination models in Xcode, or remove the mapping model."))
    }

    @Test func aMappingFileThatCantBeParsedIsInvalid() throws {
        let url = try Self.bundle(
            [Self.blog, Self.hexColor],
            mappings: [
                "Blog to Blog 2.json": """
                {"source": "Blog", "destination": "Blog 2", "entityMappings": [
                  {"source": "Post", "destination": "Post", "attributes": {"hexColor": "$source.color +"}}]}
                """
            ], in: directory)
        let finding = try #require(try HistoryCheck(bundleAt: url).run().problems.first)
        #expect(finding.kind == .invalidMapping && finding.severity == .error)
        #expect(finding.entity == "Post" && finding.property == "hexColor")
        #expect(finding.message.hasPrefix("The mapping file 'Blog to Blog 2.json' can't be used: "))
        #expect(
            finding.fix
                == "Correct Blog to Blog 2.json as the message says, or remove it if the step no longer needs it.")
    }

    @Test func aHistoryFileThatLeavesOutAVersionIsAnAmbiguousOrder() throws {
        let url = try Self.bundle([Self.blog, Self.hexColor], in: directory)
        try Data("Blog\n".utf8).write(to: directory.path("Blog.history"))
        #expect(
            try HistoryCheck(bundleAt: url).run().problems == [
                HistoryFinding(
                    .ambiguousOrder, version: nil,
                    message: "Blog.history leaves out Blog 2, so the versions' order can't be told.",
                    fix:
                        "List every version of the bundle in Blog.history, oldest first, one per line; paths and steps are checked once the order is known."
                )
            ])
    }

    @Test func anXcodeMappingModelThatStillFitsIsNoFinding() throws {
        let url = try Self.bundle([Self.blog, Self.hexColor], in: directory)
        try Self.writeMappingModel(property: "hexColor", in: directory)
        #expect(try HistoryCheck(bundleAt: url).run().problems == [])
    }

    @Test func anInferredStepThatDropsAnAttributeIsAWarning() {
        let dropped = ObjectModel("Blog 2") {
            Entity("Post") { Attribute("title", .string) }
        }
        let report = HistoryCheck(history: VersionHistory([Self.blog, dropped])).run()
        #expect(
            report.problems == [
                HistoryFinding(
                    .dropsData, version: "Blog 2", entity: "Post", property: "color",
                    message:
                        "The inferred step 'Blog' → 'Blog 2' drops the values of Post.color: no attribute of 'Blog 2' continues it.",
                    fix:
                        "If 'color' was renamed, give the new attribute in 'Blog 2' the renaming identifier 'color'; if it was removed on purpose, its values go and this warning can stay, or write a mapping file 'Blog to Blog 2.json' that carries them."
                )
            ])
        #expect(report.passes && report.warnings == 1)
    }

    /// Core Data's inference maps `cover` by name, and leaves out its links to Artworks, which
    /// don't become Pictures (Artsy's covers, ArtsyFolio v1.5 → v1.7).
    @Test func anInferredStepThatLeavesOutLinksOfAChangedDestinationIsAWarning() {
        let artworks = ObjectModel("Blog") {
            Entity("Album") { Relationship("cover", to: "Artwork") }
            Entity("Artwork") { Attribute("title", .string) }
            Entity("Picture") { Attribute("url", .string) }
        }
        var pictures = artworks
        pictures.name = "Blog 2"
        pictures.entities[0].relationships[0].destination = "Picture"
        let report = HistoryCheck(history: VersionHistory([artworks, pictures])).run()
        #expect(
            report.problems == [
                HistoryFinding(
                    .dropsData, version: "Blog 2", entity: "Album", property: "cover",
                    message:
                        "The inferred step 'Blog' → 'Blog 2' drops the links of Album.cover to Artwork: its destination changes to an entity those objects don't become, and Core Data's inference leaves such links out.",
                    fix:
                        "If the links should follow, write a mapping file 'Blog to Blog 2.json' that makes the new destination's objects from them; if they go on purpose, this warning can stay."
                )
            ])
    }

    @Test func anInferredStepThatDropsAnEntityIsAWarning() {
        let withTags = ObjectModel("Blog") {
            Entity("Post") { Attribute("title", .string) }
            Entity("Tag") { Attribute("name", .string) }
        }
        let withoutTags = ObjectModel("Blog 2") {
            Entity("Post") { Attribute("title", .string) }
        }
        let report = HistoryCheck(history: VersionHistory([withTags, withoutTags])).run()
        #expect(
            report.problems == [
                HistoryFinding(
                    .dropsData, version: "Blog 2", entity: "Tag",
                    message:
                        "The inferred step 'Blog' → 'Blog 2' drops every Tag row: no entity of 'Blog 2' continues Tag.",
                    fix:
                        "If Tag was renamed, give its new entity in 'Blog 2' the renaming identifier 'Tag'; to drop its rows on purpose, say so in a mapping file 'Blog to Blog 2.json' with an entity mapping from Tag and no destination."
                )
            ])
    }

    @Test func aPolicyTheRegistryLacksIsAnErrorOnlyWhenARegistryIsGiven() throws {
        var second = Self.blog
        second.name = "Blog 2"
        second.entities[0].attributes.append(Attribute("summary", .string))
        let url = try Self.bundle(
            [Self.blog, second],
            mappings: [
                "Blog to Blog 2.json": """
                {"source": "Blog", "destination": "Blog 2", "entityMappings": [
                  {"source": "Post", "destination": "Post", "policy": "SummaryPolicy"}]}
                """
            ], in: directory)
        let report = try HistoryCheck(bundleAt: url, policies: PolicyRegistry()).run()
        #expect(
            report.problems == [
                HistoryFinding(
                    .unregisteredPolicy, version: "Blog 2", entity: "Post",
                    message:
                        "The mapping file 'Blog to Blog 2.json' names the policy 'SummaryPolicy' for its entity mapping 'PostToPost', and the policy registry has no policy of that name.",
                    fix:
                        "Register it with PolicyRegistry.register(\"SummaryPolicy\") { … } in the registry your Upgrader and your StepwiseTool's policies use, or correct the name in the mapping."
                )
            ])
        #expect(try HistoryCheck(bundleAt: url).run().problems == [])
        var registry = PolicyRegistry()
        registry.register("SummaryPolicy") { EntityMigrationPolicy() }
        #expect(try HistoryCheck(bundleAt: url, policies: registry).run().problems == [])
    }

    @Test func aMatchThroughASharedRenamingIdentifierIsAWarning() {
        // 'heading' and 'caption' both once were 'title'; 'headline' finds 'heading' only
        // because it comes first among the properties carrying 'title'.
        let source = ObjectModel("Blog") {
            Entity("Post") {
                Attribute("heading", .string).renamed(from: "title")
                Attribute("caption", .string).renamed(from: "title")
            }
        }
        let destination = ObjectModel("Blog 2") {
            Entity("Post") {
                Attribute("headline", .string).renamed(from: "title")
                Attribute("caption", .string).renamed(from: "title")
            }
        }
        let report = HistoryCheck(history: VersionHistory([source, destination])).run()
        #expect(
            report.problems == [
                HistoryFinding(
                    .sharedRenamingIdentifier, version: "Blog 2", entity: "Post", property: "headline",
                    message:
                        "The inferred step 'Blog' → 'Blog 2' fills Post.headline from 'heading' through the renaming identifier 'title', which Post.caption of 'Blog' and Post.caption of 'Blog 2' carry too.",
                    fix:
                        "Set the renaming identifier of Post.headline in 'Blog 2' to 'heading', the property it continues, or clear 'title' on the other properties."
                )
            ])
    }

    @Test func aRenameThroughItsOwnIdentifierIsNoFinding() {
        let renamed = ObjectModel("Blog 2") {
            Entity("Post") {
                Attribute("headline", .string).renamed(from: "title")
                Attribute("color", .string)
            }
        }
        #expect(HistoryCheck(history: VersionHistory([Self.blog, renamed])).run().problems == [])
    }

    @Test func theReportEncodesEveryKeyOfEveryFinding() throws {
        let dropped = ObjectModel("Blog 2") {
            Entity("Post") { Attribute("title", .string) }
        }
        let report = HistoryCheck(history: VersionHistory([Self.blog, dropped])).run()
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(Set(object.keys) == ["errors", "warnings", "accepted", "order", "findings"])
        let order = try #require(object["order"] as? [String: Any])
        #expect(order["versions"] as? [String] == ["Blog", "Blog 2"])
        #expect(order["foundBy"] as? String == "givenInCode")
        #expect(order["description"] as? String == "Blog, Blog 2 — as given in code")
        #expect(object["errors"] as? Int == 0 && object["warnings"] as? Int == 1)
        let finding = try #require((object["findings"] as? [[String: Any]])?.first)
        #expect(
            Set(finding.keys) == [
                "severity", "kind", "version", "entity", "property", "message", "fix", "acceptedBecause",
            ])
        #expect(finding["severity"] as? String == "warning" && finding["kind"] as? String == "dropsData")
        #expect(try JSONDecoder().decode(HistoryCheckReport.self, from: JSONEncoder().encode(report)) == report)
    }

    /// `Blog1to2.xcmappingmodel` beside the bundle, holding ``xcmapping(property:versions:)``.
    static func writeMappingModel(
        property: String, versions: (String, String) = ("Blog", "Blog 2"), in directory: TemporaryDirectory
    ) throws {
        let mappingModel = directory.path("Blog1to2.xcmappingmodel")
        try FileManager.default.createDirectory(at: mappingModel, withIntermediateDirectories: true)
        try Data(xcmapping(property: property, versions: versions).utf8).write(
            to: mappingModel.appendingPathComponent("xcmapping.xml"))
    }

    /// A minimal `xcmapping.xml` mapping Post to Post, with `property` taking `$source.color`;
    /// its model paths name `versions`, as the mapping editor records them.
    static func xcmapping(property: String, versions: (String, String)) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <database>
            <object type="XDDEVMAPPINGMODEL" id="z1">
                <attribute name="sourcemodelpath" type="string">Blog.xcdatamodeld/\(versions.0).xcdatamodel</attribute>
                <attribute name="destinationmodelpath" type="string">Blog.xcdatamodeld/\(versions.1).xcdatamodel</attribute>
                <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2"></relationship>
            </object>
            <object type="XDDEVENTITYMAPPING" id="z2">
                <attribute name="sourcename" type="string">Post</attribute>
                <attribute name="destinationname" type="string">Post</attribute>
                <attribute name="mappingnumber" type="int16">1</attribute>
                <attribute name="autogenerateexpression" type="bool">1</attribute>
                <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z3 z4"></relationship>
            </object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z3">
                <attribute name="name" type="string">title</attribute>
            </object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z4">
                <attribute name="name" type="string">\(property)</attribute>
                <attribute name="sourcekeypath" type="string">color</attribute>
            </object>
        </database>
        """
    }
}

extension HistoryCheckReport {
    /// The findings but the information that the current version isn't recorded as shipped,
    /// which every history here without records has (HistoryCheckShippedTests covers it).
    var problems: [HistoryFinding] { findings.filter { $0.kind != .currentVersionNotShipped } }
}

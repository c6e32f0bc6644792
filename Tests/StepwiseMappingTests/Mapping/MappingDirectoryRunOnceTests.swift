import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A mapping model found at several paths runs once, whatever its format or bytes; two
/// different mapping models of one step that map the same entities are refused, naming both.
@Suite("A mapping model runs once")
struct MappingDirectoryRunOnceTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-run-once")
    }

    /// A fresh, empty mapping folder.
    func folder(_ name: String) throws -> URL {
        let url = directory.path(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: JSON files

    /// The time-stamps pass of Events → Events 2 written again with other spacing and key order.
    static func reformatted(_ json: String) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The same pass, but only for events with a time stamp: another mapping of Event → TimeStampEvent.
    static func filtered(_ json: String) -> String {
        json.replacingOccurrences(
            of: #""policy": "EventConversionPolicy","#,
            with: #""policy": "EventConversionPolicy", "filter": "timeStamp != nil","#)
    }

    @Test func twoJSONFilesOfTheSameContentRunOnce() throws {
        let mappings = try folder("Events.mappings")
        try Data(SampleMappings.events1to2TimeStamps.utf8).write(to: mappings.appendingPathComponent("a.json"))
        let copy = mappings.appendingPathComponent("b.json")
        try Self.reformatted(SampleMappings.events1to2TimeStamps).write(to: copy)
        #expect(try Data(contentsOf: copy) != Data(SampleMappings.events1to2TimeStamps.utf8))

        let directory = try MappingDirectory(contentsOf: mappings, history: EventsHistory.history)

        let models = directory.mappingModels(from: "Events", to: "Events 2")
        #expect(models.count == 1)
        #expect(models.first?.origin?.path == mappings.appendingPathComponent("a.json").path)
        #expect(models.first?.origin?.identicalCopies == [copy.path])
    }

    /// Passes of a multi-pass step that map different entities still all run, in order.
    @Test func passesThatMapDifferentEntitiesAllRun() throws {
        let mappings = try folder("Events.mappings")
        try Data(SampleMappings.events1to2TimeStamps.utf8).write(to: mappings.appendingPathComponent("1.json"))
        try Data(SampleMappings.events1to2PrintedDates.utf8).write(to: mappings.appendingPathComponent("2.json"))

        let models = try MappingDirectory(contentsOf: mappings, history: EventsHistory.history)
            .mappingModels(from: "Events", to: "Events 2")

        #expect(
            models.map { $0.origin.map { URL(fileURLWithPath: $0.path).lastPathComponent } } == ["1.json", "2.json"])
        #expect(models.allSatisfy { $0.origin?.identicalCopies == [] })
    }

    @Test func twoDifferentJSONFilesMappingTheSameEntitiesAreRefusedNamingBoth() throws {
        let mappings = try folder("Events.mappings")
        let first = mappings.appendingPathComponent("a.json")
        let second = mappings.appendingPathComponent("b.json")
        try Data(SampleMappings.events1to2TimeStamps.utf8).write(to: first)
        let edited = Self.filtered(SampleMappings.events1to2TimeStamps)
        try Data(edited.utf8).write(to: second)

        let error = try #require(throws: MappingError.self) {
            try MappingDirectory(contentsOf: mappings, history: EventsHistory.history)
        }

        guard
            case .overlappingMappingModels(let from, let to, let source, let destination, let other, let difference) =
                error.kind
        else {
            Issue.record("expected overlappingMappingModels, got \(error.kind)")
            return
        }
        #expect((from, to) == ("Events", "Events 2"))
        #expect((source, destination) == ("Event", "TimeStampEvent"))
        #expect(Set([error.file, other]) == Set([first.path, second.path]))
        #expect(error.entityMapping == "EventToTimeStampEvent")
        #expect(difference?.contains("timeStamp") == true)
        #expect(error.description.contains("a.json") && error.description.contains("b.json"))
        #expect(error.caseName == "overlappingMappingModels")
    }

    /// `HistoryCheck` reads on past the refusal, and leaves the step out.
    @Test func settingAsideRecordsTheRefusalAndLeavesTheStepOut() throws {
        let models = try folder("Models")
        let bundle = models.appendingPathComponent("Events.xcdatamodeld")
        try XcodeModelWriter.writeBundle(EventsHistory.history.versions, current: "Events 2", to: bundle)
        let mappings = try folder("Events.mappings")
        try Data(SampleMappings.events1to2TimeStamps.utf8).write(to: mappings.appendingPathComponent("a.json"))
        let edited = Self.filtered(SampleMappings.events1to2TimeStamps)
        try Data(edited.utf8).write(to: mappings.appendingPathComponent("b.json"))

        var failures: [MappingError] = []
        let directory = MappingDirectory(
            bundleAt: bundle, mappingsAt: mappings, history: EventsHistory.history, settingAside: &failures)

        #expect(failures.map(\.caseName) == ["overlappingMappingModels"])
        #expect(directory.mappingModels(from: "Events", to: "Events 2").isEmpty)
    }
}

/// The same, with Xcode's `.xcmappingmodel` folders: wibosco's `Migration1to2` beside the bundle
/// and copies of it, or the JSON file converted from it, in the mapping folder.
@Suite("An .xcmappingmodel runs once", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct XcodeMappingRunOnceTests {
    let corpus: Corpus
    let directory: TemporaryDirectory
    let history: VersionHistory
    let original: URL

    init() throws {
        corpus = try Corpus.required()
        directory = try TemporaryDirectory(prefix: "stepwise-xcmapping-once")
        history = try corpus.modelBundle(.wibosco).history
        original = try #require(
            try corpus.mappingModels(.wibosco).first { $0.lastPathComponent == "Migration1to2.xcmappingmodel" })
    }

    /// A mapping folder holding a copy of `Migration1to2.xcmappingmodel`, its `xcmapping.xml`
    /// passed through `edit`.
    func folderWithCopy(named name: String = "Migration1to2.xcmappingmodel", _ edit: (String) -> String = { $0 })
        throws -> (folder: URL, copy: URL)
    {
        let folder = directory.path("Mappings-\(UUID().uuidString)")
        let copy = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let xml = try String(contentsOf: original.appendingPathComponent("xcmapping.xml"), encoding: .utf8)
        try Data(edit(xml).utf8).write(to: copy.appendingPathComponent("xcmapping.xml"))
        return (folder, copy)
    }

    func step(_ directory: MappingDirectory) -> [MappingModel] {
        directory.mappingModels(from: "CoreDataMigration_Example", to: "CoreDataMigration_Example 2")
    }

    @Test func theSameMappingModelBesideTheBundleAndInTheMappingFolderRunsOnce() throws {
        let (folder, copy) = try folderWithCopy()

        let directory = try MappingDirectory(bundleAt: corpus.url(.wibosco), mappingsAt: folder, history: history)

        let models = step(directory)
        #expect(models.count == 1)
        let origin = try #require(models.first?.origin)
        #expect(Set([origin.path] + origin.identicalCopies) == Set([original.path, copy.path]))
        #expect(origin.identicalCopies.count == 1)
        #expect(directory.files.count == 3, "both found: \(directory.files.map(\.path))")
    }

    /// Bytes don't decide: a copy whose model paths name renamed version files (bound through
    /// its embedded model copies instead) is the same mapping model.
    @Test func aCopyWithOtherBytesButTheSameContentRunsOnce() throws {
        let (folder, copy) = try folderWithCopy(named: "Renamed.xcmappingmodel") {
            $0.replacingOccurrences(of: "CoreDataMigration_Example.xcdatamodel<", with: "Old Name.xcdatamodel<")
                .replacingOccurrences(of: "CoreDataMigration_Example 2.xcdatamodel<", with: "Old Name 2.xcdatamodel<")
        }
        #expect(
            try Data(contentsOf: copy.appendingPathComponent("xcmapping.xml"))
                != Data(contentsOf: original.appendingPathComponent("xcmapping.xml")))

        let models = step(try MappingDirectory(bundleAt: corpus.url(.wibosco), mappingsAt: folder, history: history))

        #expect(models.count == 1)
        let origin = try #require(models.first?.origin)
        #expect(Set([origin.path] + origin.identicalCopies) == Set([original.path, copy.path]))
    }

    /// The JSON file `stepwise convert` writes from it, in the mapping folder: formats mix.
    @Test func theJSONFileConvertedFromItRunsOnceBesideIt() throws {
        let folder = directory.path("Converted.mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let model = try XcodeMappingModel.load(original, history: history)
        let json = folder.appendingPathComponent("Migration1to2.json")
        try MappingFile.encode(
            model, source: try #require(history.version(named: model.sourceVersion)),
            destination: try #require(history.version(named: model.destinationVersion))
        ).write(to: json)

        let models = step(try MappingDirectory(bundleAt: corpus.url(.wibosco), mappingsAt: folder, history: history))

        #expect(models.count == 1)
        let origin = try #require(models.first?.origin)
        #expect(Set([origin.path] + origin.identicalCopies) == Set([original.path, json.path]))
    }

    /// An edited copy maps Post → Post differently (it no longer fills `date` and `postID`
    /// from the same-named source attributes): which one is meant can't be told.
    @Test func anEditedCopyIsRefusedBeforeAnythingRunsNamingBothFiles() throws {
        let (folder, copy) = try folderWithCopy(named: "Migration1to2 edited.xcmappingmodel") {
            $0.replacingOccurrences(
                of: #"<attribute name="autogenerateexpression" type="bool">1</attribute>"#,
                with: #"<attribute name="autogenerateexpression" type="bool">0</attribute>"#)
        }

        let error = try #require(throws: MappingError.self) {
            try MappingDirectory(bundleAt: corpus.url(.wibosco), mappingsAt: folder, history: history)
        }

        guard case .overlappingMappingModels(_, _, let source, let destination, let other, _) = error.kind else {
            Issue.record("expected overlappingMappingModels, got \(error.kind)")
            return
        }
        #expect((source, destination) == ("Post", "Post"))
        #expect(Set([error.file, other]) == Set([original.path, copy.path]))
        #expect(error.description.contains("date") || error.description.contains("postID"), "\(error)")
        #expect(error.description.contains("Migration1to2.xcmappingmodel"))
        #expect(error.description.contains("Migration1to2 edited.xcmappingmodel"))
    }

    /// A JSON file that maps Post → Post unlike the `.xcmappingmodel` beside the bundle.
    @Test func aDifferentJSONFileForTheSameEntitiesIsRefusedNamingBothFiles() throws {
        let folder = directory.path("Mixed.mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let json = """
            { "source": "CoreDataMigration_Example", "destination": "CoreDataMigration_Example 2",
              "entityMappings": [ { "source": "Post", "destination": "Post", "attributes": { "hexColor": "\\"#FFFFFF\\"" } } ] }
            """
        let file = folder.appendingPathComponent("Migration1to2.json")
        try Data(json.utf8).write(to: file)

        let error = try #require(throws: MappingError.self) {
            try MappingDirectory(bundleAt: corpus.url(.wibosco), mappingsAt: folder, history: history)
        }

        #expect(error.caseName == "overlappingMappingModels")
        #expect(error.description.contains(file.path))
        #expect(error.description.contains(original.path))
        #expect(error.description.contains("hexColor"), "\(error.description)")
    }
}

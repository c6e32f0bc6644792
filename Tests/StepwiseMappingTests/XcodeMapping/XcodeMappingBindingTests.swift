import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Which step an `.xcmappingmodel` belongs to, and what happens when it fits none: edited
/// copies of wibosco's `Migration1to2` (Post.color → hexColor), never the corpus file itself.
@Suite("Xcode mapping model bindings", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct XcodeMappingBindingTests {
    let corpus: Corpus
    let directory: TemporaryDirectory
    let history: VersionHistory

    init() throws {
        corpus = try Corpus.required()
        directory = try TemporaryDirectory(prefix: "stepwise-xcmapping")
        history = try corpus.modelBundle(.wibosco).history
    }

    /// A copy of `Migration1to2.xcmappingmodel` whose `xcmapping.xml` went through `edit`.
    func editedCopy(_ edit: (String) throws -> String) throws -> URL {
        let original = try corpus.mappingModels(.wibosco).first {
            $0.lastPathComponent == "Migration1to2.xcmappingmodel"
        }
        let source = try #require(original).appendingPathComponent("xcmapping.xml")
        let copy = directory.path("Edited-\(UUID().uuidString).xcmappingmodel")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let text = try String(contentsOf: source, encoding: .utf8)
        try Data(try edit(text).utf8).write(to: copy.appendingPathComponent("xcmapping.xml"))
        return copy
    }

    /// Renames the versions the model paths name, as a renamed version file leaves them.
    static func stalePaths(_ text: String) -> String {
        text.replacingOccurrences(of: "CoreDataMigration_Example.xcdatamodel<", with: "Old Name.xcdatamodel<")
            .replacingOccurrences(of: "CoreDataMigration_Example 2.xcdatamodel<", with: "Old Name 2.xcdatamodel<")
    }

    /// Removes the embedded model copies.
    static func withoutSnapshots(_ text: String) throws -> String {
        let pattern = try NSRegularExpression(
            pattern: #"<attribute name="(source|destination)modeldata" type="binary">[^<]*</attribute>"#)
        return pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
    }

    @Test func stalePathsFallBackToTheEmbeddedModelCopies() throws {
        let copy = try editedCopy(Self.stalePaths)
        let model = try XcodeMappingModel.load(copy, history: history)
        #expect(model.sourceVersion == "CoreDataMigration_Example")
        #expect(model.destinationVersion == "CoreDataMigration_Example 2")
        #expect(model.origin?.binding == .modelSnapshots)
        #expect(
            model.entityMapping(named: "PostToPost")?.propertyMapping(named: "hexColor")?.valueExpression
                == .source("color"))
    }

    @Test func stalePathsWithoutCopiesFallBackToTheOnePairTheEntityMappingsFit() throws {
        let copy = try editedCopy { try Self.withoutSnapshots(Self.stalePaths($0)) }
        let model = try XcodeMappingModel.load(copy, history: history)
        #expect(model.sourceVersion == "CoreDataMigration_Example")
        #expect(model.destinationVersion == "CoreDataMigration_Example 2")
        #expect(model.origin?.binding == .entityMappings)
    }

    @Test func aMappingThatFitsNoPairIsRefusedNamingTheFile() throws {
        let copy = try editedCopy {
            try Self.withoutSnapshots(Self.stalePaths($0))
                .replacingOccurrences(of: ">hexColor<", with: ">hexColour<")
        }
        let error = try #require(throws: MappingError.self) { try XcodeMappingModel.load(copy, history: history) }
        #expect(error.file == copy.path)
        guard case .noMatchingVersions(let reason) = error.kind else {
            Issue.record("expected noMatchingVersions, got \(error.kind)")
            return
        }
        #expect(reason.contains("'Old Name' → 'Old Name 2'"))
        #expect(reason.contains("hexColour"))
    }

    /// Bound by its model paths, a mapping that names a property its destination lacks is
    /// refused with that name: it never falls back to another pair or to inference.
    @Test func aMappingEditedToNameAMissingAttributeIsRefusedWithThatName() throws {
        let copy = try editedCopy { $0.replacingOccurrences(of: ">hexColor<", with: ">hexColour<") }
        let error = try #require(throws: MappingError.self) { try XcodeMappingModel.load(copy, history: history) }
        #expect(
            error.kind
                == .unknownProperty(entity: "Post", property: "hexColour", version: "CoreDataMigration_Example 2"))
        #expect(error.file == copy.path)
        #expect(error.entityMapping == "PostToPost")
        #expect(error.description.contains("hexColour"))
    }

    /// An archived class Stepwise doesn't know is an error naming the file, the entity mapping,
    /// the property and the class; it is never skipped.
    @Test func anUnknownArchivedClassIsRefusedNamingTheClass() throws {
        let copy = try editedCopy { text in
            // The one value expression, `$source.color`: rename its class in the archive
            // (same length, so every offset of the binary property list stays right).
            let pattern = try NSRegularExpression(
                pattern: #"(<attribute name="valueexpressiondata" type="binary">)([^<]*)(</attribute>)"#)
            let match = try #require(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
            let base64 = String(text[try #require(Range(match.range(at: 2), in: text))])
            var bytes = try #require(Data(base64Encoded: base64, options: .ignoreUnknownCharacters))
            let from = Data("NSKeyPathExpression".utf8)
            let to = Data("NSMadeUpExpression1".utf8)
            let range = try #require(bytes.range(of: from))
            bytes.replaceSubrange(range, with: to)
            return text.replacingCharacters(
                in: try #require(Range(match.range(at: 2), in: text)), with: bytes.base64EncodedString())
        }
        let error = try #require(throws: MappingError.self) { try XcodeMappingModel.load(copy, history: history) }
        guard case .unsupportedExpression(let className, _) = error.kind else {
            Issue.record("expected unsupportedExpression, got \(error.kind)")
            return
        }
        #expect(className == "NSMadeUpExpression1")
        #expect(error.file == copy.path)
        #expect(error.entityMapping == "PostToPost")
        #expect(error.property == "hexColor")
        #expect(error.description.contains("NSMadeUpExpression1"))
    }

    /// A JSON file written by hand that means what the `.xcmappingmodel` beside the bundle
    /// means (hexColor from color, the rest copied) is the same mapping model: the step runs it
    /// once. A different one is refused (`XcodeMappingRunOnceTests`).
    @Test func aJSONFileMeaningTheSameAsTheXcodeMappingModelRunsOnce() throws {
        let folder = directory.path("Mixed.mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let json = """
            { "source": "CoreDataMigration_Example", "destination": "CoreDataMigration_Example 2",
              "entityMappings": [ { "source": "Post", "destination": "Post", "attributes": { "hexColor": "$source.color" } } ] }
            """
        try Data(json.utf8).write(to: folder.appendingPathComponent("Migration1to2.json"))
        let directory = try MappingDirectory(bundleAt: corpus.url(.wibosco), mappingsAt: folder, history: history)
        let models = directory.mappingModels(from: "CoreDataMigration_Example", to: "CoreDataMigration_Example 2")
        #expect(models.count == 1)
        let origin = try #require(models.first?.origin)
        #expect(
            Set(([origin.path] + origin.identicalCopies).map { URL(fileURLWithPath: $0).lastPathComponent }) == [
                "Migration1to2.json", "Migration1to2.xcmappingmodel",
            ])
    }
}

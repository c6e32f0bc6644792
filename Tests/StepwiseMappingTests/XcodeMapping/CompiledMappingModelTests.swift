import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The corpus's compiled mapping models (`.cdm`) read as the `.xcmappingmodel`s they were
/// compiled from, bound to their steps by the entity hashes they carry.
@Suite("Compiled mapping models", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CompiledMappingModelTests {
    @Test(arguments: CompiledMappingCorpus.pairs)
    func eachCompiledMappingModelIsTheMappingOfItsSource(pair: CompiledMappingCorpus.Pair) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let history = try ModelBundle(contentsOf: pair.project.makeBundle(in: directory.url, corpus: corpus)).history

        let compiled = try CompiledMappingModel.load(corpus.url(pair.compiled), history: history)
        let source = try XcodeMappingModel.load(corpus.url(pair.source), history: history)

        #expect(compiled.sourceVersion == pair.sourceVersion)
        #expect(compiled.destinationVersion == pair.destinationVersion)
        #expect(source.sourceVersion == pair.sourceVersion)
        #expect(source.destinationVersion == pair.destinationVersion)
        #expect(compiled.entityMappings.map(\.name) == source.entityMappings.map(\.name))
        #expect(compiled.entityMappings == source.entityMappings)
        #expect(
            compiled.origin == MappingOrigin(path: corpus.url(pair.compiled).path, format: .cdm, binding: .entityHashes)
        )
    }

    @Test func theDefaultSourceFetchIsNoFilterAndEveryEntityIsMapped() throws {
        let corpus = try Corpus.required()
        let pair = CompiledMappingCorpus.coreDataPlus.pairs[0]
        let document = try CompiledMappingDocument(contentsOf: corpus.url(pair.compiled))
        #expect(document.entityMappings.map(\.name) == ["BookToBook", "AuthorToAuthor"])
        #expect(document.entityMappings.map(\.sourceFetch) == [.entity(filter: nil), .entity(filter: nil)])
        #expect(document.entityMappings.map(\.type) == [5, 5])
        #expect(document.entityMappings.allSatisfy { $0.sourceHash?.count == 32 && $0.destinationHash?.count == 32 })
    }

    @Test func aFilterPredicateInTheDefaultFetchIsTheEntityMappingsFilter() throws {
        let fixture = try CoreDataPlusMappingFixture()
        var archive = try fixture.editableArchive()
        let predicate = archive.fetchArgument(ofEntityMapping: "BookToBook", at: 1)
        archive.set(predicate, "NSConstantValue", to: .uid(archive.append(.string("title != nil"))))
        let file = try archive.write(to: fixture.directory.path("Filtered.cdm"))

        let model = try CompiledMappingModel.load(file, history: fixture.history)
        #expect(
            model.entityMapping(named: "BookToBook")?.filter == (try ExpressionParser.parsePredicate("title != nil")))
        #expect(model.entityMapping(named: "AuthorToAuthor")?.filter == nil)
    }

    @Test func aCustomSourceFetchIsRefusedByTheEntityMappingsName() throws {
        let fixture = try CoreDataPlusMappingFixture()
        var archive = try fixture.editableArchive()
        // Books fetched as Authors: not the default fetch of the mapping's source entity.
        let entity = archive.fetchArgument(ofEntityMapping: "BookToBook", at: 0)
        archive.set(entity, "NSConstantValue", to: .uid(archive.append(.string("Author"))))
        let file = try archive.write(to: fixture.directory.path("Custom.cdm"))

        let error = try #require(throws: MappingError.self) {
            try CompiledMappingModel.load(file, history: fixture.history)
        }
        #expect(error.kind == XcodeMappingModel.customSourceFetch(className: "NSFetchRequestExpression").kind)
        #expect(error.entityMapping == "BookToBook")
        #expect(error.file == file.path)
        #expect(error.description.contains("custom source fetch"))
    }

    @Test func aCompiledMappingModelWhoseHashesFitNoStepNamesTheFileAndTheFix() throws {
        let fixture = try CoreDataPlusMappingFixture()
        let file = fixture.corpus.url(CompiledMappingCorpus.xcodeServer.pairs[0].compiled)

        let error = try #require(throws: MappingError.self) {
            try CompiledMappingModel.load(file, history: fixture.history)
        }
        guard case .noMatchingVersions(let reason) = error.kind else {
            Issue.record("expected noMatchingVersions, got \(error)")
            return
        }
        #expect(error.file == file.path)
        #expect(reason.contains("match no version"))
        #expect(reason.contains("no version has '"))
        #expect(reason.contains("(--models), or remove the compiled mapping model"))
    }

    @Test(arguments: ["garbage", "truncated", "not a mapping model", "bad mapping type"])
    func aMalformedCompiledMappingModelIsATypedErrorNamingTheFile(kind: String) throws {
        let fixture = try CoreDataPlusMappingFixture()
        let original = try Data(contentsOf: fixture.compiledMapping)
        let file = fixture.directory.path("Broken.cdm")
        switch kind {
        case "garbage":
            try Data("this is not a property list".utf8).write(to: file)
        case "truncated":
            try original.prefix(original.count / 2).write(to: file)
        case "not a mapping model":
            var archive = try EditableArchive(data: original)
            archive.setClassName(ofRoot: "NSManagedObjectModel")
            _ = try archive.write(to: file)
        default:
            var archive = try EditableArchive(data: original)
            archive.set(archive.entityMapping(named: "AuthorToAuthor"), "NSMappingType", to: .integer(9))
            _ = try archive.write(to: file)
        }

        let error = try #require(throws: MappingError.self) {
            try CompiledMappingModel.load(file, history: fixture.history)
        }
        #expect(error.file == file.path)
        switch kind {
        case "bad mapping type":
            #expect(error.entityMapping == "AuthorToAuthor")
            #expect(error.description.contains("NSMappingType is 9"))
        case "not a mapping model":
            #expect(error.description.contains("not an NSMappingModel"))
        default:
            guard case .unreadableArchive(let reason) = error.kind else {
                Issue.record("expected unreadableArchive, got \(error)")
                return
            }
            #expect(reason.contains("compile the .xcmappingmodel again"))
        }
        // The same error from a mapping folder, which reads it by its name.
        let folder = fixture.directory.path("Mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent("Broken.cdm_precompiled"))
        let folderError = try #require(throws: MappingError.self) {
            try MappingDirectory(contentsOf: folder, history: fixture.history)
        }
        #expect(folderError.file == folder.appendingPathComponent("Broken.cdm_precompiled").path)
    }

    /// XcodeServer's history with each `.cdm` and its `.xcmappingmodel` beside it: each step
    /// has one mapping model, run once, with the other file named as its identical copy.
    @Test func aCompiledMappingModelAndItsSourceBesideTheBundleRunOnce() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let bundle = try CompiledMappingCorpus.xcodeServer.makeBundle(in: directory.url, corpus: corpus)
        let history = try ModelBundle(contentsOf: bundle).history
        for (index, pair) in CompiledMappingCorpus.xcodeServer.pairs.enumerated() {
            try FileManager.default.copyItem(
                at: corpus.url(pair.compiled), to: directory.path("Step\(index + 1).cdm_precompiled"))
            try FileManager.default.copyItem(
                at: corpus.url(pair.source), to: directory.path("Step\(index + 1).xcmappingmodel"))
        }

        let mappings = try MappingDirectory(bundleAt: bundle, history: history)
        #expect(mappings.steps.count == 2)
        for (index, pair) in CompiledMappingCorpus.xcodeServer.pairs.enumerated() {
            let models = mappings.mappingModels(from: pair.sourceVersion, to: pair.destinationVersion)
            #expect(models.count == 1)
            #expect(models.first?.origin?.format == .cdm)
            #expect(
                models.first?.origin?.identicalCopies.map { URL(fileURLWithPath: $0).lastPathComponent }
                    == ["Step\(index + 1).xcmappingmodel"])
        }
    }

    /// CoreDataPlus as the project keeps it: each version a bundle of its own, the `.cdm` beside
    /// both. Read against the one-version bundle it doesn't fit, it is the other bundle's.
    @Test func aCompiledMappingModelThatFitsNoStepIsLeftToAnotherModelBesideTheBundle() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let pair = CompiledMappingCorpus.coreDataPlus.pairs[0]
        for (name, path) in CompiledMappingCorpus.coreDataPlus.versions {
            let version = directory.path("\(name).xcdatamodeld/Model.xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: corpus.url(path).appendingPathComponent("contents"), to: version.appendingPathComponent("contents"))
        }
        try FileManager.default.copyItem(at: corpus.url(pair.compiled), to: directory.path("Model.cdm"))
        let bundle = directory.path("CoreDataPlus 1.1.xcdatamodeld")

        let mappings = try MappingDirectory(bundleAt: bundle, history: ModelBundle(contentsOf: bundle).history)
        #expect(mappings.steps.isEmpty)

        // Alone beside the bundle, it is an error naming it.
        try FileManager.default.removeItem(at: directory.path("CoreDataPlus 1.0.xcdatamodeld"))
        let error = try #require(throws: MappingError.self) {
            try MappingDirectory(bundleAt: bundle, history: ModelBundle(contentsOf: bundle).history)
        }
        #expect(error.file == directory.path("Model.cdm").path)
    }

    @Test func aCompiledFileIsKnownByItsContentAndItsName() throws {
        let corpus = try Corpus.required()
        let compiled = corpus.url(CompiledMappingCorpus.coreDataPlus.pairs[0].compiled)
        #expect(CompiledMappingModel.isCompiledMappingModel(at: compiled))
        #expect(
            !CompiledMappingModel.isCompiledMappingModel(
                at: corpus.url(CompiledMappingCorpus.coreDataPlus.pairs[0].source)))
        #expect(CompiledMappingModel.hasCompiledName(compiled))
        #expect(CompiledMappingModel.hasCompiledName(URL(fileURLWithPath: "/a/Model.cdm")))
        #expect(!CompiledMappingModel.hasCompiledName(URL(fileURLWithPath: "/a/.cdm")))
        #expect(!CompiledMappingModel.hasCompiledName(URL(fileURLWithPath: "/a/Model.json")))
        #expect(!CompiledMappingModel.hasCompiledName(URL(fileURLWithPath: "/a/Model.cdm.json")))
        #expect(!CompiledMappingModel.hasCompiledName(URL(fileURLWithPath: "/a/Model.cdm.xcmappingmodel")))
    }
}

/// CoreDataPlus's two versions as one bundle in a temporary folder, and its compiled mapping
/// model, which the tests edit a copy of.
struct CoreDataPlusMappingFixture {
    let corpus: Corpus
    let directory: TemporaryDirectory
    let history: VersionHistory
    /// The corpus's `.cdm` for the 1.0 → 1.1 step (never edited in place).
    let compiledMapping: URL

    init() throws {
        corpus = try Corpus.required()
        directory = try TemporaryDirectory()
        history = try ModelBundle(
            contentsOf: CompiledMappingCorpus.coreDataPlus.makeBundle(in: directory.url, corpus: corpus)
        ).history
        compiledMapping = corpus.url(CompiledMappingCorpus.coreDataPlus.pairs[0].compiled)
    }

    func editableArchive() throws -> EditableArchive {
        try EditableArchive(compiledMapping)
    }
}

/// A corpus `.cdm` decoded into its objects, to edit and write back.
struct EditableArchive {
    var plist: [String: BinaryPropertyList.Value]
    var objects: [BinaryPropertyList.Value]

    init(_ url: URL) throws {
        try self.init(data: Data(contentsOf: url))
    }

    init(data: Data) throws {
        guard case .dictionary(let plist) = try BinaryPropertyList.decode(data),
            case .array(let objects)? = plist["$objects"]
        else { throw CocoaError(.fileReadCorruptFile) }
        self.plist = plist
        self.objects = objects
    }

    func fields(_ index: Int) -> [String: BinaryPropertyList.Value] {
        guard case .dictionary(let fields) = objects[index] else { return [:] }
        return fields
    }

    func uid(_ index: Int, _ key: String) -> Int {
        guard case .uid(let uid)? = fields(index)[key] else { return 0 }
        return uid
    }

    func elements(_ index: Int) -> [Int] {
        guard case .array(let elements)? = fields(index)["NS.objects"] else { return [] }
        return elements.compactMap { if case .uid(let uid) = $0 { uid } else { nil } }
    }

    /// The `NSEntityMapping` object with this `NSMappingName`.
    func entityMapping(named name: String) -> Int {
        objects.indices.first { index in
            guard case .uid(let nameUID)? = fields(index)["NSMappingName"] else { return false }
            return objects[nameUID] == .string(name)
        } ?? 0
    }

    /// The constant expression of argument `position` of the mapping's default fetch
    /// (0: the entity name, 1: the predicate string).
    func fetchArgument(ofEntityMapping name: String, at position: Int) -> Int {
        let fetch = uid(entityMapping(named: name), "NSSourceExpression")
        return elements(uid(uid(fetch, "NSFRExpression"), "NSArguments"))[position]
    }

    mutating func append(_ value: BinaryPropertyList.Value) -> Int {
        objects.append(value)
        return objects.count - 1
    }

    mutating func set(_ index: Int, _ key: String, to value: BinaryPropertyList.Value) {
        var fields = fields(index)
        fields[key] = value
        objects[index] = .dictionary(fields)
    }

    mutating func setClassName(ofRoot name: String) {
        guard case .dictionary(let top)? = plist["$top"], case .uid(let root)? = top["root"] else { return }
        let classInfo = append(.dictionary(["$classname": .string(name), "$classes": .array([.string(name)])]))
        set(root, "$class", to: .uid(classInfo))
    }

    func write(to url: URL) throws -> URL {
        var plist = plist
        plist["$objects"] = .array(objects)
        try BinaryPropertyList.encode(.dictionary(plist)).write(to: url)
        return url
    }
}

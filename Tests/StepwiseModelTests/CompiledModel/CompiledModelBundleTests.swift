import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// ``ModelBundle`` and ``ModelBundleListing`` read a compiled `.momd` folder, or a single `.mom`,
/// as they read a `.xcdatamodeld`.
@Suite("Compiled model folders", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CompiledModelBundleTests {
    /// A writable copy of a corpus folder (corpus files are read-only).
    static func copy(_ relativePath: String, to directory: TemporaryDirectory, as name: String? = nil) throws -> URL {
        let source = try Corpus.required().url(relativePath)
        let destination = directory.path(name ?? source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: destination)
        for file in try FileManager.default.contentsOfDirectory(atPath: destination.path) {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: destination.appendingPathComponent(file).path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: destination.path)
        return destination
    }

    static let sampleModel3 = CompiledCorpusModel.all[1]

    @Test(
        "A compiled folder has its source bundle's versions, order and current version",
        arguments: CompiledCorpusModel.all)
    func compiledFolderMatchesItsSource(_ pair: CompiledCorpusModel) throws {
        let corpus = try Corpus.required()
        let source = try ModelBundle(contentsOf: corpus.url(pair.sourcePath))
        let compiled = try ModelBundle(contentsOf: corpus.url(pair.compiledPath))
        #expect(compiled.history.names == source.history.names)
        #expect(compiled.current.name == source.current.name)
        #expect(compiled.history.versions == source.history.versions.map(CompiledModelCorpusTests.comparable))
        let listing = try ModelBundleListing(contentsOf: corpus.url(pair.compiledPath))
        #expect(listing.names == source.history.names)
        #expect(listing.currentName == source.current.name)
        #expect(
            try ModelBundleListing.declaredCurrentName(inBundleAt: listing.url)
                == VersionInfo(inFolder: listing.url).currentName)
    }

    @Test("Each version's hashes equal its VersionInfo.plist's", arguments: CompiledCorpusModel.all)
    func hashesEqualVersionInfo(_ pair: CompiledCorpusModel) throws {
        let folder = try Corpus.required().url(pair.compiledPath)
        let info = try VersionInfo(inFolder: folder)
        let bundle = try ModelBundle(contentsOf: folder)
        #expect(Set(info.hashes.keys) == Set(bundle.history.names))
        for version in bundle.history.versions {
            #expect(VersionHasher.entityHashes(of: version) == info.hashes[version.name], "\(version.name)")
        }
    }

    @Test(
        "Every .mom of every compiled folder in the corpus, the shipped apps' too, reads to its VersionInfo.plist's hashes"
    )
    func everyCorpusMomHasItsVersionInfoHashes() throws {
        let corpus = try Corpus.required()
        let folders = corpus.versionInfoFolders()
        // The folders outside `compiled/` (DuckDuckGo's app, with a framework's models) have no
        // source beside them, so only their `VersionInfo.plist` says what they should read to.
        #expect(Set(CompiledCorpusModel.all.map(\.compiledPath)).isSubset(of: folders))
        #expect(folders.count(where: { !$0.hasPrefix("compiled/") }) >= 4)
        var checked = 0
        for folder in folders {
            let url = corpus.url(folder)
            let info = try VersionInfo(inFolder: url)
            let versions = try CompiledModelCorpusTests.compiledVersions(url)
            #expect(Set(versions.map(\.name)) == Set(info.hashes.keys), "\(folder)")
            for version in versions {
                let model = try CompiledModel.read(
                    archive: Data(contentsOf: version.url), name: version.name, origin: version.url.path)
                let recorded = try #require(info.hashes[version.name], "\(folder)/\(version.name)")
                #expect(!recorded.isEmpty)
                #expect(VersionHasher.entityHashes(of: model) == recorded, "\(folder)/\(version.name)")
                checked += 1
            }
        }
        #expect(checked >= 17)
    }

    @Test("SampleModel3.momd: three versions in name order, the first one current as its VersionInfo.plist says")
    func sampleModel3OrderAndCurrent() throws {
        let bundle = try ModelBundle(contentsOf: Corpus.required().url(Self.sampleModel3.compiledPath))
        #expect(bundle.history.names == ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
        #expect(bundle.current.name == "SampleModel3")
        #expect(bundle.current.versionIdentifiers == ["1"])
    }

    @Test("A single .mom is one version, named after the file")
    func singleMom() throws {
        let url = try Corpus.required().url(Self.sampleModel3.compiledPath).appendingPathComponent(
            "SampleModel3_v2.mom")
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.history.names == ["SampleModel3_v2"])
        #expect(bundle.current.entityNames == ["Pet", "User"])
        let listing = try ModelBundleListing(contentsOf: url)
        #expect(listing.isSingleVersion)
        #expect(try listing.readVersion(named: "SampleModel3_v2") == bundle.current)
        #expect(try ModelBundleListing.readVersion(named: "SampleModel3_v2", inBundleAt: url) == bundle.current)
    }

    @Test("A .omo file, and anything else that is not a .mom, is not a version")
    func omoIsIgnored() throws {
        let folder = try Corpus.required().url(Self.sampleModel3.compiledPath)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("SampleModel3.omo").path))
        #expect(try ModelBundleListing(contentsOf: folder).names.count == 3)
    }

    // MARK: - Errors

    @Test("A truncated or garbage .mom is an error naming the file")
    func damagedMom() throws {
        let directory = try TemporaryDirectory()
        let folder = try Self.copy(Self.sampleModel3.compiledPath, to: directory)
        let file = folder.appendingPathComponent("SampleModel3_v2.mom")
        let bytes = try Data(contentsOf: file)
        for damaged in [bytes.prefix(bytes.count / 2), Data("garbage".utf8)] {
            try damaged.write(to: file)
            let error = #expect(throws: ModelError.self) { try ModelBundle(contentsOf: folder) }
            #expect(error?.path == file.path)
            #expect(error?.caseName == "unreadableCompiledModel")
            #expect(error?.description.contains("is not a readable compiled Core Data model") == true)
        }
    }

    @Test("A VersionInfo.plist naming a version with no .mom is an error naming the version")
    func versionInfoNamesAMissingVersion() throws {
        let directory = try TemporaryDirectory()
        let folder = try Self.copy(Self.sampleModel3.compiledPath, to: directory)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("SampleModel3_v3.mom"))
        let expected = ModelError(
            path: folder.path,
            kind: .versionInfoMismatch(
                "its VersionInfo.plist names version 'SampleModel3_v3', which has no SampleModel3_v3.mom"))
        #expect(throws: expected) { try ModelBundle(contentsOf: folder) }
        #expect(throws: expected) { try ModelBundleListing(contentsOf: folder) }
    }

    @Test("A .mom whose hashes differ from VersionInfo.plist's is an error naming the version and the entity")
    func hashMismatch() throws {
        let directory = try TemporaryDirectory()
        let folder = try Self.copy(Self.sampleModel3.compiledPath, to: directory)
        var info = try VersionInfo(inFolder: folder)
        info.hashes["SampleModel3_v2"]?["Pet"] = Data(repeating: 7, count: 32)
        try Self.write(info, to: folder)
        let file = folder.appendingPathComponent("SampleModel3_v2.mom")
        let expected = ModelError(
            path: file.path, kind: .versionHashMismatch(version: "SampleModel3_v2", entity: "Pet"))
        #expect(throws: expected) { try ModelBundle(contentsOf: folder) }
        #expect(throws: expected) { try ModelBundleListing(contentsOf: folder).readVersion(named: "SampleModel3_v2") }
    }

    @Test("A current version with no .mom, and an unreadable VersionInfo.plist, are errors naming the folder")
    func badVersionInfo() throws {
        let directory = try TemporaryDirectory()
        let folder = try Self.copy(Self.sampleModel3.compiledPath, to: directory)
        var info = try VersionInfo(inFolder: folder)
        info.currentName = "SampleModel3_v9"
        try Self.write(info, to: folder)
        #expect(
            throws: ModelError(
                path: folder.path,
                kind: .versionInfoMismatch(
                    "its VersionInfo.plist names the current version 'SampleModel3_v9', which has no .mom file"))
        ) { try ModelBundle(contentsOf: folder) }

        try Data("bplist00 and then nothing".utf8).write(to: folder.appendingPathComponent("VersionInfo.plist"))
        let error = #expect(throws: ModelError.self) { try ModelBundle(contentsOf: folder) }
        #expect(error?.caseName == "versionInfoMismatch")
        #expect(error?.path == folder.path)
    }

    @Test("An XML VersionInfo.plist reads as the binary one does")
    func xmlVersionInfo() throws {
        let folder = try Corpus.required().url(Self.sampleModel3.compiledPath)
        let info = try VersionInfo(inFolder: folder)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        xml +=
            "<plist version=\"1.0\"><dict><key>NSManagedObjectModel_CurrentVersionName</key><string>SampleModel3</string>"
        xml += "<key>NSManagedObjectModel_VersionHashes</key><dict>"
        for (version, entities) in info.hashes.sorted(by: { $0.key < $1.key }) {
            xml += "<key>\(version)</key><dict>"
            for (entity, hash) in entities.sorted(by: { $0.key < $1.key }) {
                xml += "<key>\(entity)</key><data>\(hash.base64EncodedString())</data>"
            }
            xml += "</dict>"
        }
        xml += "</dict><key>NSManagedObjectModel_VersionChecksums</key><dict>"
        for (version, checksum) in info.checksums.sorted(by: { $0.key < $1.key }) {
            xml += "<key>\(version)</key><string>\(checksum)</string>"
        }
        xml += "</dict></dict></plist>"
        #expect(try VersionInfo(Data(xml.utf8), folder: folder) == info)
    }

    @Test("A path that is no model is refused as before, naming what is accepted")
    func notAModel() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("Model.bundle")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let error = #expect(throws: ModelError.self) { try ModelBundle(contentsOf: folder) }
        #expect(error?.kind == .notAModel)
        #expect(error?.description.contains(".momd") == true)
    }

    static func write(_ info: VersionInfo, to folder: URL) throws {
        var root: [String: BinaryPropertyList.Value] = [
            "NSManagedObjectModel_VersionHashes": .dictionary(
                info.hashes.mapValues { .dictionary($0.mapValues { .data($0) }) })
        ]
        if let current = info.currentName { root["NSManagedObjectModel_CurrentVersionName"] = .string(current) }
        try BinaryPropertyList.encode(.dictionary(root)).write(to: folder.appendingPathComponent("VersionInfo.plist"))
    }
}

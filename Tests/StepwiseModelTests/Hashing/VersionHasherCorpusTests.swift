import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// Every entity hash the corpus holds, reproduced from the model source: the hashes Xcode wrote
/// in each compiled model's `VersionInfo.plist`, and the hashes Core Data wrote in the metadata of
/// every store whose version the corpus has (Wire's 40, the first three projects', `compiled/`).
/// Plus the two entities of issue 21 whose hashes another app's real store gives.
@Suite("VersionHasher against every hash of the corpus")
struct VersionHasherCorpusTests {
    @Test("A Binary attribute with external storage adds a byte: LargeDataBlob")
    func externalStorageIsHashed() throws {
        let model = ObjectModel("Blobs") {
            Entity("LargeDataBlob") {
                Attribute("data", .binary, isOptional: false).externalStorage()
                Relationship("batchChild", to: "BatchChild", inverse: "largeDataBlob")
            }
            Entity("BatchChild") { Relationship("largeDataBlob", to: "LargeDataBlob", inverse: "batchChild") }
        }
        #expect(
            model.entityVersionHashes["LargeDataBlob"]?.base64EncodedString()
                == "goD5D2Id1KSjgo50zcXn5J9tzP39yHPYn5tENHnXZF0=")
        // The flag is hashed: without it the hash differs.
        var plain = model
        plain.update("LargeDataBlob") { $0.attributes[0].allowsExternalBinaryDataStorage = false }
        #expect(plain.entityVersionHashes["LargeDataBlob"] != model.entityVersionHashes["LargeDataBlob"])
    }

    @Test("Two uniqueness constraints are sorted and concatenated: CachedCarbObject")
    func twoConstraintsAreConcatenated() throws {
        let xml = """
            <model><entity name="CachedCarbObject" representedClassName=".CachedCarbObject" syncable="YES">
            <attribute name="absorptionTime" optional="YES" attributeType="Double" usesScalarValueType="NO"/>
            <attribute name="createdByCurrentApp" attributeType="Boolean" usesScalarValueType="YES"/>
            <attribute name="externalID" optional="YES" attributeType="String"/>
            <attribute name="foodType" optional="YES" attributeType="String"/>
            <attribute name="grams" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="startDate" attributeType="Date" usesScalarValueType="NO"/>
            <attribute name="syncIdentifier" optional="YES" attributeType="String"/>
            <attribute name="syncVersion" attributeType="Integer 32" defaultValueString="1" usesScalarValueType="YES"/>
            <attribute name="uploadState" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="NO"/>
            <attribute name="uuid" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
            <uniquenessConstraints>
                <uniquenessConstraint><constraint value="uuid"/></uniquenessConstraint>
                <uniquenessConstraint><constraint value="syncIdentifier"/></uniquenessConstraint>
            </uniquenessConstraints>
            </entity></model>
            """
        let model = try XcodeModelReader.parse(Data(xml.utf8), versionName: "Carbs", path: "Carbs/contents")
        #expect(
            model.entityVersionHashes["CachedCarbObject"]?.base64EncodedString()
                == "rjGVWsfJwz2ilnz10roUCPZm8lh/LdXC5sQDuPMcJBA=")
    }

    @Test("Preserve-after-deletion adds a byte; flags Core Data ignores change nothing")
    func hashedAndIgnoredFlags() throws {
        let base = ObjectModel("Flags") { Entity("Item") { Attribute("name", .string) } }
        func hash(_ change: (inout Attribute) -> Void) -> Data? {
            var model = base
            model.update("Item") { change(&$0.attributes[0]) }
            return model.entityVersionHashes["Item"]
        }
        let plain = base.entityVersionHashes["Item"]
        // Hashed (Screen Time's and Photos' tombstone attributes).
        #expect(hash { $0.preservesValueInHistoryOnDeletion = true } != plain)
        #expect(hash { $0.isOptional = false } != plain)
        #expect(hash { $0.versionHashModifier = "2" } != plain)
        // Not hashed.
        #expect(hash { $0.isIndexed = true } == plain)
        #expect(hash { $0.defaultValue = "x" } == plain)
        #expect(hash { $0.renamingIdentifier = "title" } == plain)
        #expect(hash { $0.userInfo = ["k": "v"] } == plain)
        #expect(hash { $0.usesScalarValueType = true } == plain)
        #expect(hash { $0.minValue = "1" } == plain)
        // A transient attribute of any type, Undefined included, takes no part.
        var withTransient = base
        withTransient.update("Item") { $0.attributes.append(Attribute("draft", .undefined).transient()) }
        #expect(withTransient.entityVersionHashes["Item"] == plain)
    }

    @Test(
        "Every compiled model's VersionInfo.plist hashes are the source's",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func compiledModelHashesAreReproduced() throws {
        let corpus = try Corpus.required()
        var compared = 0
        for plist in try Self.files(named: "VersionInfo.plist", under: corpus.url("compiled")) {
            let info = try #require(
                try PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil)
                    as? [String: Any])
            let versions = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
            // The source is the project's `.xcdatamodeld` with the compiled folder's name
            // (`CoreDataPlus_1.1.momd_precompiled` → `CoreDataPlus_1.1.xcdatamodeld`).
            let compiled = plist.deletingLastPathComponent()
            let modelName = compiled.lastPathComponent
                .replacingOccurrences(of: ".momd_precompiled", with: "").replacingOccurrences(of: ".momd", with: "")
            // The nearest one: XcodeServer has three `XcodeServer.xcdatamodeld`, one per module.
            let project = Self.project(of: compiled)
            var folder = compiled.deletingLastPathComponent()
            var sources: [URL] = []
            while sources.isEmpty, folder.path.hasPrefix(project.path) {
                sources = try Self.files(withExtension: "xcdatamodeld", under: folder)
                    .filter { $0.deletingPathExtension().lastPathComponent == modelName }
                folder = folder.deletingLastPathComponent()
            }
            for (versionName, hashes) in versions {
                let source = try #require(
                    sources.lazy.map { $0.appendingPathComponent(versionName + ".xcdatamodel") }
                        .first { FileManager.default.fileExists(atPath: $0.path) },
                    "no source for \(versionName) of \(plist.path)")
                let model = try XcodeModelReader.readVersion(at: source)
                #expect(model.entityVersionHashes == hashes, "\(source.path)")
                compared += hashes.count
            }
        }
        // 3 + 3 × 23 + 2 + 2 + 5 entity hashes in the four projects.
        #expect(compared >= 81)
    }

    @Test(
        "Every store's metadata hashes are its version's, for every store whose version the corpus has",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func storeMetadataHashesAreReproduced() throws {
        let corpus = try Corpus.required()
        var compared = 0
        for store in try corpus.realStores() {
            // The version its metadata names, found by identifier too, so that a wrong hash fails
            // here instead of leaving the store without a model.
            let identifiers = store.metadata.versionIdentifiers.filter { !$0.isEmpty }
            let named = try store.projectBundles.lazy.filter { !corpus.isListedAsRefused($0) }.compactMap { bundle in
                try ModelBundle(contentsOf: bundle).history.versions.last {
                    !identifiers.isEmpty && $0.versionIdentifiers == identifiers
                }
            }.first
            guard let version = store.version ?? named else { continue }
            // 2C has the metadata of the next version on purpose; its hashes are that version's.
            let expected =
                store.path == CorpusStore.corrupt.path
                ? try corpus.hashModel(of: CorpusStore.corrupt).entityVersionHashes : version.entityVersionHashes
            #expect(store.metadata.versionHashes == expected, "\(store.path)")
            compared += store.metadata.versionHashes.count
        }
        print("VersionHasherCorpusTests: \(compared) store hashes reproduced; " + RefusedCorpusInput.report)
        // Wire's 40 identified stores alone hold 766 entity hashes.
        #expect(compared >= 766 + 102)
    }

    /// The corpus project folder holding `url`: its nearest ancestor with a LICENSE file.
    private static func project(of url: URL) -> URL {
        var folder = url.deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if names.contains(where: { $0.uppercased().hasPrefix("LICENSE") }) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return url.deletingLastPathComponent()
    }

    private static func files(named name: String, under folder: URL) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var found: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.lastPathComponent == name { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    private static func files(withExtension pathExtension: String, under folder: URL) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var found: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == pathExtension {
                found.append(url)
                enumerator?.skipDescendants()
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}

import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// External binary storage through whole upgrades (``ExternalDataCleanup``): references copied
/// verbatim keep their files, files of dropped values go only after the swap, conversions see
/// and write the real bytes, and a rollback brings the old store's files back.
@Suite("upgradeIfNeeded: external binary storage")
struct ExternalDataUpgradeTests {
    @Test("Files of a dropped attribute are removed after the swap, kept in the backup; kept references stay verbatim")
    func droppedValuesFilesGoAfterTheSwap() throws {
        let fixture = try ExternalDataFixture()
        let recorder = UpgradeRecorder()
        let report = try fixture.upgrader(fileSystem: recorder.fileSystem()).upgradeIfNeededSynchronously(
            storeAt: fixture.store)
        #expect(report.to == "Photos 2")
        #expect(try fixture.fileNames() == [ExternalDataFixture.fileA])
        // Row 1's image still refers to file A, byte for byte; row 2's stays inline.
        #expect(
            try fixture.column("ZIMAGE")
                == [
                    ExternalBinaryValue.externalColumnValue(fileName: ExternalDataFixture.fileA),
                    ExternalBinaryValue.inlineColumnValue(ExternalDataFixture.inlineImage), nil,
                ])
        #expect(try fixture.references().dangling.isEmpty)
        // The old generation's files travel with the backup.
        let kept = ExternalDataFolder(url: ExternalDataCleanup.keptFolder(in: fixture.files.backupDirectory))
        #expect(
            try kept.fileNames()
                == [ExternalDataFixture.fileA, ExternalDataFixture.fileB, ExternalDataFixture.fileC].sorted())
        #expect(
            try Data(contentsOf: kept.file(named: ExternalDataFixture.fileB))
                == ExternalDataFixture.bytes[
                    ExternalDataFixture.fileB])
        // Removal comes after the swap moved the new store in, and after the backup's links.
        let sites = recorder.sites
        let swappedIn = try #require(sites.firstIndex(of: "swap.in.rename"))
        let firstLink = try #require(sites.firstIndex(of: "external.keep.link"))
        let firstRemoval = try #require(sites.firstIndex(of: "external.remove-unreferenced"))
        #expect(swappedIn < firstLink && firstLink < firstRemoval)
        #expect(sites.filter { $0 == "external.remove-unreferenced" }.count == 2)
    }

    @Test("Without a backup the unreferenced files are deleted outright")
    func noBackupDeletes() throws {
        let fixture = try ExternalDataFixture()
        _ = try fixture.upgrader(keepBackup: false).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(try fixture.fileNames() == [ExternalDataFixture.fileA])
        #expect(!FileManager.default.fileExists(atPath: fixture.files.backupDirectory.path))
    }

    @Test("Rollback puts the old store's files back, even one the app deleted since the upgrade")
    func rollbackRestoresFiles() throws {
        let fixture = try ExternalDataFixture()
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        // The app deleted row 1's image, and Core Data its file.
        try FileManager.default.removeItem(at: fixture.folder.file(named: ExternalDataFixture.fileA))
        let restored = try Upgrader.rollback(storeAt: fixture.store, options: UpgradeOptions(lockTimeout: .seconds(30)))
        #expect(restored == "Photos")
        #expect(
            try fixture.fileNames()
                == [ExternalDataFixture.fileA, ExternalDataFixture.fileB, ExternalDataFixture.fileC].sorted())
        let references = try fixture.references()
        #expect(references.all.count == 3)
        #expect(references.dangling.isEmpty)
        for (name, bytes) in ExternalDataFixture.bytes {
            #expect(try Data(contentsOf: fixture.folder.file(named: name)) == bytes)
        }
    }

    @Test("An attribute leaving external storage gets its real bytes, read from the files, which then go")
    func conversionOutOfExternalStorage() throws {
        let fixture = try ExternalDataFixture()
        _ = try fixture.upgrader(to: "Photos 3", keepBackup: false).upgradeIfNeededSynchronously(
            storeAt: fixture.store)
        #expect(
            try fixture.column("ZIMAGE")
                == [ExternalDataFixture.bytes[ExternalDataFixture.fileA], ExternalDataFixture.inlineImage, nil])
        #expect(try fixture.fileNames().isEmpty)
    }

    @Test("An attribute gaining external storage is written inline with the marker")
    func conversionIntoExternalStorage() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-external")
        let source = directory.path("source.sqlite")
        try StoreCreator.createStore(at: source, model: ExternalDataFixture.v3)
        let raw = Data([0x02, 0x01, 0x00, 0x7F])
        let queue = try DatabaseQueue(path: source.path)
        try queue.write { db in
            _ = try ObjectContext(db, layout: StoreLayout(model: ExternalDataFixture.v3))
                .insert("Photo", ["name": "raw", "image": raw])
        }
        try queue.close()
        let destination = directory.path("destination.sqlite")
        _ = try MigrationStep(from: ExternalDataFixture.v3, to: ExternalDataFixture.v2).run(
            source: source, destination: destination)
        let stored = try DatabaseQueue(path: destination.path).read { db in
            try Data.fetchOne(db, sql: #"SELECT "ZIMAGE" FROM "ZPHOTO""#)
        }
        #expect(stored == ExternalBinaryValue.inlineColumnValue(raw))
    }

    /// Gives the byte count and first byte of the value it is passed, as a policy function.
    final class MeasuringPolicy: EntityMigrationPolicy {
        override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
            -> MappingValue
        {
            guard selector == "describe:" else {
                return try super.function(named: selector, arguments: arguments, manager: manager)
            }
            guard case .data(let bytes)? = arguments.first else { return .null }
            return .string("\(bytes.count) bytes starting \(bytes.first.map { String($0, radix: 16) } ?? "-")")
        }
    }

    @Test("A policy function and an expression see the real bytes of an external value, inline or in a file")
    func policySeesRealBytes() throws {
        let fixture = try ExternalDataFixture()
        var mapping = try MappingInference.inferMapping(from: ExternalDataFixture.v1, to: ExternalDataFixture.v2)
        mapping.isInferred = false
        let index = try #require(mapping.entityMappings.firstIndex { $0.destinationEntity == "Photo" })
        mapping.entityMappings[index].policyName = "Measuring"
        mapping.entityMappings[index].attributeMappings.removeAll { $0.name == "caption" }
        mapping.entityMappings[index].attributeMappings.append(
            PropertyMapping(
                "caption",
                .function(
                    target: .keyPath(root: .entityPolicy, path: []), selector: "describe:",
                    arguments: [.source("thumbnail")])))
        var policies = PolicyRegistry()
        policies.register("Measuring") { MeasuringPolicy() }
        let destination = fixture.directory.path("step.sqlite")
        _ = try MigrationStep(
            from: ExternalDataFixture.v1, to: ExternalDataFixture.v2, mappingModels: [mapping], policies: policies
        ).run(source: fixture.store, destination: destination)
        let (captions, images) = try DatabaseQueue(path: destination.path).read { db in
            (
                try String?.fetchAll(db, sql: #"SELECT "ZCAPTION" FROM "ZPHOTO" ORDER BY "Z_PK""#),
                try Data?.fetchAll(db, sql: #"SELECT "ZIMAGE" FROM "ZPHOTO" ORDER BY "Z_PK""#)
            )
        }
        #expect(captions == ["1500 bytes starting b2", "700 bytes starting c3", nil])
        // Row by row, the image is read and written again: inline, with its marker.
        #expect(
            images
                == [
                    ExternalBinaryValue.inlineColumnValue(
                        ExternalDataFixture.bytes[ExternalDataFixture.fileA] ?? Data()),
                    ExternalBinaryValue.inlineColumnValue(ExternalDataFixture.inlineImage), nil,
                ])
    }

    @Test("A reference to a missing file stops a step that must read it, naming the file, entity, attribute and row")
    func missingFileIsNamed() throws {
        let fixture = try ExternalDataFixture()
        try FileManager.default.removeItem(at: fixture.folder.file(named: ExternalDataFixture.fileA))
        let error = #expect(throws: UpgradeError.self) {
            try fixture.upgrader(to: "Photos 3").upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        let text = error?.description ?? ""
        #expect(text.contains("Photo.image"), "\(text)")
        #expect(text.contains("Z_PK 1"), "\(text)")
        #expect(text.contains(ExternalDataFixture.fileA), "\(text)")
        #expect(try fixture.fileNames().count == 2)
    }
}

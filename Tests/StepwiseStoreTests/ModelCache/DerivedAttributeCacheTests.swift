import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The derived attributes of the Photos stores' `Z_MODELCACHE` (the only real stores that have
/// any): read with their expressions, valid, and hashed as the metadata records.
@Suite("Derived attributes in Photos' model caches")
struct DerivedAttributeCacheTests {
    /// Each Photos version, with its derived attributes (entity.attribute → expression) and
    /// the entities that have one.
    static let photos: [(String, [String: String])] = [
        ("13.0.1", ["Asset.derivedCameraCaptureDevice": "additionalAttributes.cameraCaptureDevice"]),
        (
            "15.7.1",
            [
                "Asset.derivedCameraCaptureDevice": "additionalAttributes.cameraCaptureDevice",
                "GraphNode.primaryLabelCode": "primaryLabel.code",
            ]
        ),
    ]

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: photos)
    func photosDerivedAttributesAreReadAndHashedAsTheMetadataSays(version: String, derived: [String: String])
        throws
    {
        let directory = try TemporaryDirectory()
        let copy = try Corpus.required().copyStore(
            "real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-\(version).photoslibrary/database/Photos.sqlite",
            to: directory.url)
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        let (model, metadata) = try queue.read { db in
            (try ModelCache.model(in: db, path: copy.path), try StoreMetadata.read(from: db, path: copy.path))
        }
        let cached = try #require(model)
        var found: [String: String] = [:]
        for entity in cached.entities {
            for attribute in entity.attributes where attribute.isDerived {
                found["\(entity.name).\(attribute.name)"] = attribute.derivationExpression
                let path = try #require(attribute.derivation, "\(entity.name).\(attribute.name)")
                #expect(path.kind == .keyPath(path.expression.split(separator: ".").map(String.init)))
            }
        }
        #expect(found == derived)
        // Every derivation resolves: a to-one, then an attribute of its destination.
        #expect(
            cached.problems().filter {
                if case .unresolvedDerivation = $0 { return true }
                if case .unsupportedDerivation = $0 { return true }
                return false
            } == [])
        let hashes = cached.entityVersionHashes
        for name in Set(derived.keys.map { String($0.split(separator: ".")[0]) }) {
            #expect(hashes[name] == metadata.versionHashes[name], "\(version) \(name)")
        }
        #expect(hashes == metadata.versionHashes)
    }
}

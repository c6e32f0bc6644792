import Foundation
import FuzzDriver
import StepwiseMapping
import StepwiseModel

/// libFuzzer's entry point: one input is the bytes of a mapping file (JSON).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    MappingFuzzTarget.test(FuzzDriver.data(bytes, count))
    return 0
}

/// Fuzzes the mapping file reader, `MappingFile.decode(_:source:destination:)`, against the
/// sample models in `Versions/` (Recipes, University, Events).
///
/// The pair of versions is the one the file's `source` and `destination` name, so a mutated
/// sample mapping reaches the entity, property and expression checks; a file that names no
/// known pair is decoded against `Recipes` → `Recipes 2` and fails the name check. Any input
/// may be rejected with a `MappingError`; a crash, a hang, a leak or memory misuse is a finding.
@main
enum MappingFuzzTarget {
    static func main() {
        // Read the models before libFuzzer starts, so a missing folder is reported once.
        guard !versions.isEmpty else {
            FileHandle.standardError.write(Data("fuzz-mapping: no model versions in \(versionsFolder.path)\n".utf8))
            exit(2)
        }
        FuzzDriver.main(target: "mapping", testOneInput: testOneInput)
    }

    static func test(_ data: Data) {
        let names = try? JSONDecoder().decode(Names.self, from: data)
        let source = names.flatMap { versions[$0.source] } ?? fallback.source
        let destination = names.flatMap { versions[$0.destination] } ?? fallback.destination
        _ = try? MappingFile.decode(data, source: source, destination: destination)
    }

    /// The checkout's `Versions/`: this file is `Fuzz/Mapping/MappingFuzzTarget.swift`.
    static let versionsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Versions")

    /// Every version of every sample bundle, by name; empty when `Versions/` can't be read.
    static let versions: [String: ObjectModel] = {
        let bundles = (try? FileManager.default.contentsOfDirectory(atPath: versionsFolder.path)) ?? []
        var versions: [String: ObjectModel] = [:]
        for name in bundles.sorted() where name.hasSuffix(".xcdatamodeld") {
            guard let bundle = try? ModelBundle(contentsOf: versionsFolder.appendingPathComponent(name)) else {
                continue
            }
            for model in bundle.history.versions { versions[model.name] = model }
        }
        return versions
    }()

    /// The pair for a file that names none: the first two Recipes versions.
    static let fallback: (source: ObjectModel, destination: ObjectModel) = {
        let empty = ObjectModel("Recipes", entities: [])
        return (versions["Recipes"] ?? empty, versions["Recipes 2"] ?? empty)
    }()

    /// The two names a mapping file starts with.
    private struct Names: Decodable {
        var source: String
        var destination: String
    }
}

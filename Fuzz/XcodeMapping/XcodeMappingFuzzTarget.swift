import Foundation
import FuzzDriver
import StepwiseMapping
import StepwiseModel

/// libFuzzer's entry point: one input is the bytes of an `xcmapping.xml`.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    XcodeMappingFuzzTarget.test(FuzzDriver.data(bytes, count))
    return 0
}

/// Fuzzes the `.xcmappingmodel` reader: `XcodeMappingDocument` (the XML store, following
/// references from the mapping model object), then binding to versions, which decodes every
/// archived value expression and user info, and the embedded model copies when the paths name
/// no version. The history is the sample models in `Versions/` (Recipes), so the corpus's seeds
/// fall back through every binding. Any input may be rejected with a `MappingError`; a crash,
/// a hang, a leak or memory misuse is a finding.
@main
enum XcodeMappingFuzzTarget {
    static func main() {
        guard !history.versions.isEmpty else {
            FileHandle.standardError.write(Data("fuzz-xcmapping: no model versions in \(bundle.path)\n".utf8))
            exit(2)
        }
        FuzzDriver.main(target: "xcmapping", testOneInput: testOneInput)
    }

    static func test(_ data: Data) {
        guard let document = try? XcodeMappingDocument(data, path: "fuzz.xcmappingmodel") else { return }
        _ = try? XcodeMappingModel.bind(document, history: history)
    }

    /// The checkout's `Versions/Recipes.xcdatamodeld`: this file is `Fuzz/XcodeMapping/XcodeMappingFuzzTarget.swift`.
    static let bundle = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Versions/Recipes.xcdatamodeld")

    static let history: VersionHistory = (try? ModelBundle(contentsOf: bundle).history) ?? VersionHistory([])
}

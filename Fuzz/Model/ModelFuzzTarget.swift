import Foundation
import FuzzDriver
import StepwiseModel

/// libFuzzer's entry point: one input is the bytes of a `.xcdatamodel`'s `contents` file.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    ModelFuzzTarget.test(FuzzDriver.data(bytes, count))
    return 0
}

/// Fuzzes the `.xcdatamodel` reader the way `ModelBundle` uses it: parse the XML, validate the
/// model, and compute Core Data's entity version hashes of a valid one.
///
/// Any input may be rejected with a typed error (`ModelError`, `ModelError`);
/// a crash, a hang, a leak or memory misuse is a finding.
@main
enum ModelFuzzTarget {
    static func main() {
        FuzzDriver.main(target: "model", testOneInput: testOneInput)
    }

    static func test(_ data: Data) {
        let model: ObjectModel
        do {
            model = try XcodeModelReader.parse(data, versionName: "Fuzz", path: "contents")
        } catch {
            return
        }
        guard (try? model.validate(file: "contents")) != nil else { return }
        _ = model.entityVersionHashes
    }
}

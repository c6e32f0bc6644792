import Foundation
import FuzzDriver
import StepwiseStore

/// libFuzzer's entry point: one input is the bytes of a `Z_MODELCACHE.Z_CONTENT` value.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    ModelCacheFuzzTarget.test(FuzzDriver.data(bytes, count))
    return 0
}

/// Fuzzes the model-cache reader: raw deflate inflated through zlib into a bounded buffer, then
/// the model archive decoded. Any input may be rejected with an error; a crash, a hang, a leak,
/// memory misuse or an output past the limit is a finding.
@main
enum ModelCacheFuzzTarget {
    static func main() {
        FuzzDriver.main(target: "modelcache", testOneInput: testOneInput)
    }

    /// 4 MB: ten times Photos' model, small enough that a bomb is refused quickly.
    static let limit = 4 * 1024 * 1024

    static func test(_ data: Data) {
        guard let archive = try? ModelCache.archive(fromContent: data, path: "fuzz.sqlite", limit: limit) else {
            return
        }
        if archive.count > limit { fatalError("inflated \(archive.count) bytes past the \(limit)-byte limit") }
        _ = try? ModelCache.model(fromArchive: archive, path: "fuzz.sqlite")
    }
}

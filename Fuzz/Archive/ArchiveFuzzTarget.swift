import Foundation
import FuzzDriver
import StepwiseMapping
import StepwiseModel

/// libFuzzer's entry point: one input is the bytes of a keyed archive (a binary property list).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    ArchiveFuzzTarget.test(FuzzDriver.data(bytes, count))
    return 0
}

/// Fuzzes the keyed-archive decoders, through the binary property list reader under them: of
/// mapping models, an archived `NSExpression` (`valueexpressiondata`), an archived user info
/// dictionary (`userinfodata`) and an embedded model copy (`sourcemodeldata`); and a compiled
/// model (a `.mom`, or an inflated model cache) the way `ModelBundle` reads one: decode,
/// validate, and hash a valid model. Any input may be rejected with an error; a crash, a hang,
/// a leak or memory misuse is a finding.
@main
enum ArchiveFuzzTarget {
    static func main() {
        FuzzDriver.main(target: "archive", testOneInput: testOneInput)
    }

    static func test(_ data: Data) {
        _ = try? ArchivedExpression.decode(data)
        _ = try? ArchivedDictionary.strings(data)
        _ = ModelSnapshot.signature(of: data)
        if let model = try? CompiledModel.read(archive: data, name: "Fuzz", origin: "Fuzz.mom"),
            (try? model.validate(file: "Fuzz.mom")) != nil
        {
            _ = model.entityVersionHashes
        }
    }
}

import Foundation
import FuzzDriver
import StepwiseMapping

/// libFuzzer's entry point: one input is the text of an expression or a predicate, as UTF-8
/// (invalid sequences become U+FFFD, as in a JSON string).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    ExpressionFuzzTarget.test(FuzzDriver.data(bytes, count))
    return 0
}

/// Fuzzes the expression and predicate parser: the text is parsed both as an expression and
/// as a predicate, and what parses is written back with `description`.
///
/// Any input may be rejected with a `MappingError`; a crash, a hang, a leak or memory misuse
/// is a finding.
///
/// It also checks the round trip the documentation promises,
/// `parse(description(parse(x))) == parse(x)`, and traps when it breaks: that is how it found
/// keys starting with a digit written back without their `#`. `STEPWISE_FUZZ_ROUND_TRIP=0` in
/// the environment turns the check off, to look for crashes alone.
@main
enum ExpressionFuzzTarget {
    static func main() {
        FuzzDriver.main(target: "expression", testOneInput: testOneInput)
    }

    /// Whether the round-trip oracle is on (the default).
    static let checksRoundTrip = ProcessInfo.processInfo.environment["STEPWISE_FUZZ_ROUND_TRIP"] != "0"

    static func test(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        if let expression = try? ExpressionParser.parseExpression(text) {
            let written = expression.description
            if checksRoundTrip {
                let reread = Result { try ExpressionParser.parseExpression(written) }
                if (try? reread.get()) != expression {
                    roundTripFailed(text, written: written, reread: reread)
                }
            }
        }
        if let predicate = try? ExpressionParser.parsePredicate(text) {
            let written = predicate.description
            if checksRoundTrip {
                let reread = Result { try ExpressionParser.parsePredicate(written) }
                if (try? reread.get()) != predicate {
                    roundTripFailed(text, written: written, reread: reread)
                }
            }
        }
    }

    /// The oracle's deliberate trap: libFuzzer saves the input as a crash.
    private static func roundTripFailed<Value>(
        _ text: String, written: String, reread: Result<Value, any Error>
    ) -> Never {
        fatalError(
            "round trip broken: \(text.debugDescription) is written back as \(written.debugDescription), "
                + "which reads as \(reread)")
    }
}

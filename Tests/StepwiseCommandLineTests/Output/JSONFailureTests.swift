import Foundation
import Testing

@testable import StepwiseCommandLine

/// The `{"error": {...}}` object scripts read: its keys for one error of each type, read from
/// `ReportableError.caseName` and `subjectPath`, and the command-line hints.
@Suite("JSON failures and hints")
struct JSONFailureTests {
    static let store = "/x/Store.sqlite"
    static let cases: [(error: any Error, keys: Set<String>, kind: String)] = [
        (
            ModelError.ambiguousOrder(["A", "B"], reason: "no common stem"),
            ["message", "type", "kind"], "ambiguousOrder"
        ),
        (
            ModelError(path: "/x/Model.xcdatamodel", kind: .legacyBinaryFormat),
            ["message", "type", "kind", "path"], "legacyBinaryFormat"
        ),
        (ModelError(version: "Notes 2", problems: []), ["message", "type", "kind"], "invalidModel"),
        (StoreError(path: store, kind: .notFound), ["message", "type", "kind", "path"], "notFound"),
        (
            FileSystemError(operation: "copy", path: store, reason: "No space left on device", site: "copy.file"),
            ["message", "type", "kind", "path"], "copy"
        ),
        (
            MappingError(.unknownPolicy("TitlePolicy"), entityMapping: "NoteToNote"),
            ["message", "type", "kind", "mapping"], "unknownPolicy"
        ),
        (UpgradeError(path: store, kind: .emptyHistory), ["message", "type", "kind", "path"], "emptyHistory"),
        (
            UpgradeError(.needsUpgrade(target: "Notes 3"), storePath: store),
            ["message", "type", "kind", "path"], "needsUpgrade"
        ),
        (
            UpgradeError(
                .stepFailed(
                    index: 1, count: 2, from: "Notes", to: "Notes 2",
                    underlying: MappingError(.policyFailed("empty"), entity: "Note", sourcePrimaryKey: 3)),
                storePath: store),
            ["message", "type", "kind", "path", "step", "mapping"], "stepFailed"
        ),
        (
            UpgradeError(.storeInUse(processIDs: [42], seconds: 1, bareConnection: false), storePath: store),
            ["message", "type", "kind", "path", "processIDs"], "storeInUse"
        ),
        (
            UpgradeError(.unknownVersion("Notes 9", available: ["Notes"])), ["message", "type", "kind"],
            "unknownVersion"
        ),
    ]

    static func encoded(_ failure: JSONFailure) throws -> [String: Any] {
        let data = try JSONEncoder().encode(failure)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the keys of one error of each type")
    func keysArePinned() throws {
        for (error, keys, kind) in Self.cases {
            let object = try Self.encoded(JSONFailure(error))
            #expect(Set(object.keys) == keys, "\(type(of: error))")
            #expect(object["kind"] as? String == kind, "\(type(of: error))")
            #expect(object["message"] as? String == "\(error)")
        }
    }

    @Test("a hint names the flag, and the JSON carries it")
    func hints() throws {
        let timeout = UpgradeError(.lockTimeout(seconds: 60), storePath: Self.store)
        let hint = try #require(FailureHint.hint(for: timeout, tool: "notes-upgrade"))
        #expect(hint.contains("--lock-timeout"))
        #expect(try Self.encoded(JSONFailure(timeout, hint: hint))["hint"] as? String == hint)
        let missing = StoreError(path: Self.store, kind: .missingMetadataTable)
        #expect(FailureHint.hint(for: missing, tool: "notes-upgrade")?.contains("`notes-upgrade create") == true)
        let unregistered = UpgradeError(
            .unregisteredPolicy(name: "TitlePolicy", mappingModel: "Notes → Notes 2", entityMapping: "NoteToNote"))
        #expect(FailureHint.hint(for: unregistered, tool: "stepwise")?.contains("StepwiseTool") == true)
        #expect(FailureHint.hint(for: StoreError(path: Self.store, kind: .notFound), tool: "stepwise") == nil)
    }
}

import Foundation
import GRDB
import Testing

@testable import StepwiseCommandLine

/// The hint after a failed upgrade that left its work folder: a failure that comes back on
/// every run says what to fix, and offers `discard` only to clean up; a failure a later run
/// can get past says that running again resumes.
@Suite("Failure hints after a failed upgrade")
struct FailureHintTests {
    static let store = "/x/Store.sqlite"

    /// A failure that left its work folder, as the upgrade reports it.
    static func leftOver(_ kind: UpgradeError.Kind) -> UpgradeError {
        var error = UpgradeError(kind, storePath: store)
        error.leftoverWorkDirectory = URL(fileURLWithPath: "/x/.Store.sqlite.stepwise")
        return error
    }

    static func failedStep(_ underlying: any Error & Sendable) -> UpgradeError.Kind {
        .stepFailed(index: 2, count: 3, from: "Notes 2", to: "Notes 3", underlying: underlying)
    }

    static let deterministic: [UpgradeError] = [
        leftOver(
            failedStep(
                MappingError(
                    .notUnique(value: "\"x\"", rows: []), entityMapping: "TagToTag", entity: "Tag", property: "code"))),
        leftOver(failedStep(MappingError(.policyFailed("boom"), entity: "Note", sourcePrimaryKey: 3))),
        leftOver(failedStep(MappingError(.invalidValue("not a date"), entity: "Note", property: "created"))),
        leftOver(failedStep(DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "UNIQUE constraint failed"))),
    ]

    static let transient: [UpgradeError] = [
        leftOver(failedStep(DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full"))),
        leftOver(failedStep(DatabaseError(resultCode: .SQLITE_IOERR, message: "disk I/O error"))),
        leftOver(.fileSystem(operation: "rename", path: store, reason: "No space left on device")),
        leftOver(.lockTimeout(seconds: 60)),
    ]

    @Test(arguments: deterministic)
    func aFailureThatComesBackSaysWhatToFixAndNeverToResume(error: UpgradeError) throws {
        #expect(error.failsTheSameWayAgain)
        let hint = try #require(FailureHint.hint(for: error, tool: "notes-upgrade"))
        #expect(!hint.contains("to resume"))
        #expect(
            hint.contains(
                "Running the upgrade again as it is fails the same way: first fix what the error names (the mapping, the policy or the data in the store)."
            ))
        #expect(
            hint.hasSuffix(
                "The next upgrade then resumes after the steps that completed; `notes-upgrade discard \"/x/Store.sqlite\"` deletes the work kept so far."
            ))
        #expect(error.description.contains("fix the mapping, the policy or the data first"))
        // Scripts read the same hint in the JSON object.
        let data = try JSONEncoder().encode(JSONFailure(error, hint: hint))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["hint"] as? String == hint)
    }

    @Test(arguments: transient)
    func aFailureARunCanGetPastSaysToRunAgainToResume(error: UpgradeError) throws {
        #expect(!error.failsTheSameWayAgain)
        let hint = try #require(FailureHint.hint(for: error, tool: "notes-upgrade"))
        #expect(
            hint.hasSuffix(
                "Run the upgrade again to resume, or `notes-upgrade discard \"/x/Store.sqlite\"` to start over."))
        #expect(!hint.contains("fails the same way"))
    }

    @Test func aStrictRefusalPointsAtTheDiffAndOffersDiscardAsCleanUp() throws {
        let error = Self.leftOver(.dropsData(index: 1, count: 2, from: "Notes", to: "Notes 2", drops: []))
        let hint = try #require(FailureHint.hint(for: error, tool: "stepwise"))
        #expect(hint.hasPrefix("`stepwise diff --models BUNDLE --from \"Notes\" --to \"Notes 2\"`"))
        #expect(!hint.contains("to resume"))
        #expect(hint.contains("deletes the work kept so far"))
    }
}

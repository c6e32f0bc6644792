import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import Testing

@testable import Stepwise

/// A library error speaks the library's words: an app shows it, and an app has no flags. The
/// `stepwise` tool adds its own hints (`--lock-timeout`) when it prints one.
@Suite("Error messages without command-line words")
struct ErrorVocabularyTests {
    /// ReportableErrorTests' error of each type, plus every case whose message once named a flag or a command.
    static let errors: [any ReportableError] =
        ReportableErrorTests.errors + [
            UpgradeError(.lockTimeout(seconds: 60), storePath: "/x/Store.sqlite"),
            UpgradeError(
                .storeInUse(processIDs: [42], seconds: 5, bareConnection: false), storePath: "/x/Store.sqlite"),
            UpgradeError(.storeInUse(processIDs: [], seconds: 5, bareConnection: true), storePath: "/x/Store.sqlite"),
            UpgradeError(
                .dropsData(index: 1, count: 2, from: "Notes", to: "Notes 2", drops: []), storePath: "/x/Store.sqlite"),
            UpgradeError(
                .noBackup(backupDirectory: URL(fileURLWithPath: "/x/Store.sqlite.stepwise-backup")),
                storePath: "/x/Store.sqlite"),
            UpgradeError(
                .interruptedSwapMissingFile(
                    state: "swappingIn",
                    missing: URL(fileURLWithPath: "/x/.Store.sqlite.stepwise/incoming/Store.sqlite"),
                    workDirectory: URL(fileURLWithPath: "/x/.Store.sqlite.stepwise")),
                storePath: "/x/Store.sqlite"),
            UpgradeError(path: "/x/Store.sqlite", kind: .noMatchingVersion(closest: "Notes 2", differences: [])),
            StoreError(path: "/x/Store.sqlite", kind: .missingMetadataTable),
            MappingError(.unreadableArchive("a truncated archive"), file: "/x/A.xcmappingmodel"),
            MappingError(.unsupportedExpression(className: "NSSubqueryExpression", reason: "a subquery")),
            UpgradeError(
                .unregisteredPolicy(name: "TitlePolicy", mappingModel: "Notes → Notes 2", entityMapping: "NoteToNote")),
            ModelError(
                path: "/x/Notes.shipped/Notes 2.json", kind: .changedSinceShipped(version: "Notes 2", differences: [])),
        ]

    @Test("no description names a flag or a stepwise command")
    func noCommandLineWords() {
        for error in Self.errors {
            #expect(!error.description.contains("--"), "\(error.description)")
            #expect(!error.description.contains("`stepwise "), "\(error.description)")
            #expect(!error.description.contains("(stepwise "), "\(error.description)")
        }
    }

    @Test("caseName and subjectPath are written per case")
    func caseNames() {
        #expect(UpgradeError(.lockTimeout(seconds: 1), storePath: "/s").caseName == "lockTimeout")
        #expect(UpgradeError(.lockTimeout(seconds: 1), storePath: "/s").subjectPath == "/s")
        #expect(StoreError(path: "/s", kind: .truncated(expectedBytes: 2, actualBytes: 1)).caseName == "truncated")
        #expect(MappingError(.unknownPolicy("P"), file: "/m.json").subjectPath == "/m.json")
        #expect(ModelError.historyFileMismatch(file: "/h", unknown: [], missing: []).subjectPath == "/h")
        #expect(UpgradeError(.unknownVersion("X", available: [])).subjectPath == nil)
        for error in Self.errors {
            #expect(!error.caseName.isEmpty && !error.caseName.contains("("), "\(type(of: error))")
        }
    }

    /// The `kind` strings of `--json` failures stayed when their types were folded into one per
    /// layer, where a case was renamed to keep the folded kinds apart.
    @Test("a folded type's renamed case keeps its old kind string")
    func foldedCaseNames() {
        let path = "/x/Notes.shipped/Notes 2.json"
        #expect(ModelError(path: path, kind: .malformedShippedRecord("x")).caseName == "malformed")
        #expect(ModelError(path: path, kind: .unreadableShippedRecord("x")).caseName == "unreadable")
        #expect(ModelError(path: path, kind: .unwritableShippedRecord("x")).caseName == "unwritable")
        #expect(StoreError(path: "/s", kind: .modelCacheTruncated).caseName == "truncated")
        #expect(UpgradeError(.accessLockFailed(reason: "EACCES"), storePath: "/s").caseName == "fileSystem")
        let findings = UpgradeError(.malformedAcceptedFindings(path: "/a.json", reason: "x"), storePath: "/s")
        #expect(findings.caseName == "malformed")
        #expect(findings.subjectPath == "/a.json")
        #expect(MappingError(.notComposable(.intermediateLosesOrder), entity: "Note").caseName == "notComposable")
    }

    /// Errors thrown before an upgrade starts never name a leftover work folder.
    @Test("only a run failure is a run failure")
    func runFailures() {
        #expect(UpgradeError(.lockTimeout(seconds: 1)).isRunFailure)
        #expect(!UpgradeError(.emptyHistory).isRunFailure)
        #expect(!UpgradeError(.unknownVersion("X", available: [])).isRunFailure)
        #expect(!UpgradeError(.needsUpgrade(target: "X"), storePath: "/s").isRunFailure)
    }
}

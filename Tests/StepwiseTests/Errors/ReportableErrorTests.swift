import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// What an app shows for an error (`localizedDescription`) is Stepwise's own sentence, and a
/// policy's own error text comes through as its author wrote it.
@Suite("Errors an app can show")
struct ReportableErrorTests {
    static let errors: [any ReportableError] = [
        ModelError.ambiguousOrder(["A", "B"], reason: "the names don't share a common stem"),
        ModelError(path: "/x/Model.xcdatamodel", kind: .legacyBinaryFormat),
        ModelError(version: "Model 2", problems: []),
        StoreError(path: "/x/Store.sqlite", kind: .notFound),
        FileSystemError(
            operation: "copy", path: "/x/Store.sqlite", reason: "No space left on device", site: "copy.file"),
        MappingError(.unknownPolicy("TitlePolicy"), entityMapping: "NoteToNote"),
        UpgradeError(path: "/x/Store.sqlite", kind: .emptyHistory),
        UpgradeError(.needsUpgrade(target: "Notes 3"), storePath: "/x/Store.sqlite"),
        UpgradeError(.verificationFailed("a dangling key"), storePath: "/x/Store.sqlite"),
        UpgradeError(.unknownVersion("Notes 9", available: ["Notes", "Notes 2"])),
        ModelError(path: "/x/Notes.shipped/Notes 2.json", kind: .malformedShippedRecord("no 'contents' key")),
    ]

    @Test("localizedDescription is the error's description, for every Stepwise error type")
    func localizedDescriptionIsTheSentence() {
        for error in Self.errors {
            #expect(error.localizedDescription == error.description, "\(type(of: error))")
            #expect(!error.localizedDescription.contains("The operation could"), "\(type(of: error))")
        }
    }

    struct TitleError: LocalizedError {
        var errorDescription: String? { "the title is empty" }
    }

    final class FailingTitlePolicy: EntityMigrationPolicy {
        override func createDestinationInstances(
            forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            throw TitleError()
        }
    }

    @Test("a policy's LocalizedError reads as its own text, not as TitleError()")
    func policyErrorKeepsItsText() throws {
        #expect(ErrorText.describe(TitleError()) == "the title is empty")
        #expect(ErrorText.describe(NSError(domain: "Test", code: 7)).contains("7"))
        let fixture = try UpgradeFixture("Recipes")
        var mapping = try MappingFile.decode(
            Data(SampleMappings.recipes1to2.utf8), source: RecipesHistory.v1, destination: RecipesHistory.v2)
        for index in mapping.entityMappings.indices where mapping.entityMappings[index].sourceEntity == "Chef" {
            mapping.entityMappings[index].policyName = "FailingTitle"
        }
        var policies = SamplePolicies.registry
        policies.register("FailingTitle") { FailingTitlePolicy() }
        let destination = fixture.directory.path("out.sqlite")
        let error = try #require(throws: MappingError.self) {
            try MigrationStep(
                from: RecipesHistory.v1, to: RecipesHistory.v2, mappingModels: [mapping], policies: policies
            )
            .run(source: fixture.store, destination: destination)
        }
        #expect(error.description.contains("the policy failed: the title is empty"))
        #expect(!error.description.contains("TitleError()"))
    }
}

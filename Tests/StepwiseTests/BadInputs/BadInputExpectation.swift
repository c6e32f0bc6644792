import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// What an entry point did: returned a value or threw.
enum BadInputOutcome: Sendable {
    case returned((any Sendable)?)
    case threw(any Error)
}

/// The exact outcome a bad-input case must have: the typed error's kind with its associated
/// values (file, version, entity, property, row), or, for a hostile name, a successful upgrade.
///
/// Values that depend on the workspace's location are built from it.
struct BadInputExpectation: Sendable {
    let verify: @Sendable (BadInputOutcome, BadInputWorkspace, SourceLocation) throws -> Void

    /// The error of type `E` the outcome must be, or nil (recording an issue).
    static func thrown<E: Error>(
        _ errorType: E.Type, _ outcome: BadInputOutcome, at location: SourceLocation
    ) -> E? {
        switch outcome {
        case .threw(let error as E):
            return error
        case .threw(let error):
            Issue.record("expected \(E.self), got \(type(of: error)): \(error)", sourceLocation: location)
        case .returned(let value):
            Issue.record("expected \(E.self), but it returned \(String(describing: value))", sourceLocation: location)
        }
        return nil
    }

    /// An error equal to `make(workspace)`: every field, not just the kind.
    static func error<E: Error & Equatable & Sendable>(_ make: @escaping @Sendable (BadInputWorkspace) -> E)
        -> BadInputExpectation
    {
        BadInputExpectation { outcome, workspace, location in
            guard let error = thrown(E.self, outcome, at: location) else { return }
            #expect(error == make(workspace), sourceLocation: location)
        }
    }

    /// A ``UpgradeError`` refusing a policy no registration names, found before any step.
    static func unregisteredPolicy(name: String, mappingModel: String, entityMapping: String) -> BadInputExpectation {
        BadInputExpectation { outcome, _, location in
            guard let error = thrown(UpgradeError.self, outcome, at: location) else { return }
            guard case .unregisteredPolicy(let gotName, let gotModel, let gotMapping) = error.kind else {
                Issue.record("expected unregisteredPolicy, got \(error)", sourceLocation: location)
                return
            }
            #expect(
                gotName == name && gotModel == mappingModel && gotMapping == entityMapping, sourceLocation: location)
        }
    }

    /// A ``StoreError`` of `kind` naming the workspace file `file` (in its description too).
    static func storeError(_ kind: StoreError.Kind, at file: String) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            guard let error = thrown(StoreError.self, outcome, at: location) else { return }
            #expect(error.kind == kind, sourceLocation: location)
            #expect(error.path == workspace.path(file).path, sourceLocation: location)
            #expect(error.description.contains(workspace.path(file).path), sourceLocation: location)
        }
    }

    /// A ``StoreError`` whose kind is computed from facts the arrangement recorded.
    static func storeError(at file: String, _ kind: @escaping @Sendable (BadInputWorkspace) -> StoreError.Kind)
        -> BadInputExpectation
    {
        BadInputExpectation { outcome, workspace, location in
            try storeError(kind(workspace), at: file).verify(outcome, workspace, location)
        }
    }

    /// A ``StoreError`` about a model version that can't be laid out (its path names the version).
    static func unsupportedModel(version: String, reason: String) -> BadInputExpectation {
        BadInputExpectation { outcome, _, location in
            guard let error = thrown(StoreError.self, outcome, at: location) else { return }
            #expect(error.path == "model version '\(version)'", sourceLocation: location)
            #expect(error.kind == .unsupportedModel(reason), sourceLocation: location)
        }
    }

    /// An unreadable store file: `StoreError.io` whose platform message starts with `prefix`.
    static func storeIOError(at file: String, reasonPrefix prefix: String) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            guard let error = thrown(StoreError.self, outcome, at: location) else { return }
            #expect(error.path == workspace.path(file).path, sourceLocation: location)
            guard case .io(let reason) = error.kind else {
                Issue.record("expected an I/O error, got \(error.kind)", sourceLocation: location)
                return
            }
            #expect(reason.hasPrefix(prefix), "\(reason)", sourceLocation: location)
        }
    }

    /// A model file that isn't well-formed: the reason's wording after `prefix` is the XML parser's.
    static func malformedModel(at file: String, reasonPrefix prefix: String) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            guard let error = thrown(ModelError.self, outcome, at: location) else { return }
            #expect(error.path == workspace.path(file).path, sourceLocation: location)
            guard case .malformed(let reason) = error.kind else {
                Issue.record("expected a malformed model, got \(error.kind)", sourceLocation: location)
                return
            }
            #expect(reason.hasPrefix(prefix), "\(reason)", sourceLocation: location)
        }
    }

    /// A mapping file that can't be decoded: ``MappingError/Kind/invalidFile(_:)`` naming the
    /// file and nothing else, whose reason contains `text` (the rest is Foundation's wording).
    static func invalidMappingFile(at file: String, reasonContains text: String) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            guard let error = thrown(MappingError.self, outcome, at: location) else { return }
            #expect(error.file == workspace.path(file).path, sourceLocation: location)
            #expect(error.entityMapping == nil && error.property == nil, sourceLocation: location)
            guard case .invalidFile(let reason) = error.kind else {
                Issue.record("expected an invalid file, got \(error.kind)", sourceLocation: location)
                return
            }
            #expect(reason.contains(text), "\(reason)", sourceLocation: location)
        }
    }

    /// What a ``UpgradeError`` must say.
    enum Registry: Sendable {
        case newerThanKnownVersions(storeVersionName: String?, latest: String, differences: [String])
        case noMatchingVersion(closest: String?, differences: [String])
        case inconsistent(problemPrefix: String)
    }

    /// A ``UpgradeError`` about the workspace store `file`; differences compare by description.
    static func registryError(at file: String, _ expected: Registry) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            guard let error = thrown(UpgradeError.self, outcome, at: location) else { return }
            #expect(error.storePath == workspace.path(file).path, sourceLocation: location)
            switch (error.kind, expected) {
            case (
                .newerThanKnownVersions(let name, let latest, let differences),
                .newerThanKnownVersions(let expectedName, let expectedLatest, let expectedDifferences)
            ):
                #expect(name == expectedName && latest == expectedLatest, sourceLocation: location)
                #expect(differences.map(\.description) == expectedDifferences, sourceLocation: location)
            case (
                .noMatchingVersion(let closest, let differences),
                .noMatchingVersion(let expectedClosest, let expectedDifferences)
            ):
                #expect(closest == expectedClosest, sourceLocation: location)
                #expect(differences.map(\.description) == expectedDifferences, sourceLocation: location)
            case (.inconsistent(let problem), .inconsistent(let prefix)):
                #expect(problem.hasPrefix(prefix), "\(problem)", sourceLocation: location)
            default:
                Issue.record("expected \(expected), got \(error.kind)", sourceLocation: location)
            }
        }
    }

    /// ``UpgradeError/Kind/unknownEntities(entities:tables:)`` about the workspace store `file`.
    static func unknownEntities(at file: String, entities: [String], tables: [String]) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            guard let error = thrown(UpgradeError.self, outcome, at: location) else { return }
            #expect(error.storePath == workspace.path(file).path, sourceLocation: location)
            guard case .unknownEntities(let gotEntities, let gotTables) = error.kind else {
                Issue.record("expected unknownEntities, got \(error.kind)", sourceLocation: location)
                return
            }
            #expect(gotEntities == entities && gotTables == tables, sourceLocation: location)
            #expect(error.description.contains("Nothing was changed"), sourceLocation: location)
        }
    }

    /// A ``/StepwiseModel/ModelError`` whose description contains `text`.
    static func modelError(containing text: String) -> BadInputExpectation {
        BadInputExpectation { outcome, _, location in
            guard let error = thrown(ModelError.self, outcome, at: location) else { return }
            #expect(error.description.contains(text), "\(error)", sourceLocation: location)
        }
    }

    /// What an ``UpgradeError`` must say.
    enum Upgrade: Sendable {
        /// A file-system call failed with `errno`; `path` is relative to the workspace.
        case fileSystem(operation: String, path: String, errno: Int32)
        case insufficientSpace(neededBytes: Int64, availableBytes: Int64)
        /// A step failed with exactly this mapping error.
        case stepFailed(index: Int, count: Int, from: String, to: String, underlying: MappingError)
    }

    /// An ``UpgradeError``; `storePath` (relative) and `site` are its other fields.
    static func upgradeError(
        storePath: String?, site: String?, _ make: @escaping @Sendable (BadInputWorkspace) -> Upgrade
    ) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            guard let error = thrown(UpgradeError.self, outcome, at: location) else { return }
            #expect(error.storePath == storePath.map { workspace.path($0).path }, sourceLocation: location)
            #expect(error.site == site, sourceLocation: location)
            switch (error.kind, make(workspace)) {
            case (
                .fileSystem(let operation, let path, let reason),
                .fileSystem(let expectedOperation, let expectedPath, let code)
            ):
                #expect(operation == expectedOperation, sourceLocation: location)
                #expect(path == workspace.path(expectedPath).path, sourceLocation: location)
                #expect(reason == String(cString: strerror(code)), sourceLocation: location)
            case (
                .insufficientSpace(let needed, let available),
                .insufficientSpace(let expectedNeeded, let expectedAvailable)
            ):
                #expect(needed == expectedNeeded && available == expectedAvailable, sourceLocation: location)
            case (
                .stepFailed(let index, let count, let from, let to, let underlying),
                .stepFailed(let expectedIndex, let expectedCount, let expectedFrom, let expectedTo, let expectedError)
            ):
                #expect(
                    [index, count] == [expectedIndex, expectedCount] && [from, to] == [expectedFrom, expectedTo],
                    sourceLocation: location)
                #expect(underlying as? MappingError == expectedError, sourceLocation: location)
            case (let kind, let expected):
                Issue.record("expected \(expected), got \(kind)", sourceLocation: location)
            }
        }
    }

    /// `identify` returns (it doesn't throw) an inconsistent match: hashes of one version over
    /// the tables of another.
    static func identifiedAsInconsistent(hashVersion: String, schemaVersion: String?) -> BadInputExpectation {
        BadInputExpectation { outcome, _, location in
            guard case .returned(let value) = outcome, let identification = value as? StoreIdentification else {
                Issue.record("expected an identification, got \(outcome)", sourceLocation: location)
                return
            }
            guard case .inconsistent(let hashes, let tables, let differences) = identification.match else {
                Issue.record("expected an inconsistent match, got \(identification.match)", sourceLocation: location)
                return
            }
            #expect(hashes == hashVersion && tables == schemaVersion, sourceLocation: location)
            #expect(!differences.isEmpty, sourceLocation: location)
            #expect(identification.version == nil && !identification.isConsistent, sourceLocation: location)
        }
    }

    /// The `stepwise` command fails with `status` (`CommandExitStatus`); standard error contains each of `texts`
    /// (typically the file's path and what to do next) and standard output is empty.
    static func commandFails(
        status: Int32, standardErrorContains texts: @escaping @Sendable (BadInputWorkspace) -> [String]
    ) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            guard case .returned(let value) = outcome, let result = value as? CommandRunner.Result else {
                Issue.record("expected the command's result, got \(outcome)", sourceLocation: location)
                return
            }
            #expect(result.status == status, "\(result.standardError)", sourceLocation: location)
            for text in texts(workspace) {
                #expect(result.standardError.contains(text), "\(result.standardError)", sourceLocation: location)
            }
        }
    }

    /// The upgrade succeeds from `from` to `to` in one step taking `strategy` (altering the
    /// store in place, or rewriting its rows); `check` then reads the store.
    static func upgraded(
        from: String, to: String, strategy: StepStrategy, check: @escaping @Sendable (BadInputWorkspace) throws -> Void
    ) -> BadInputExpectation {
        BadInputExpectation { outcome, workspace, location in
            switch outcome {
            case .returned(let value):
                let report = value as? UpgradeReport
                #expect(report?.from == from && report?.to == to, sourceLocation: location)
                #expect(report?.upToDate == false, sourceLocation: location)
                #expect(report?.steps.map(\.strategy) == [strategy], sourceLocation: location)
                try check(workspace)
            case .threw(let error):
                Issue.record("expected an upgrade to '\(to)', got \(error)", sourceLocation: location)
            }
        }
    }
}

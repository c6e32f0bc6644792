import ArgumentParser
import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// What a failed command's exit status tells the script that ran it: what to do next.
///
/// The codes follow `sysexits.h` where one fits (64 and up); a store of a version this build
/// doesn't know has no `sysexits` code and gets 3. `--json` gives the error's own kind on top.
///
/// | Status | Meaning | What the caller does |
/// |---|---|---|
/// | 1 | a check, comparison or matrix found problems, or an unexpected failure | read the output |
/// | 3 | the store is newer than this build, or of a version it doesn't know | ship a newer build, or pass the model that wrote it |
/// | 64 (`EX_USAGE`) | the command line is wrong | fix the arguments |
/// | 65 (`EX_DATAERR`) | a model, mapping, policy or history can't be used | fix that input |
/// | 66 (`EX_NOINPUT`) | the store is missing, not a store, or damaged | check the path; restore the store |
/// | 74 (`EX_IOERR`) | reading or writing files failed, or the disk is full | free space, check the disk, run again |
/// | 75 (`EX_TEMPFAIL`) | another process holds the store, or an upgrade is running | retry later |
/// | 130 | cancelled (interrupted) | run again when wanted |
public enum CommandExitStatus: Int32, CaseIterable, Sendable {
    /// A check, comparison or matrix found problems, or an unexpected failure.
    case failure = 1
    /// The store is newer than this build, or of a version its models don't know.
    case unknownStoreVersion = 3
    /// The command line is wrong (`EX_USAGE`), as ArgumentParser exits.
    case usage = 64
    /// A model, mapping, policy or history can't be used (`EX_DATAERR`).
    case badInput = 65
    /// The store is missing, not an SQLite store, or damaged (`EX_NOINPUT`).
    case notAStore = 66
    /// Reading or writing files failed, or the disk is full (`EX_IOERR`).
    case ioError = 74
    /// Another process holds the store, or an upgrade is running: retry later (`EX_TEMPFAIL`).
    case busy = 75
    /// The command was cancelled: 128 + `SIGINT`, as shells report an interrupted command.
    case cancelled = 130

    /// The status for a command that failed with `error`: the one place errors become exit
    /// statuses, on the tool's one route from an error to its exit (``StepwiseTool/exit(for:json:)``).
    public init(for error: any Error) {
        switch error {
        case let error as ExitCode: self = CommandExitStatus(rawValue: error.rawValue) ?? .failure
        case is ValidationError: self = .usage
        case is CancellationError: self = .cancelled
        case let error as CommandFailure: self = error.status
        case let error as ModelError: self = Self.status(for: error)
        case is MappingError: self = .badInput
        case let error as UpgradeError: self = Self.status(for: error)
        case let error as StoreError: self = Self.status(for: error)
        case let error as DatabaseError: self = Self.status(sqliteCode: error.extendedResultCode)
        case let error as CocoaError where error.isFileError: self = Self.status(for: error)
        case let error as POSIXError: self = Self.status(errno: error.code.rawValue)
        default: self = .failure
        }
    }

    private static func status(for error: ModelError) -> CommandExitStatus {
        if case .unwritableShippedRecord = error.kind { return .ioError }
        return .badInput
    }

    private static func status(for error: UpgradeError) -> CommandExitStatus {
        switch error.kind {
        case .newerThanKnownVersions, .noMatchingVersion, .laterThanTarget, .unknownEntities, .needsUpgrade:
            return .unknownStoreVersion
        case .inconsistent, .noBackup, .interruptedSwapMissingFile:
            return .notAStore
        case .emptyHistory, .unknownVersion, .noPath, .unregisteredPolicy, .duplicateStage,
            .unreadableAcceptedFindings, .malformedAcceptedFindings, .dropsData:
            return .badInput
        case .upgradeRunning, .lockTimeout, .storeInUse, .storeChangedDuringUpgrade:
            return .busy
        case .accessLockFailed, .insufficientSpace, .fileSystem:
            return .ioError
        case .stepFailed(_, _, _, _, let underlying):
            // What stopped the step says what to do: a row the mapping or a policy can't carry
            // is the input's to fix; a full disk, a lock or a cancellation is as anywhere else.
            let status = CommandExitStatus(for: underlying)
            return status == .failure || status == .notAStore ? .badInput : status
        case .verificationFailed:
            return .failure
        }
    }

    private static func status(for error: StoreError) -> CommandExitStatus {
        switch error.kind {
        case .notFound, .isDirectory, .emptyFile, .notSQLite, .truncated, .missingMetadataTable, .invalidMetadata,
            .schemaMismatch, .notDeflate, .modelCacheTruncated, .tooLarge, .unreadableModel:
            return .notAStore
        case .unknownEntity, .unknownProperty, .rowNotFound, .invalidValue, .wrongValueForm, .alreadyExists,
            .unsupportedModel:
            return .badInput
        case .sqlite(let code, _):
            return status(sqliteCode: ResultCode(rawValue: code))
        case .io:
            return .ioError
        }
    }

    /// By SQLite's primary result code (https://sqlite.org/rescode.html).
    private static func status(sqliteCode code: ResultCode) -> CommandExitStatus {
        switch code.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy
        case .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM: .ioError
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: .notAStore
        case .SQLITE_INTERRUPT: .cancelled
        default: .failure
        }
    }

    private static func status(for error: CocoaError) -> CommandExitStatus {
        switch error.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: .notAStore
        case .fileWriteOutOfSpace: .ioError
        default:
            (error.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { underlying in
                underlying.domain == NSPOSIXErrorDomain ? status(errno: Int32(underlying.code)) : nil
            } ?? .ioError
        }
    }

    private static func status(errno code: Int32) -> CommandExitStatus {
        switch code {
        case ENOENT, ENOTDIR: .notAStore
        case EAGAIN, EBUSY, EWOULDBLOCK: .busy
        case EINTR: .cancelled
        default: .ioError
        }
    }
}

import Foundation
import StepwiseModel

/// A store file that can't be read, written or created, naming the file (and entity,
/// property or row) at fault.
///
/// Switch on ``kind`` to tell the cases apart. Every case says what to do next in its
/// ``description``. Values from the store's rows are never included, so errors are safe to log.
public struct StoreError: Error, Sendable, Hashable, LocalizedError, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// Nothing exists at the path.
        case notFound
        /// A directory where a store file was expected.
        case isDirectory
        /// A zero-length file.
        case emptyFile
        /// The file doesn't start with SQLite's 16-byte header string.
        case notSQLite
        /// The header is SQLite's but the file is shorter than its header says (a cut-off copy).
        case truncated(expectedBytes: Int64, actualBytes: Int64)
        /// An SQLite database without a `Z_METADATA` table: not a Core Data-layout store.
        case missingMetadataTable
        /// `Z_METADATA` has no row, or its `Z_PLIST` is not a binary property list of the expected shape.
        case invalidMetadata(String)
        /// The store's tables don't match what its model version needs.
        case schemaMismatch(String)
        /// An entity the model doesn't have.
        case unknownEntity(String)
        /// A property the entity doesn't have.
        case unknownProperty(entity: String, property: String)
        /// A row that doesn't exist.
        case rowNotFound(entity: String, primaryKey: Int64)
        /// A value of the wrong kind for a property.
        case invalidValue(entity: String, property: String, reason: String)
        /// A value written to an attribute doesn't have the attribute's form (a date given as
        /// text, bytes that are not an archive for a Transformable); `given` says what it was.
        case wrongValueForm(entity: String, property: String, expected: AttributeValueForm, given: String)
        /// SQLite refused an operation; `message` is SQLite's.
        case sqlite(code: Int32, message: String)
        /// The file can't be read or written.
        case io(String)
        /// A file (or its `-wal`, `-shm` or `-journal`) already exists where a new store was to be created.
        case alreadyExists
        /// The model uses something Stepwise can't lay out in SQLite (for example a to-many
        /// relationship in an index). `path` names the model version instead of a file.
        case unsupportedModel(String)

        // The store's `Z_MODELCACHE` (Core Data's compressed copy of the model that wrote the
        // store) can't be read. The cache is never needed to read a store's rows: a caller that
        // hits one of these can still inspect the store, or upgrade it with a bundle holding
        // its version.

        /// `Z_CONTENT` is not raw deflate, or is damaged; `reason` is zlib's.
        case notDeflate(String)
        /// `Z_CONTENT` ends before its deflate stream does.
        case modelCacheTruncated
        /// The inflated model would be larger than `limit` bytes (a damaged or crafted store:
        /// Photos' model, the largest known, inflates to 350 KB).
        case tooLarge(limit: Int)
        /// The inflated bytes are not a model archive Stepwise can read; `reason` says why.
        case unreadableModel(String)
    }

    /// The store file at fault.
    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .notFound:
            return "no store at \(path). Check the path; a store is the SQLite file Core Data or Stepwise wrote."
        case .isDirectory:
            return "\(path) is a directory, not a store file. Pass the path of the .sqlite file inside it."
        case .emptyFile:
            return "\(path) is empty (0 bytes). It is not a store; delete it or restore it from a backup."
        case .notSQLite:
            return
                "\(path) is not an SQLite database (its header is not 'SQLite format 3'). Check that you passed the store file, not its -wal or -shm."
        case .truncated(let expected, let actual):
            return
                "\(path) is truncated: its header says \(expected) bytes but the file has \(actual). Restore it from a backup; Stepwise will not read a cut-off store."
        case .missingMetadataTable:
            return
                "\(path) is an SQLite database without a Z_METADATA table, so it is not a Core Data-layout store. Create stores with Core Data or StoreCreator."
        case .invalidMetadata(let reason):
            return "\(path) has unreadable metadata: \(reason). The store is damaged; restore it from a backup."
        case .schemaMismatch(let reason):
            return "\(path) does not have the tables its model version needs: \(reason)."
        case .unknownEntity(let name):
            return "\(path): the model has no entity '\(name)'."
        case .unknownProperty(let entity, let property):
            return "\(path): entity '\(entity)' has no property '\(property)'."
        case .rowNotFound(let entity, let primaryKey):
            return "\(path): no \(entity) with primary key \(primaryKey)."
        case .invalidValue(let entity, let property, let reason):
            return "\(path): invalid value for \(entity).\(property): \(reason)."
        case .wrongValueForm(let entity, let property, let expected, let given):
            return
                "\(path): \(entity).\(property) takes \(expected), not \(given). Convert the value before writing it (see the value forms in \"Porting a Core Data policy\")."
        case .sqlite(let code, let message):
            let advice = isDamagedStore ? ". The store is damaged; restore it from a backup." : ""
            return "\(path): SQLite error \(code): \(message)\(advice)"
        case .io(let reason):
            return "\(path): \(reason)"
        case .alreadyExists:
            return
                "\(path) already exists (or has a -wal, -shm or -journal file beside it). Stepwise never creates a store over an existing file; pick a new path or delete the old files."
        case .unsupportedModel(let reason):
            return "\(path) can't be laid out as a Core Data SQLite store: \(reason). Change the model."
        case .notDeflate(let reason):
            return "\(path): the model cache (Z_MODELCACHE) is not raw deflate (\(reason)). \(Self.modelCacheAdvice)"
        case .modelCacheTruncated:
            return "\(path): the model cache (Z_MODELCACHE) is cut off before its end. \(Self.modelCacheAdvice)"
        case .tooLarge(let limit):
            return
                "\(path): the model cache (Z_MODELCACHE) inflates to more than \(limit) bytes; it was not read. \(Self.modelCacheAdvice)"
        case .unreadableModel(let reason):
            return
                "\(path): the model cache (Z_MODELCACHE) holds no readable model: \(reason). \(Self.modelCacheAdvice)"
        }
    }

    private static let modelCacheAdvice =
        "The store's rows are unaffected; upgrade it with a model bundle that holds the version that wrote it."

    public var errorDescription: String? { description }
}

extension StoreError {
    /// The kind's case name (`notFound`; `truncated` for ``Kind/modelCacheTruncated``, the
    /// name it had on its own type), for tools: `{"kind": …}` in the CLI's JSON.
    package var caseName: String {
        switch kind {
        case .notFound: "notFound"
        case .isDirectory: "isDirectory"
        case .emptyFile: "emptyFile"
        case .notSQLite: "notSQLite"
        case .truncated: "truncated"
        case .missingMetadataTable: "missingMetadataTable"
        case .invalidMetadata: "invalidMetadata"
        case .schemaMismatch: "schemaMismatch"
        case .unknownEntity: "unknownEntity"
        case .unknownProperty: "unknownProperty"
        case .rowNotFound: "rowNotFound"
        case .invalidValue: "invalidValue"
        case .wrongValueForm: "wrongValueForm"
        case .sqlite: "sqlite"
        case .io: "io"
        case .alreadyExists: "alreadyExists"
        case .unsupportedModel: "unsupportedModel"
        case .notDeflate: "notDeflate"
        case .modelCacheTruncated: "truncated"
        case .tooLarge: "tooLarge"
        case .unreadableModel: "unreadableModel"
        }
    }

    /// The file the error is about.
    package var subjectPath: String? { path }
}

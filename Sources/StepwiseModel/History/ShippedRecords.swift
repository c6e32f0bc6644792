import Foundation

/// The shipped records of a model bundle: `<Name>.shipped/` beside `<Name>.xcdatamodeld`,
/// one ``ShippedVersion`` per file, `<Version name>.json`, meant to be committed.
///
/// ```swift
/// let recording = try ShippedRecords.record(nil, of: bundleURL)   // the current version
/// print(recording.outcome)   // .recorded, then .alreadyRecorded
/// let records = try ShippedRecords.load(forBundleAt: bundleURL)
/// ```
///
/// Files are pretty-printed JSON with sorted keys and ISO 8601 dates, so recording a version
/// whose model hasn't changed writes nothing, and a review shows an edit line by line.
public enum ShippedRecords {
    /// What ``record(_:of:force:now:)`` did.
    public struct Recording: Sendable, Equatable {
        public enum Outcome: String, Sendable, Hashable, Codable {
            /// The version had no record: one was written.
            case recorded
            /// The record already holds this model: no byte was written.
            case alreadyRecorded
            /// The model had changed, and `force` replaced the record.
            case overwritten
        }

        public var outcome: Outcome
        /// The record as it now is on disk.
        public var record: ShippedVersion
        /// Its file.
        public var file: URL
        /// What changed since the previous record (``Outcome/overwritten`` only).
        public var differences: [ModelDifference]
    }

    /// `<Name>.shipped` beside the bundle (or single `.xcdatamodel`) at `bundle`.
    public static func folderURL(forBundleAt bundle: URL) -> URL {
        bundle.standardizedFileURL.deletingPathExtension().appendingPathExtension("shipped")
    }

    /// The record file of the version `name`: `<Name>.shipped/<name>.json`.
    public static func fileURL(forVersion name: String, bundleAt bundle: URL) -> URL {
        folderURL(forBundleAt: bundle).appendingPathComponent(name + ".json")
    }

    /// Every record of the bundle at `bundle`, by version name; none when there is no
    /// `.shipped` folder.
    /// - throws: ``ModelError`` naming the file that can't be read.
    public static func load(forBundleAt bundle: URL) throws(ModelError) -> [ShippedVersion] {
        let folder = folderURL(forBundleAt: bundle)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw ModelError(path: folder.path, kind: .unreadableShippedRecord(error.localizedDescription))
        }
        var records: [ShippedVersion] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            records.append(try read(folder.appendingPathComponent(name)))
        }
        return records
    }

    /// The record in the file at `url`, whose name must be its version's, and whose contents
    /// must be a readable model.
    /// - throws: ``ModelError`` naming `url`.
    public static func read(_ url: URL) throws(ModelError) -> ShippedVersion {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError(path: url.path, kind: .unreadableShippedRecord(error.localizedDescription))
        }
        let record: ShippedVersion
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            record = try decoder.decode(ShippedVersion.self, from: data)
        } catch {
            throw ModelError(path: url.path, kind: .malformedShippedRecord(String(describing: error)))
        }
        let expected = url.deletingPathExtension().lastPathComponent
        guard record.name == expected else {
            throw ModelError(
                path: url.path,
                kind: .malformedShippedRecord("it records '\(record.name)', but the file is named for '\(expected)'")
            )
        }
        // Parsed once here, so a broken model is reported against this file rather than
        // wherever the model is read later (the upgrader, the matrix, `stepwise check`).
        do {
            _ = try record.model(file: url.path)
        } catch {
            throw ModelError(
                path: url.path,
                kind: .malformedShippedRecord("its contents are not a readable model (\(error.description))"))
        }
        return record
    }

    /// The bytes of a record file: pretty-printed, sorted keys, ISO 8601 dates, a final newline.
    public static func encoded(_ record: ShippedVersion) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Strings, dates and a dictionary of strings: encoding can't fail.
        var data = (try? encoder.encode(record)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Writes `record` to its file in the bundle's `.shipped` folder, creating the folder.
    /// - throws: ``ModelError`` naming the file.
    public static func write(_ record: ShippedVersion, forBundleAt bundle: URL) throws(ModelError) {
        let file = fileURL(forVersion: record.name, bundleAt: bundle)
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoded(record).write(to: file, options: .atomic)
        } catch {
            throw ModelError(path: file.path, kind: .unwritableShippedRecord(error.localizedDescription))
        }
    }

    /// Records the version `name` of the bundle at `bundle` as shipped (the current version
    /// when `name` is nil).
    ///
    /// A version recorded before with the same model is left alone, byte for byte, and keeps
    /// its date. One whose model changed is refused, listing what changed, unless `force`:
    /// then the record is replaced, keeping its first date.
    /// - parameters:
    ///   - name: The version to record; the bundle's current version when nil.
    ///   - bundle: The `.xcdatamodeld` bundle (or single `.xcdatamodel`).
    ///   - force: Whether to replace a record whose model has changed.
    ///   - now: The date a new record gets (whole seconds, as the file keeps it).
    /// - throws: ``ModelError`` (``ModelError/Kind/changedSinceShipped(version:differences:)``
    ///   for a changed model), and the bundle's reading errors.
    public static func record(_ name: String? = nil, of bundle: URL, force: Bool = false, now: Date = Date()) throws
        -> Recording
    {
        let listing = try ModelBundleListing(contentsOf: bundle)
        let version = name ?? listing.currentName
        let model = try listing.readVersion(named: version)
        let contentsFile = listing.versionURL(named: version).appendingPathComponent("contents")
        let contents: String
        do {
            contents = try String(contentsOf: contentsFile, encoding: .utf8)
        } catch {
            throw ModelError(path: contentsFile.path, kind: .malformed(error.localizedDescription))
        }
        let file = fileURL(forVersion: version, bundleAt: bundle)
        let date = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        guard FileManager.default.fileExists(atPath: file.path) else {
            let record = ShippedVersion(model: model, contents: contents, shippedAt: date)
            try write(record, forBundleAt: bundle)
            return Recording(outcome: .recorded, record: record, file: file, differences: [])
        }
        let existing = try read(file)
        let recordedModel = try existing.model(file: file.path)
        // The same model (a layout-only change to the XML included): nothing to write.
        if existing.contents == contents || recordedModel == model {
            return Recording(outcome: .alreadyRecorded, record: existing, file: file, differences: [])
        }
        let differences = ModelDifference.between(recordedModel, model)
        guard force else {
            throw ModelError(
                path: file.path, kind: .changedSinceShipped(version: version, differences: differences))
        }
        let record = ShippedVersion(model: model, contents: contents, shippedAt: existing.shippedAt)
        try write(record, forBundleAt: bundle)
        return Recording(outcome: .overwritten, record: record, file: file, differences: differences)
    }
}

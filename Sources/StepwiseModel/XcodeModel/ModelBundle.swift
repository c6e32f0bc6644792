import Foundation

/// The versions of a model as Xcode keeps them: a `.xcdatamodeld` bundle (or a single
/// `.xcdatamodel`), in history order, with the current version.
///
/// ```swift
/// let bundle = try ModelBundle(contentsOf: URL(filePath: "Versions/Recipes.xcdatamodeld"))
/// print(bundle.history.names)   // ["Recipes", "Recipes 2", "Recipes 3"]
/// print(bundle.current.name)    // "Recipes 3"
/// ```
///
/// The order comes from `<Name>.history` beside the bundle when it exists (one version name
/// per line, oldest first; `#` starts a comment), else from the natural order of the names.
public struct ModelBundle: Sendable {
    /// The bundle or model folder this was read from.
    public var url: URL
    /// All versions, oldest first.
    public var history: VersionHistory
    /// The version Xcode marks as current (`.xccurrentversion`), else the newest.
    public var current: ObjectModel

    /// Reads a `.xcdatamodeld` bundle or a single `.xcdatamodel` and validates every version.
    public init(contentsOf url: URL) throws {
        let standardized = url.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: standardized.path, isDirectory: &isDirectory) else {
            throw XcodeModelError(path: standardized.path, kind: .notFound)
        }
        guard isDirectory.boolValue else {
            throw XcodeModelError(path: standardized.path, kind: .notAModel)
        }
        self.url = standardized
        if standardized.pathExtension == "xcdatamodel" {
            let model = try XcodeModelReader.readVersion(at: standardized)
            try model.validate(file: standardized.path)
            self.history = VersionHistory([model])
            self.current = model
            return
        }
        guard standardized.pathExtension == "xcdatamodeld" else {
            throw XcodeModelError(path: standardized.path, kind: .notAModel)
        }
        let children = try FileManager.default.contentsOfDirectory(atPath: standardized.path)
            .filter { $0.hasSuffix(".xcdatamodel") }
        guard !children.isEmpty else {
            throw XcodeModelError(path: standardized.path, kind: .emptyBundle)
        }
        var models: [String: ObjectModel] = [:]
        for child in children {
            let versionURL = standardized.appendingPathComponent(child)
            let model = try XcodeModelReader.readVersion(at: versionURL)
            try model.validate(file: versionURL.appendingPathComponent("contents").path)
            models[model.name] = model
        }
        let order = try Self.order(of: Array(models.keys), bundle: standardized)
        self.history = VersionHistory(order.compactMap { models[$0] })
        let currentName = try Self.currentVersionName(in: standardized) ?? order.last
        guard let currentName, let current = models[currentName] else {
            throw XcodeModelError(path: standardized.path, kind: .unknownCurrentVersion(currentName ?? ""))
        }
        self.current = current
    }

    /// The version with this name, or an error listing the available ones.
    public func version(named name: String) throws(XcodeModelError) -> ObjectModel {
        guard let model = history.version(named: name) else {
            throw XcodeModelError(path: url.path, kind: .unknownVersion(name, available: history.names))
        }
        return model
    }

    /// The history file read for a bundle at `bundle`: `<Name>.history` beside it.
    public static func historyFileURL(for bundle: URL) -> URL {
        bundle.deletingPathExtension().appendingPathExtension("history")
    }

    private static func order(of names: [String], bundle: URL) throws -> [String] {
        let file = historyFileURL(for: bundle)
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            return try VersionHistory.naturalOrder(names)
        }
        var listed: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let withoutComment = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var name = String(withoutComment).trimmingCharacters(in: .whitespaces)
            if name.hasSuffix(".xcdatamodel") { name = String(name.dropLast(".xcdatamodel".count)) }
            if !name.isEmpty { listed.append(name) }
        }
        let unknown = listed.filter { !names.contains($0) }
        let missing = names.filter { !listed.contains($0) }.sorted()
        guard unknown.isEmpty, missing.isEmpty, Set(listed).count == listed.count else {
            throw VersionHistoryError.historyFileMismatch(file: file.path, unknown: unknown, missing: missing)
        }
        return listed
    }

    private static func currentVersionName(in bundle: URL) throws -> String? {
        let file = bundle.appendingPathComponent(".xccurrentversion")
        guard let data = try? Data(contentsOf: file) else { return nil }
        guard
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let name = plist["_XCCurrentVersionName"] as? String
        else {
            throw XcodeModelError(path: file.path, kind: .malformed("no _XCCurrentVersionName string"))
        }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }
}

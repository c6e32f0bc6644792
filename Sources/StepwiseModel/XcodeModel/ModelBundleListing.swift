import Foundation

/// The versions of a `.xcdatamodeld` bundle (or a single `.xcdatamodel`) by name, in history
/// order, with the current version's name, read without parsing any model file.
///
/// A compiled model is listed the same way: a `.momd` folder (what
/// `Bundle.main.url(forResource: "Model", withExtension: "momd")` returns in an app), or any
/// folder holding a `VersionInfo.plist` and `.mom` files, has one version per `.mom` file
/// (`.omo` files are ignored), ordered as a source bundle's are, and the current version its
/// `VersionInfo.plist` names (else the newest); a single `.mom` file is one version.
///
/// Reading a listing costs a folder listing, `.xccurrentversion` and `<Name>.history`: use it
/// where one version is enough (`stepwise schema`), and ``ModelBundle`` where every version is
/// needed. Where even the listing is too much (an app's up-to-date check at launch, whose cost
/// must not grow with the history), ``declaredCurrentName(inBundleAt:)`` and
/// ``readVersion(named:inBundleAt:)`` read one version without it.
///
/// ```swift
/// let listing = try ModelBundleListing(contentsOf: URL(filePath: "Versions/Recipes.xcdatamodeld"))
/// print(listing.names)                                       // ["Recipes", "Recipes 2", "Recipes 3"]
/// let current = try listing.readVersion(named: listing.currentName)   // parses one file
/// ```
///
/// The checks that need no model file are made here, with the errors ``ModelBundle`` throws:
/// a missing or empty bundle and a current version the bundle doesn't have. An order that
/// can't be told, or a history file that doesn't match the bundle, is kept in ``order``, not
/// thrown: a listing names the current version and reads one version without it. The
/// order is worked out from the names alone (`VersionOrdering`): a bundle whose renaming
/// identifiers order it is ordered by ``ModelBundle``, which reads them.
package struct ModelBundleListing: Sendable, Hashable {
    /// The bundle or model folder, standardized.
    package var url: URL
    /// The version names, oldest first; in name order when ``order`` can't be told.
    package var names: [String]
    /// The order of the versions and how it was found, or why it can't be told
    /// (``ModelError/Kind/ambiguousOrder(_:reason:)``,
    /// ``ModelError/Kind/historyFileMismatch(unknown:missing:)``).
    package var order: Result<VersionOrder, ModelError>
    /// The version Xcode marks as current (`.xccurrentversion`, or a compiled folder's
    /// `VersionInfo.plist`), else the newest.
    package var currentName: String
    /// What `url` is: a source bundle or version, a compiled folder or version.
    let layout: ModelLayout

    /// Lists the bundle, single `.xcdatamodel`, compiled `.momd` folder or single `.mom` at `url`.
    package init(contentsOf url: URL) throws {
        let standardized = try Self.checkedModelURL(url)
        self.url = standardized
        self.layout = try Self.layout(of: standardized)
        if layout.isSingleVersion {
            let name = Self.versionName(standardized.lastPathComponent, in: standardized.deletingLastPathComponent())
            self.names = [name]
            self.order = .success(VersionOrder(names: [name], source: .oneVersion))
            self.currentName = name
            return
        }
        let names = try Self.versionFolderNames(in: standardized).map { Self.versionName($0, in: standardized) }
        self.order = try Self.order(of: names, bundle: standardized).result
        self.names = order.names(orSorted: names)
        self.currentName = try Self.currentName(in: standardized, names: names, order: order)
    }

    /// Whether `url` is a single `.xcdatamodel` (or `.mom`) rather than a bundle of versions.
    package var isSingleVersion: Bool { layout.isSingleVersion }

    /// The `.xcdatamodel` folder (or `.mom` file) of the version `name` (which need not exist).
    package func versionURL(named name: String) -> URL {
        isSingleVersion ? url : url.appendingPathComponent(name + layout.versionSuffix)
    }

    /// Parses and validates one version, as ``ModelBundle/init(contentsOf:)`` does each.
    ///
    /// - throws: ``ModelError`` with ``ModelError/Kind/unknownVersion(_:available:)``
    ///   when the bundle has no such version; the reader's and the validation's errors otherwise.
    package func readVersion(named name: String) throws -> ObjectModel {
        guard names.contains(name) else {
            throw ModelError(path: url.path, kind: .unknownVersion(name, available: names))
        }
        return try Self.readValidatedVersion(at: versionURL(named: name), layout: layout)
    }

    // MARK: - One version without a listing

    /// `url` standardized, once it is known to be a `.xcdatamodeld` or `.xcdatamodel` folder, a
    /// compiled model folder (`.momd`) or a `.mom` file.
    /// - throws: ``ModelError`` with ``ModelError/Kind/notFound`` or
    ///   ``ModelError/Kind/notAModel``, as ``ModelBundle/init(contentsOf:)`` does.
    package static func modelURL(_ url: URL) throws(ModelError) -> URL {
        try checkedModelURL(url)
    }

    /// The current version's name as the bundle's `.xccurrentversion` declares it, without
    /// listing the bundle; nil for a single `.xcdatamodel`, a bundle without the file, or a
    /// file that can't be read (a listing reports that).
    /// - parameter bundle: A URL checked by ``modelURL(_:)``.
    package static func declaredCurrentName(inBundleAt bundle: URL) -> String? {
        switch try? layout(of: bundle) {
        case .sourceBundle?: return try? currentVersionName(in: bundle)
        case .compiledFolder?: return (try? VersionInfo(inFolder: bundle))?.currentName
        default: return nil
        }
    }

    /// Whether the bundle (or single `.xcdatamodel`) at `bundle` has a version folder named
    /// `name`, found without parsing anything: a listing would have it too, since it takes
    /// every entry named `*.xcdatamodel`, and names the version after it. On Linux it is one
    /// `stat`; on Apple's file systems, which ignore case, the bundle's entries are listed to
    /// compare the name exactly.
    /// - parameters:
    ///   - name: The version's name, its folder's name without `.xcdatamodel`.
    ///   - bundle: A URL checked by ``modelURL(_:)``.
    package static func hasVersionFolder(named name: String, inBundleAt bundle: URL) -> Bool {
        guard let layout = try? layout(of: bundle) else { return false }
        if layout.isSingleVersion {
            return versionName(bundle.lastPathComponent, in: bundle.deletingLastPathComponent()) == name
        }
        guard !name.isEmpty, !name.contains(where: { $0 == "/" }) else { return false }
        let folder = name + layout.versionSuffix
        #if canImport(Darwin)
            // APFS and HFS+ ignore case by default, so `fileExists` would find "recipes 4" in a
            // bundle whose folder is "Recipes 4", and a listing names the version after the
            // folder: only the entry's own name counts. (`==` on `String` also equates the
            // decomposed names those file systems may return.)
            guard (try? FileManager.default.contentsOfDirectory(atPath: bundle.path))?.contains(folder) == true else {
                return false
            }
        #endif
        return FileManager.default.fileExists(atPath: bundle.appendingPathComponent(folder).path)
    }

    /// Reads and validates the version `name` of the bundle (or single `.xcdatamodel`) at
    /// `bundle` without listing the others, as ``readVersion(named:)`` does; nil when
    /// ``hasVersionFolder(named:inBundleAt:)`` is false.
    /// - parameters:
    ///   - name: The version's name, its folder's name without `.xcdatamodel`.
    ///   - bundle: A URL checked by ``modelURL(_:)``.
    package static func readVersion(named name: String, inBundleAt bundle: URL) throws -> ObjectModel? {
        guard hasVersionFolder(named: name, inBundleAt: bundle) else { return nil }
        let layout = try layout(of: bundle)
        let versionURL = layout.isSingleVersion ? bundle : bundle.appendingPathComponent(name + layout.versionSuffix)
        return try readValidatedVersion(at: versionURL, layout: layout)
    }

    // MARK: - Shared with ModelBundle, so both read a bundle by the same rules.

    /// `url` standardized, once it is known to be a model: a `.xcdatamodeld` or `.xcdatamodel`
    /// folder, a compiled model folder or a `.mom` file (``layout(of:)``).
    static func checkedModelURL(_ url: URL) throws(ModelError) -> URL {
        let standardized = url.standardizedFileURL
        guard FileManager.default.fileExists(atPath: standardized.path) else {
            throw ModelError(path: standardized.path, kind: .notFound)
        }
        _ = try layout(of: standardized)
        return standardized
    }

    /// What the model at `url` is.
    /// - throws: ``ModelError/Kind/notAModel`` for anything else.
    static func layout(of url: URL) throws(ModelError) -> ModelLayout {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        switch (exists, isDirectory.boolValue, url.pathExtension) {
        case (true, true, "xcdatamodeld"): return .sourceBundle
        case (true, true, "xcdatamodel"): return .sourceVersion
        case (true, false, "mom"): return .compiledVersion
        // Any folder Xcode's compiler could have written: `X.momd`, or one a project renamed
        // (the corpus's `X.momd_precompiled`) that still holds its `VersionInfo.plist`.
        case (true, true, "momd"): return .compiledFolder
        case (true, true, _)
        where FileManager.default.fileExists(atPath: url.appendingPathComponent(VersionInfo.fileName).path):
            return .compiledFolder
        default: throw ModelError(path: url.path, kind: .notAModel)
        }
    }

    /// The version entries of a bundle (`.xcdatamodel` folders, or a compiled folder's `.mom`
    /// files), in the order the file system lists them. A compiled folder's `VersionInfo.plist`
    /// must list exactly its `.mom` files.
    static func versionFolderNames(in bundle: URL) throws -> [String] {
        let layout = try layout(of: bundle)
        let children = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
            .filter { $0.hasSuffix(layout.versionSuffix) }
        if layout == .compiledFolder {
            try VersionInfo(inFolder: bundle).checkListsExactly(
                children.map { versionName($0, in: bundle) }, in: bundle)
        }
        guard !children.isEmpty else {
            throw ModelError(path: bundle.path, kind: .emptyBundle)
        }
        return children
    }

    /// A version's name: its folder's (or `.mom` file's) name without the extension, as the
    /// reader names it. String work rather than `URL`'s, which costs microseconds per call on
    /// Linux: a bundle of a hundred versions is listed at every launch.
    static func versionName(_ folderName: String, in bundle: URL) -> String {
        let suffix = folderName.hasSuffix(".mom") ? ".mom" : ".xcdatamodel"
        // A folder named just ".xcdatamodel" has no extension to `URL`: leave it to `URL`.
        guard folderName.hasSuffix(suffix), folderName.utf8.count > suffix.utf8.count else {
            return bundle.appendingPathComponent(folderName).deletingPathExtension().lastPathComponent
        }
        return String(folderName.dropLast(suffix.count))
    }

    /// Reads one version and validates it. A single `.xcdatamodel`'s problems name its folder,
    /// a bundle version's name its `contents` file, as they always have; a `.mom`'s name the
    /// file. A compiled folder's version must have the hashes its `VersionInfo.plist` records.
    static func readValidatedVersion(at versionURL: URL, layout: ModelLayout) throws -> ObjectModel {
        switch layout {
        case .sourceBundle, .sourceVersion:
            let model = try XcodeModelReader.readVersion(at: versionURL)
            // The reader's `contents` path, by string: each `URL` operation costs microseconds on
            // Linux, and every version of a bundle comes through here.
            let file = layout.isSingleVersion ? versionURL.path : versionURL.path + "/contents"
            try model.validate(file: file)
            return model
        case .compiledFolder, .compiledVersion:
            let data: Data
            do {
                data = try Data(contentsOf: versionURL)
            } catch {
                throw ModelError(path: versionURL.path, kind: .unreadableCompiledModel(error.localizedDescription))
            }
            let name = versionName(versionURL.lastPathComponent, in: versionURL.deletingLastPathComponent())
            let model = try CompiledModel.read(archive: data, name: name, origin: versionURL.path)
            try model.validate(file: versionURL.path)
            if layout == .compiledFolder {
                try VersionInfo(inFolder: versionURL.deletingLastPathComponent()).check(model, file: versionURL.path)
            }
            return model
        }
    }

    /// The order of a bundle's versions, or why it can't be told, with what it was worked out
    /// from.
    package struct Order: Sendable {
        /// The order, or ``ModelError/Kind/ambiguousOrder(_:reason:)`` or
        /// ``ModelError/Kind/historyFileMismatch(unknown:missing:)``.
        package var result: Result<VersionOrder, ModelError>
        /// The names' ordering, to order them again with more clues (mapping models'); nil
        /// when a history file gives the order.
        package var ordering: VersionOrdering?
    }

    /// The history order of `names`: `<Name>.history` beside the bundle, else the order the
    /// history itself gives (`VersionOrdering`), with the bundle's own name as its first
    /// version and the current version as its last where the names change stem, and the
    /// renaming identifiers of `models`.
    /// - throws: A current-version file that can't be read; an order that can't be told is
    ///   ``Order/result``, not thrown.
    static func order(of names: [String], bundle: URL, models: [String: ObjectModel] = [:]) throws -> Order {
        let file = ModelBundle.historyFileURL(for: bundle)
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            // The current version is read only for names of several stems: a launch lists the
            // bundle, and a compiled folder's VersionInfo.plist grows with the history.
            let stems = Set(names.map(VersionHistory.stem))
            var current: OrderClue?
            if stems.count > 1 {
                if try layout(of: bundle) == .compiledFolder {
                    current = try VersionInfo(inFolder: bundle).currentName.map {
                        .currentVersion($0, file: bundle.appendingPathComponent(VersionInfo.fileName).path)
                    }
                } else {
                    current = try currentVersionName(in: bundle).map {
                        .currentVersion($0, file: bundle.appendingPathComponent(".xccurrentversion").path)
                    }
                }
            }
            let ordering = VersionOrdering(
                names: names, bundleName: bundle.deletingPathExtension().lastPathComponent, current: current,
                models: models, bundlePath: bundle.path)
            return Order(result: ordering.order(), ordering: ordering)
        }
        var listed: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let withoutComment = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var name = String(withoutComment).trimmingCharacters(in: .whitespaces)
            for suffix in [".xcdatamodel", ".mom"] where name.hasSuffix(suffix) {
                name = String(name.dropLast(suffix.count))
            }
            if !name.isEmpty { listed.append(name) }
        }
        let known = Set(names)
        let listedSet = Set(listed)
        let unknown = listed.filter { !known.contains($0) }
        let missing = names.filter { !listedSet.contains($0) }.sorted()
        guard unknown.isEmpty, missing.isEmpty, listedSet.count == listed.count else {
            return Order(
                result: .failure(.historyFileMismatch(file: file.path, unknown: unknown, missing: missing)),
                ordering: nil)
        }
        return Order(result: .success(VersionOrder(names: listed, source: .historyFile(file.path))), ordering: nil)
    }

    /// The current version's name: `.xccurrentversion`'s (a compiled folder's `VersionInfo.plist`'s)
    /// when the file names one, else the newest.
    /// - throws: The order's problem when the bundle names no current version and the order
    ///   can't be told, so that the newest can't either.
    static func currentName(
        in bundle: URL, names: [String], order: Result<VersionOrder, ModelError>
    ) throws -> String {
        if try layout(of: bundle) == .compiledFolder {
            let declared = try VersionInfo(inFolder: bundle).currentName
            if let declared, !names.contains(declared) {
                throw ModelError(
                    path: bundle.path,
                    kind: .versionInfoMismatch(
                        "its VersionInfo.plist names the current version '\(declared)', which has no .mom file"))
            }
            guard let current = try declared ?? order.get().names.last else {
                throw ModelError(path: bundle.path, kind: .emptyBundle)
            }
            return current
        }
        let currentName = try currentVersionName(in: bundle) ?? order.get().names.last
        guard let currentName, names.contains(currentName) else {
            throw ModelError(path: bundle.path, kind: .unknownCurrentVersion(currentName ?? ""))
        }
        return currentName
    }

    private static func currentVersionName(in bundle: URL) throws -> String? {
        let file = bundle.appendingPathComponent(".xccurrentversion")
        guard let data = try? Data(contentsOf: file) else { return nil }
        guard
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let name = plist["_XCCurrentVersionName"] as? String
        else {
            throw ModelError(path: file.path, kind: .malformed("no _XCCurrentVersionName string"))
        }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }
}

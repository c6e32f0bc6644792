import Foundation

/// The versions of a model as Xcode keeps them: a `.xcdatamodeld` bundle (or a single
/// `.xcdatamodel`), in history order, with the current version. What an app ships, the compiled
/// `.momd` folder (or a single `.mom`), reads the same way: see ``ModelBundleListing``.
///
/// ```swift
/// let bundle = try ModelBundle(contentsOf: URL(filePath: "Versions/Recipes.xcdatamodeld"))
/// print(bundle.history.names)   // ["Recipes", "Recipes 2", "Recipes 3"]
/// print(bundle.current.name)    // "Recipes 3"
/// ```
///
/// The order comes from `<Name>.history` beside the bundle when it exists (one version name
/// per line, oldest first; `#` starts a comment), else from the natural order of the names.
package struct ModelBundle: Sendable {
    /// The bundle or model folder this was read from.
    package var url: URL
    /// All versions, oldest first.
    package var history: VersionHistory
    /// The version Xcode marks as current (`.xccurrentversion`, or a compiled folder's
    /// `VersionInfo.plist`), else the newest.
    package var current: ObjectModel

    /// Reads a `.xcdatamodeld` bundle, a single `.xcdatamodel`, a compiled `.momd` folder or a
    /// single `.mom`, and validates every version. A compiled folder's versions must have the
    /// entity hashes its `VersionInfo.plist` records.
    ///
    /// To read one version only, see ``ModelBundleListing``.
    package init(contentsOf url: URL) throws {
        let standardized = try ModelBundleListing.checkedModelURL(url)
        self.url = standardized
        let layout = try ModelBundleListing.layout(of: standardized)
        if layout.isSingleVersion {
            let model = try ModelBundleListing.readValidatedVersion(at: standardized, layout: layout)
            self.history = VersionHistory([model])
            self.current = model
            return
        }
        // Every version is read before the order is worked out, so a broken model file is
        // reported before a problem with the order. They are read on every core: an app with a
        // long history reads them all when it makes its upgrader. The first broken one in
        // folder order is reported, as a loop would.
        var models: [String: ObjectModel] = [:]
        // `appending(path:directoryHint:)`, not `appendingPathComponent(_:)`, which asks the file
        // system whether each version is a folder; reading it finds out.
        let hint: URL.DirectoryHint = layout == .compiledFolder ? .notDirectory : .isDirectory
        let versionURLs = try ModelBundleListing.versionFolderNames(in: standardized).map {
            standardized.appending(path: $0, directoryHint: hint)
        }
        for result in versionURLs.concurrentMap({ try ModelBundleListing.readValidatedVersion(at: $0, layout: layout) })
        {
            let model = try result.get()
            models[model.name] = model
        }
        let names = Array(models.keys)
        let order = try ModelBundleListing.order(of: names, bundle: standardized)
        self.history = VersionHistory(order.compactMap { models[$0] })
        let currentName = try ModelBundleListing.currentName(in: standardized, names: names, order: order)
        guard let current = models[currentName] else {
            throw ModelError(path: standardized.path, kind: .unknownCurrentVersion(currentName))
        }
        self.current = current
    }

    /// The version with this name, or an error listing the available ones.
    package func version(named name: String) throws(ModelError) -> ObjectModel {
        guard let model = history.version(named: name) else {
            throw ModelError(path: url.path, kind: .unknownVersion(name, available: history.names))
        }
        return model
    }

    /// The history file read for a bundle at `bundle`: `<Name>.history` beside it.
    package static func historyFileURL(for bundle: URL) -> URL {
        bundle.deletingPathExtension().appendingPathExtension("history")
    }
}

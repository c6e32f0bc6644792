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
/// per line, oldest first; `#` starts a comment), else from the history itself
/// (`VersionOrdering`): the names' natural order within each stem, the bundle's name as the
/// first version and the current version as the last, and renaming identifiers. The mapping
/// models beside the bundle can order it further (``orderedAgain(withMappingClues:)``).
///
/// A bundle whose order can't be told is still read: identifying a store, creating one,
/// printing a version's schema or a step's diff need no order. ``order`` keeps the problem,
/// and only what needs the order (planning a path between versions: ``orderedHistory()``)
/// throws it.
package struct ModelBundle: Sendable {
    /// The bundle or model folder this was read from.
    package var url: URL
    /// All versions, oldest first; in name order when ``order`` can't be told.
    package var history: VersionHistory
    /// The order of the versions and how it was found, or why it can't be told
    /// (``ModelError/Kind/ambiguousOrder(_:reason:)``,
    /// ``ModelError/Kind/historyFileMismatch(unknown:missing:)``).
    package var order: Result<VersionOrder, ModelError>
    /// The version Xcode marks as current (`.xccurrentversion`, or a compiled folder's
    /// `VersionInfo.plist`), else the newest.
    package var current: ObjectModel
    /// What the order was worked out from, to work it out again with mapping models' clues;
    /// nil when a history file gives it, or for one version.
    private var nameOrdering: VersionOrdering?

    /// Reads a `.xcdatamodeld` bundle, a single `.xcdatamodel`, a compiled `.momd` folder or a
    /// single `.mom`, and validates every version. A compiled folder's versions must have the
    /// entity hashes its `VersionInfo.plist` records. An order that can't be told is kept in
    /// ``order``, not thrown, unless the bundle names no current version either.
    ///
    /// To read one version only, see ``ModelBundleListing``.
    package init(contentsOf url: URL) throws {
        let standardized = try ModelBundleListing.checkedModelURL(url)
        self.url = standardized
        let layout = try ModelBundleListing.layout(of: standardized)
        if layout.isSingleVersion {
            let model = try ModelBundleListing.readValidatedVersion(at: standardized, layout: layout)
            self.history = VersionHistory([model])
            self.order = .success(VersionOrder(names: [model.name], source: .oneVersion))
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
        let order = try ModelBundleListing.order(of: names, bundle: standardized, models: models)
        self.order = order.result
        self.nameOrdering = order.ordering
        self.history = VersionHistory(order.result.names(orSorted: names).compactMap { models[$0] })
        let currentName = try ModelBundleListing.currentName(in: standardized, names: names, order: order.result)
        guard let current = models[currentName] else {
            throw ModelError(path: standardized.path, kind: .unknownCurrentVersion(currentName))
        }
        self.current = current
    }

    /// The versions in their order, for what plans between them.
    /// - throws: ``order``'s problem when the order can't be told.
    package func orderedHistory() throws -> VersionHistory {
        _ = try order.get()
        return history
    }

    /// Whether mapping models' clues count: the order is worked out from the history (no
    /// history file gives it), and the names and what Xcode records leave it open.
    package var orderNeedsMappingClues: Bool {
        nameOrdering.map { !$0.isSettledByNames } ?? false
    }

    /// This bundle with its order worked out again, weighing `clues` (one
    /// ``OrderClue/mappingModel(from:to:file:)`` per mapping model that names its versions)
    /// after what Xcode records and before renaming identifiers; unchanged when a history file
    /// gives the order or the names settle it (``orderNeedsMappingClues``).
    package func orderedAgain(withMappingClues clues: [OrderClue]) -> ModelBundle {
        guard let nameOrdering, orderNeedsMappingClues else { return self }
        var bundle = self
        bundle.order = nameOrdering.order(mappingClues: clues)
        let names = bundle.order.names(orSorted: history.names)
        bundle.history = VersionHistory(names.compactMap { history.version(named: $0) })
        return bundle
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

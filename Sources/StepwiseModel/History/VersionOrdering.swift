/// Works out the order of a bundle's versions from the history itself, when no history file
/// lists it (``VersionOrder/Source/workedOut(_:)``).
///
/// Names are grouped by stem (``VersionHistory/stem(_:)``: `ArtsyPartner`, `ArtsyFolio`, the
/// empty stem of `2` … `13`), and each stem's names are in natural order. A history changes its
/// naming scheme now and then, and each scheme names a run of versions, so the stems are
/// ordered as blocks, by the ``OrderClue``s between their versions, strongest first:
/// 1. the bundle's own name first and the current version last (what Xcode itself records);
/// 2. mapping models, source before destination (given by the caller, who reads them);
/// 3. renaming identifiers (``renamingClues()``), read from the models.
///
/// A weaker kind of clue is consulted only while the stronger ones leave two stems unordered,
/// and a clue that contradicts others (the stems it orders are already ordered the other way,
/// or clues of its kind order them both ways: ``StemGraph/add(_:)``) is set aside rather than
/// believed: real bundles hold downgrade mappings, and renaming identifiers used as stable
/// identifiers (Wire's `zmessaging2.53.0` gives `isSilenced` the renaming identifier
/// `mutedStatus`, the name the attribute has from `2.54.0` on, the reverse of Core Data's
/// documented meaning).
///
/// When the stems still can't all be ordered, the order is ambiguous: the error names the
/// versions whose stems could go either way. Versions of one stem interleaved with another's
/// can't be told apart from two blocks either: such a history needs its history file.
package struct VersionOrdering: Sendable {
    /// A stem and its versions, in natural order.
    struct Stem: Sendable {
        var name: String
        var versions: [String]
    }

    /// The stems, in name order (so that what is reported doesn't depend on the order a
    /// folder listed its versions in).
    let stems: [Stem]
    /// The stem of each version, by index in ``stems``.
    let stemOfVersion: [String: Int]
    /// What Xcode records: the bundle's name as its first version, the current version as its
    /// last; each only when a version has that name.
    let xcodeClues: [OrderClue]
    /// The versions, for renaming clues; empty when only the names were listed
    /// (``ModelBundleListing``).
    let models: [String: ObjectModel]
    /// The bundle, for the error's path.
    let bundlePath: String?
    /// Two names of one stem with the same number ("Model 2", "Model 02"): no clue orders them.
    let sameNumber: ModelError?

    /// An ordering of `names`.
    ///
    /// - parameters:
    ///   - names: The version names, in any order.
    ///   - bundleName: The bundle's own name (`Model` for `Model.xcdatamodeld`).
    ///   - current: The current version's name and the file that names it, when the bundle
    ///     names one.
    ///   - models: The versions by name, for renaming clues; none by default.
    ///   - bundlePath: The bundle, named by the error when the order is ambiguous.
    package init(
        names: [String], bundleName: String?, current: OrderClue? = nil, models: [String: ObjectModel] = [:],
        bundlePath: String? = nil
    ) {
        let byStem = Dictionary(grouping: names, by: VersionHistory.stem)
        var stems: [Stem] = []
        var sameNumber: ModelError?
        for stem in byStem.keys.sorted() {
            do {
                stems.append(Stem(name: stem, versions: try VersionHistory.naturalOrder(byStem[stem] ?? [])))
            } catch {
                sameNumber = sameNumber ?? ModelError(path: bundlePath, kind: error.kind)
                stems.append(Stem(name: stem, versions: (byStem[stem] ?? []).sorted()))
            }
        }
        self.stems = stems
        var stemOfVersion: [String: Int] = [:]
        for (position, stem) in stems.enumerated() {
            for name in stem.versions { stemOfVersion[name] = position }
        }
        self.stemOfVersion = stemOfVersion
        var xcodeClues: [OrderClue] = []
        if let bundleName, names.contains(bundleName) { xcodeClues.append(.bundleName(bundleName)) }
        if case .currentVersion(let name, _)? = current, names.contains(name), let current {
            xcodeClues.append(current)
        }
        self.xcodeClues = xcodeClues
        self.models = models
        self.bundlePath = bundlePath
        self.sameNumber = sameNumber
    }

    /// Whether the names and what Xcode records settle the order, or its problem, alone:
    /// mapping models can add nothing.
    package var isSettledByNames: Bool {
        if sameNumber != nil || stems.count < 2 { return true }
        var graph = StemGraph(count: stems.count)
        _ = graph.add(xcodeClues.flatMap(edges))
        return graph.isTotal
    }

    /// The order, or ``ModelError/Kind/ambiguousOrder(_:reason:)`` naming the versions that
    /// could go either way.
    ///
    /// - parameter mappingClues: ``OrderClue/mappingModel(from:to:file:)`` clues, from the
    ///   mapping models of the bundle that name their versions.
    package func order(mappingClues: [OrderClue] = []) -> Result<VersionOrder, ModelError> {
        if let sameNumber { return .failure(sameNumber) }
        var used: [OrderClue] = [.naturalOrder(stems: stems.map(\.name))]
        var graph = StemGraph(count: stems.count)
        var setAside: [OrderClue] = []
        let kinds: [() -> [OrderClue]] = [{ xcodeClues }, { mappingClues }, renamingClues]
        for clues in kinds where !graph.isTotal {
            let candidates = clues().flatMap(edges)
            let kept = graph.add(candidates)
            // A clue is listed once, however many pairs of stems it orders.
            for edge in candidates {
                if kept.contains(edge) {
                    if !used.contains(edge.clue) { used.append(edge.clue) }
                } else if !setAside.contains(edge.clue) {
                    setAside.append(edge.clue)
                }
            }
        }
        guard graph.isTotal else { return .failure(ambiguity(graph, setAside: setAside)) }
        let names = graph.topologicalOrder().flatMap { stems[$0].versions }
        return .success(VersionOrder(names: names, source: .workedOut(used)))
    }

    /// The pairs of stems a clue orders: each other stem after the first version's, before the
    /// current version's; the stem of a step's or a rename's earlier version before the later's.
    private func edges(_ clue: OrderClue) -> [StemEdge] {
        switch clue {
        case .naturalOrder:
            return []
        case .bundleName(let name):
            guard let first = stemOfVersion[name] else { return [] }
            return stems.indices.filter { $0 != first }.map { StemEdge(from: first, to: $0, clue: clue) }
        case .currentVersion(let name, _):
            guard let last = stemOfVersion[name] else { return [] }
            return stems.indices.filter { $0 != last }.map { StemEdge(from: $0, to: last, clue: clue) }
        case .mappingModel(let earlier, let later, _), .renamingIdentifier(let earlier, let later, _, _):
            guard let from = stemOfVersion[earlier], let to = stemOfVersion[later], from != to else { return [] }
            return [StemEdge(from: from, to: to, clue: clue)]
        }
    }

    /// The error for stems left unordered: every version of a stem that some other stem could
    /// come before or after, and those pairs of stems.
    private func ambiguity(_ graph: StemGraph, setAside: [OrderClue]) -> ModelError {
        let pairs = graph.unorderedPairs()
        let involved = Set(pairs.flatMap { [$0.first, $0.second] })
        let names = involved.sorted().flatMap { stems[$0].versions }.sorted()
        let shown = pairs.prefix(4).map { "\(label(stems[$0.first])) or \(label(stems[$0.second]))" }
        let more = pairs.count > shown.count ? ", and \(pairs.count - shown.count) more" : ""
        var reason =
            "the names have \(stems.count) stems (\(stems.map { "'\($0.name)'" }.joined(separator: ", "))), and nothing in the bundle tells which comes first: \(shown.joined(separator: "; "))\(more)"
        if !setAside.isEmpty {
            let clues = setAside.prefix(2).map(\.description).joined(separator: "; ")
            reason += " (set aside because other clues contradict them: \(clues)\(setAside.count > 2 ? "; …" : ""))"
        }
        return ModelError(path: bundlePath, kind: .ambiguousOrder(names, reason: reason))
    }

    /// `'Launch'`, or `'Foo 2' … 'Foo 5'` for a stem of several versions.
    private func label(_ stem: Stem) -> String {
        guard let first = stem.versions.first, let last = stem.versions.last, first != last else {
            return "'\(stem.versions.first ?? stem.name)'"
        }
        return "'\(first)' … '\(last)'"
    }
}

/// One clue's "this stem before that one", by index in ``VersionOrdering/stems``.
struct StemEdge: Sendable, Hashable {
    var from: Int
    var to: Int
    var clue: OrderClue
}

/// Which stems come before which, as far as the clues kept so far say, closed under
/// transitivity. Stems are few (a history changes its naming scheme a handful of times), so
/// the closure is a plain matrix.
struct StemGraph: Sendable {
    /// `reaches[a][b]`: stem `a` comes before stem `b`.
    private var reaches: [[Bool]]

    init(count: Int) {
        reaches = Array(repeating: Array(repeating: false, count: count), count: count)
    }

    /// Whether every two stems are ordered.
    var isTotal: Bool {
        unorderedPairs().isEmpty
    }

    /// Adds the edges that contradict nothing and returns them, in two passes:
    /// 1. an edge whose stems the graph already orders the other way is set aside: stronger
    ///    clues said otherwise;
    /// 2. of the rest, an edge the new edges together order both ways (a cycle among them) is
    ///    set aside with every other new edge in that cycle: clues of one kind disagree, and
    ///    none is believed over another.
    ///
    /// A wrong clue is set aside in the first pass before it can take right ones of its kind
    /// with it into a cycle in the second.
    mutating func add(_ edges: [StemEdge]) -> Set<StemEdge> {
        let consistent = edges.filter { !reaches[$0.to][$0.from] }
        var candidate = self
        for edge in consistent { candidate.link(edge.from, edge.to) }
        let kept = Set(consistent.filter { !candidate.reaches[$0.to][$0.from] })
        for edge in kept { link(edge.from, edge.to) }
        return kept
    }

    /// Two stems no clue orders, by index, lower first.
    struct Pair: Sendable, Hashable {
        var first: Int
        var second: Int
    }

    /// The pairs of stems neither order reaches.
    func unorderedPairs() -> [Pair] {
        var pairs: [Pair] = []
        for a in reaches.indices {
            for b in reaches.indices where a < b && !reaches[a][b] && !reaches[b][a] {
                pairs.append(Pair(first: a, second: b))
            }
        }
        return pairs
    }

    /// The stems, first first; meaningful once ``isTotal``: each stem has as many stems
    /// before it as its position.
    func topologicalOrder() -> [Int] {
        reaches.indices.sorted { a, b in
            reaches.indices.filter { reaches[$0][a] }.count < reaches.indices.filter { reaches[$0][b] }.count
        }
    }

    /// Records `from` before `to`, and everything that follows by transitivity.
    private mutating func link(_ from: Int, _ to: Int) {
        guard !reaches[from][to] else { return }
        let before = reaches.indices.filter { $0 == from || reaches[$0][from] }
        let after = reaches.indices.filter { $0 == to || reaches[to][$0] }
        for a in before {
            for b in after { reaches[a][b] = true }
        }
    }
}

/// Pairs destination entities (or properties) with the source ones they continue, by name
/// and renaming identifier, as Core Data does.
///
/// Each destination element claims at most one source element, trying in order:
/// 1. the source element named by its renaming identifier (Xcode's `elementID`): a rename;
/// 2. the source element with its own name;
/// 3. a source element with the same renaming identifier: a rename made in an earlier
///    version whose identifier both versions still carry.
///
/// A source element claimed by exactly one destination element is matched to it. One claimed
/// by several is ambiguous: none of its claimants is matched, and the caller reports them.
/// Source elements nobody claims are removed; destination elements that claim nothing are new.
struct NameMatcher {
    /// A name and the renaming identifier it may carry.
    struct Element {
        var name: String
        var renamingIdentifier: String?
    }

    /// Destination name → source name, for the matched pairs.
    private(set) var sourceNames: [String: String] = [:]
    /// Source name → destination name, for the matched pairs.
    private(set) var destinationNames: [String: String] = [:]
    /// Source name → the destination names that all claim it (two or more), in destination order.
    private(set) var ambiguousClaims: [String: [String]] = [:]

    init(destinations: [Element], sources: [Element]) {
        let sourceNames = Set(sources.map(\.name))
        var claims: [String: [String]] = [:]
        var claimOrder: [String] = []
        for destination in destinations {
            guard let claimed = Self.claim(of: destination, sources: sources, sourceNames: sourceNames) else {
                continue
            }
            if claims[claimed] == nil { claimOrder.append(claimed) }
            claims[claimed, default: []].append(destination.name)
        }
        for source in claimOrder {
            let claimants = claims[source] ?? []
            if claimants.count == 1 {
                self.sourceNames[claimants[0]] = source
                destinationNames[source] = claimants[0]
            } else {
                ambiguousClaims[source] = claimants
            }
        }
    }

    /// The source element a destination element continues, if it was matched.
    func source(of destinationName: String) -> String? {
        sourceNames[destinationName]
    }

    /// The destination element that continues a source element, if any.
    func destination(of sourceName: String) -> String? {
        destinationNames[sourceName]
    }

    /// The source element a destination element claims, with the others that claim it too.
    func ambiguity(of destinationName: String) -> (source: String, claimants: [String])? {
        ambiguousClaims.first { $0.value.contains(destinationName) }.map { ($0.key, $0.value) }
    }

    /// Whether some destination element continues this source element.
    func isMatched(source name: String) -> Bool {
        destinationNames[name] != nil
    }

    /// Whether several destination elements claim this source element.
    func isAmbiguous(source name: String) -> Bool {
        ambiguousClaims[name] != nil
    }

    private static func claim(of destination: Element, sources: [Element], sourceNames: Set<String>) -> String? {
        if let identifier = destination.renamingIdentifier, sourceNames.contains(identifier) {
            return identifier
        }
        if sourceNames.contains(destination.name) {
            return destination.name
        }
        if let identifier = destination.renamingIdentifier {
            return sources.first { $0.renamingIdentifier == identifier }?.name
        }
        return nil
    }
}

import StepwiseModel
import StepwiseStore

/// A composite attribute's whole value (``MappingValue/composite(_:)``), put together from the
/// leaves it is stored as and split back into them.
///
/// A store holds a composite only as its leaves, one column each, named by their key paths
/// (`author.person`, `author.born.year`: ``/StepwiseModel/Attribute/flattenedElements``). So a
/// composite is known by its leaves alone: `author` is a composite of an entity when some of
/// its stored attributes are named `author.…`, which is also how the flattened models every
/// step works on can tell, without the composite's own description.
///
/// Core Data's key-value coding reads the whole value as an `NSDictionary` of the elements by
/// name, a nested composite as a nested dictionary, and writes one back the same way: an
/// element the dictionary leaves out is nil, an element the composite doesn't have is refused.
enum CompositeValue {
    /// The leaves of the composite at `path` among `names` (stored attribute names): each
    /// leaf's name and its key path inside the composite (`["born", "year"]`). Empty when
    /// `path` names no composite.
    static func leaves(of path: String, among names: some Sequence<String>) -> [(name: String, element: [String])] {
        let prefix = path + String(Attribute.elementPathSeparator)
        return names.compactMap { name in
            guard name.hasPrefix(prefix) else { return nil }
            let element = name.dropFirst(prefix.count).split(separator: Attribute.elementPathSeparator).map(String.init)
            return (name, element)
        }
    }

    /// The leaves of the composite at `path` of an entity's stored attributes.
    static func leaves(of path: String, in entity: EntityLayout) -> [(name: String, element: [String])] {
        leaves(of: path, among: entity.attributes.lazy.map(\.name))
    }

    /// The whole value of the composite at `path` in `object`'s row, or nil when `entity` has
    /// no composite there.
    static func read(_ path: String, from object: StoredObject, entity: EntityLayout) -> MappingValue? {
        let leaves = leaves(of: path, in: entity)
        guard !leaves.isEmpty else { return nil }
        return assemble(leaves.map { ($0.element[...], MappingValue(object[$0.name])) })
    }

    /// The whole value made of leaf values, each at its key path inside the composite.
    ///
    /// A composite whose leaves are all NULL is nil: that is how a store holds a nil composite
    /// (every column NULL), and the two can't be told apart.
    static func assemble(_ leaves: [(element: ArraySlice<String>, value: MappingValue)]) -> MappingValue {
        var elements: [String: MappingValue] = [:]
        var nested: [String: [(element: ArraySlice<String>, value: MappingValue)]] = [:]
        for (element, value) in leaves {
            guard let first = element.first else { continue }
            if element.count == 1 {
                elements[first] = value
            } else {
                nested[first, default: []].append((element.dropFirst(), value))
            }
        }
        for (name, leaves) in nested { elements[name] = assemble(leaves) }
        return elements.values.allSatisfy { $0 == .null } ? .null : .composite(elements)
    }

    /// The element at `path` inside a whole value, as `valueForKeyPath:` reads it: nil for an
    /// element left out, and for any element of a nil composite.
    static func element(_ path: some Collection<String>, of value: MappingValue) -> MappingValue {
        var value = value
        for key in path {
            guard case .composite(let elements) = value, let next = elements[key] else { return .null }
            value = next
        }
        return value
    }

    /// Checks that `value` fits the composite `attribute` whose leaves are at `leaves` (key
    /// paths inside it): nil, or a composite every element of which the composite has, nested
    /// composites checked in turn. A leaf's own value is checked when it is converted for its
    /// column, as any attribute's.
    ///
    /// - throws: ``MappingError/Kind/unknownCompositeElement(entity:attribute:element:version:)``
    ///   or ``MappingError/Kind/notACompositeValue(entity:attribute:given:)``.
    static func check(
        _ value: MappingValue, fits leaves: [[String]], entity: String, attribute: String, version: String,
        at prefix: [String] = []
    ) throws(MappingError) {
        switch value {
        case .null:
            return
        case .composite(let elements):
            for (name, element) in elements.sorted(by: { $0.key < $1.key }) {
                let below = leaves.filter { $0.first == name }
                guard !below.isEmpty else {
                    throw MappingError(
                        .unknownCompositeElement(
                            entity: entity, attribute: attribute, element: (prefix + [name]).joined(separator: "."),
                            version: version))
                }
                // A nested composite's elements are checked in turn; a leaf's value is
                // converted (or refused) for its column later.
                if below.allSatisfy({ $0.count > 1 }) {
                    try check(
                        element, fits: below.map { Array($0.dropFirst()) }, entity: entity, attribute: attribute,
                        version: version, at: prefix + [name])
                }
            }
        default:
            let path = ([attribute] + prefix).joined(separator: ".")
            throw MappingError(.notACompositeValue(entity: entity, attribute: path, given: value.formDescription))
        }
    }
}

extension MappingValue {
    /// What kind of value this is, for error messages: never its content.
    var formDescription: String {
        switch self {
        case .null: "nil"
        case .integer: "an integer"
        case .double: "a number"
        case .string: "text"
        case .data: "bytes"
        case .object: "an object"
        case .objects: "a list of objects"
        case .array: "a list"
        case .transformable: "a transformable value"
        case .composite: "a composite value"
        }
    }
}

import StepwiseModel

/// One reason a mapping can't be inferred between two model versions, with what would fix it.
///
/// `MappingInference/inferMapping(from:to:)` collects every problem of a step before it
/// throws, so one run lists all the entities and properties that need attention:
///
/// ```
/// Post.color: is a new required relationship to Color, which existing Post rows can't fill.
///   Make 'color' optional, or write an explicit mapping for Post.color (a policy that creates the Color).
/// ```
///
/// ## Topics
/// - ``Reason``
/// - ``message``
/// - ``fix``
public struct InferenceProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What is wrong, with the names and types involved.
    public enum Reason: Sendable, Hashable, Codable {
        /// A new non-optional attribute without a default value: existing rows have no value for it.
        case newRequiredAttribute
        /// An optional attribute becomes non-optional without a default value for the rows that hold NULL.
        case attributeBecomesRequired
        /// The attribute's type changes in a way that can lose values (see ``TypeWidening`` for
        /// the changes that can't).
        case lossyTypeChange(from: AttributeType, to: AttributeType)
        /// A property keeps its name (or renaming identifier) but changes between attribute and
        /// relationship.
        case propertyKindChange(wasRelationship: Bool)
        /// A new relationship that must hold an object (a non-optional to-one, or a to-many
        /// with a minimum count): existing rows have nothing to point at.
        case newRequiredRelationship(destination: String)
        /// A relationship that may be empty in the source must hold objects in the destination.
        case relationshipBecomesRequired
        /// Entities of separate source hierarchies end up in one destination hierarchy.
        /// Core Data keeps a hierarchy in one table with one primary-key sequence, and can't
        /// infer such a merge.
        case mergedHierarchies(entities: [String], sourceRoots: [String], destinationRoot: String)
        /// Several destination entities or properties claim the same source one, by name or
        /// renaming identifier.
        case ambiguousRename(source: String, claimants: [String])
        /// A concrete entity, which has rows, becomes abstract, which can't.
        case entityBecomesAbstract
    }

    /// The destination entity concerned (or the source entity, when it has no destination).
    public var entity: String
    /// The destination property concerned, if any.
    public var property: String?
    /// What is wrong.
    public var reason: Reason

    public init(entity: String, property: String? = nil, reason: Reason) {
        self.entity = entity
        self.property = property
        self.reason = reason
    }

    /// `Entity.property`, or the entity alone.
    public var place: String {
        property.map { "\(entity).\($0)" } ?? entity
    }

    /// What is wrong, as a sentence fragment that follows ``place``.
    public var message: String {
        switch reason {
        case .newRequiredAttribute:
            return "is a new required attribute without a default value, which existing \(entity) rows can't fill"
        case .attributeBecomesRequired:
            return "becomes required without a default value for the \(entity) rows that have none"
        case .lossyTypeChange(let from, let to) where to == .boolean && Self.isInteger(from):
            return
                "changes type from \(from.rawValue) to Boolean, which stores 0 and 1 only, and inference can't tell which numbers mean true"
        case .lossyTypeChange(let from, let to):
            return "changes type from \(from.rawValue) to \(to.rawValue), which can lose or reject values"
        case .propertyKindChange(let wasRelationship):
            return wasRelationship
                ? "was a relationship and becomes an attribute" : "was an attribute and becomes a relationship"
        case .newRequiredRelationship(let destination):
            return "is a new required relationship to \(destination), which existing \(entity) rows can't fill"
        case .relationshipBecomesRequired:
            return "becomes a required relationship, but source \(entity) rows may have none"
        case .mergedHierarchies(let entities, let roots, let root):
            return
                "\(Self.list(entities)) come from separate hierarchies (rooted at \(Self.list(roots))) but share the hierarchy of \(root); Core Data keeps a hierarchy in one table and can't infer a merge"
        case .ambiguousRename(let source, let claimants):
            return
                "\(Self.list(claimants)) claim the same source \(property == nil ? "entity" : "property") '\(source)' (by name or renaming identifier)"
        case .entityBecomesAbstract:
            return "becomes abstract, so its existing rows can't be kept"
        }
    }

    /// A concrete way to make the step inferable, or to write the mapping it needs.
    public var fix: String {
        let name = property ?? entity
        switch reason {
        case .newRequiredAttribute:
            return "Give '\(name)' a default value or make it optional."
        case .attributeBecomesRequired:
            return "Give '\(name)' a default value (rows holding NULL get it) or keep it optional."
        case .lossyTypeChange(let from, let to):
            let widenings = TypeWidening.widenings(from: from).map(\.destination.rawValue)
            let keep =
                widenings.isEmpty
                ? "Keep '\(name)' \(Self.article(from)) \(from.rawValue)"
                : "Keep '\(name)' \(Self.article(from)) \(from.rawValue) (or make it \(Self.list(widenings, conjunction: "or")), which inference widens it to)"
            if to == .boolean && Self.isInteger(from) {
                return
                    "\(keep), or write an explicit mapping for \(place) that decides which numbers are true: an entity migration policy, or `$source.\(name)` if every stored value is already 0 or 1."
            }
            return "\(keep), or write an explicit mapping for \(place) that converts its values."
        case .propertyKindChange:
            return
                "Give the new property another name (and remove its renaming identifier), or write an explicit mapping for \(place)."
        case .newRequiredRelationship(let destination):
            return
                "Make '\(name)' optional, or write an explicit mapping for \(place) (a policy that finds or creates the \(destination))."
        case .relationshipBecomesRequired:
            return
                "Keep '\(name)' optional, or write an explicit mapping for \(place) that fills it for every \(entity)."
        case .mergedHierarchies:
            return "Keep these entities in separate hierarchies, or write an explicit mapping model for this step."
        case .ambiguousRename(let source, let claimants):
            return
                "Let only one of \(Self.list(claimants)) take over '\(source)': change the others' names or renaming identifiers."
        case .entityBecomesAbstract:
            return "Keep '\(entity)' concrete, or write an explicit mapping that moves its rows to a concrete entity."
        }
    }

    public var description: String {
        "\(place): \(message). \(fix)"
    }

    static func list(_ names: [String], conjunction: String = "and") -> String {
        switch names.count {
        case 0: return ""
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names[names.count - 1]
        }
    }

    /// `an Integer 16`, `an ObjectID`; `a String`, and `a UUID`, `a URI` as they are read aloud.
    private static func article(_ type: AttributeType) -> String {
        type.rawValue.first.map { "AEIO".contains($0) } == true ? "an" : "a"
    }

    private static func isInteger(_ type: AttributeType) -> Bool {
        [.integer16, .integer32, .integer64].contains(type)
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case entity, property, reason, message, fix
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entity = try container.decode(String.self, forKey: .entity)
        property = try container.decodeIfPresent(String.self, forKey: .property)
        reason = try container.decode(Reason.self, forKey: .reason)
    }

    /// Encodes `entity`, `property` (null for entity-level problems), `reason` (the case and
    /// its values) and, for people reading the JSON, `message` and `fix`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .entity: entity, .property: property, .reason: reason, .message: message, .fix: fix,
        ])
    }
}

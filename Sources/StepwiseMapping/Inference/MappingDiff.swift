import StepwiseModel

/// A readable summary of an inferred mapping: what happens to each entity and property
/// between two model versions.
///
/// ```swift
/// let mapping = try MappingInference.inferMapping(from: moody1, to: moody2)
/// let diff = MappingDiff(mapping, from: moody1, to: moody2)
/// print(diff)
/// // Moody → Moody 2
/// //   = Continent: unchanged (6 properties)
/// //   …
/// //   ~ Mood: changed
/// //       + rating: Integer 16, required, default 0
/// //       ~ remoteID: renamed from remoteIdentifier
/// //       = 7 properties kept
/// ```
///
/// Entities come in the mapping's order: destination entities (kept, renamed or added), then
/// removed source entities, then source entities the mapping leaves out (``EntityDiff/Change/leftOut``).
/// Every entry whose data the step drops is marked (``EntityDiff/dropped``,
/// ``PropertyDiff/dropped``), as ``DroppedData/planned(by:from:to:)`` finds them. A kept or renamed entity lists every stored property it ends up
/// with (inherited ones included), then the source properties it drops. Added and removed
/// entities list no properties. It is `Codable`, for `stepwise diff --json`.
///
/// The diff reads plain `$source.<name>` attribute expressions and Core Data's
/// `destinationInstancesForEntityMappingNamed:sourceInstances:` relationship expressions, the
/// only ones inference writes. Built from a hand-written mapping, a property with any other
/// expression is listed as added, its expression in its notes.
///
/// ## Topics
/// - ``init(_:from:to:)``
/// - ``EntityDiff``
/// - ``PropertyDiff``
package struct MappingDiff: Sendable, Hashable, Codable {
    /// The source version's name.
    package var from: String
    /// The destination version's name.
    package var to: String
    /// One entry per entity mapping, in the mapping's order.
    package var entities: [EntityDiff]

    package init(from: String, to: String, entities: [EntityDiff]) {
        self.from = from
        self.to = to
        self.entities = entities
    }

    /// The entry of the entity with this name (its destination name, or its source name when removed).
    package func entity(named name: String) -> EntityDiff? {
        entities.first { $0.name == name }
    }

    /// Whether anything changes at all: some entity is not kept with the same properties.
    package var hasChanges: Bool {
        entities.contains { $0.change != .kept || $0.mappingKind != .copy }
    }
}

/// What happens to one entity in a ``MappingDiff``.
package struct EntityDiff: Sendable, Hashable, Codable {
    /// The entity-level change.
    package enum Change: String, Sendable, Hashable, Codable {
        /// Same name in both versions (its properties may still change: see ``EntityDiff/mappingKind``).
        case kept
        /// Matched through the destination's renaming identifier.
        case renamed
        /// Only in the destination: no rows are created.
        case added
        /// Only in the source: its rows are dropped.
        case removed
        /// In both versions, but the (explicit) mapping has no entity mapping for it: its rows
        /// are dropped by omission.
        case leftOut
    }

    /// The parent before and after, for an entity whose place in a hierarchy changes.
    package struct ParentChange: Sendable, Hashable, Codable {
        /// The source parent's name, nil for a root.
        package var from: String?
        /// The destination parent's name, nil for a root.
        package var to: String?

        package init(from: String?, to: String?) {
            self.from = from
            self.to = to
        }

        private enum CodingKeys: String, CodingKey {
            case from, to
        }

        /// Encodes both keys, a root as `null`.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeEveryKey([.from: from, .to: to])
        }
    }

    /// The destination entity's name, or the source entity's when it is removed.
    package var name: String
    /// The source entity's name when it is renamed.
    package var oldName: String?
    package var change: Change
    /// The entity mapping's name (`MoodToMood`, `ToColor`, `GeographicRegionTo`).
    package var mapping: String
    /// ``EntityMapping/Kind/copy`` when nothing that Core Data hashes changes.
    package var mappingKind: EntityMapping.Kind
    /// Whether the entity is abstract (in the destination, or in the source when removed).
    package var isAbstract: Bool
    /// Set when the entity gets a new parent, loses its parent, or gains one: the parent
    /// entity it ends up under is not what its source parent became.
    package var parent: ParentChange?
    /// The entity's properties, for kept and renamed entities.
    package var properties: [PropertyDiff]
    /// Why the entity's rows are dropped, when they are (``DroppedData``); nil when they are
    /// carried, or when it has no rows of its own (abstract).
    package var dropped: DroppedData.Reason?

    package init(
        name: String, oldName: String? = nil, change: Change, mapping: String, mappingKind: EntityMapping.Kind,
        isAbstract: Bool = false, parent: ParentChange? = nil, properties: [PropertyDiff] = [],
        dropped: DroppedData.Reason? = nil
    ) {
        self.name = name
        self.oldName = oldName
        self.change = change
        self.mapping = mapping
        self.mappingKind = mappingKind
        self.isAbstract = isAbstract
        self.parent = parent
        self.properties = properties
        self.dropped = dropped
    }

    /// The entry of the property with this name (its destination name, or its source name when removed).
    package func property(named name: String) -> PropertyDiff? {
        properties.first { $0.name == name }
    }

    private enum CodingKeys: String, CodingKey {
        case name, oldName, change, mapping, mappingKind, isAbstract, parent, properties, dropped
    }

    /// Encodes every key, absent values as `null`, so JSON readers see a stable shape.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .name: name, .oldName: oldName, .change: change, .mapping: mapping, .mappingKind: mappingKind,
            .isAbstract: isAbstract, .parent: parent, .properties: properties, .dropped: dropped,
        ])
    }
}

/// What happens to one property of a kept or renamed entity in a ``MappingDiff``.
package struct PropertyDiff: Sendable, Hashable, Codable {
    /// The property-level change.
    package enum Change: String, Sendable, Hashable, Codable {
        /// Same name, same type (see ``PropertyDiff/notes`` for optionality or cardinality changes).
        case kept
        /// Matched through the destination's renaming identifier (its type may widen too).
        case renamed
        /// Only in the destination: it gets its default value, NULL, or no objects.
        case added
        /// Only in the source: its values are dropped.
        case removed
        /// Same name, with a lossless type change (``PropertyDiff/widening``).
        case widened
    }

    /// Attribute or relationship.
    package enum Kind: String, Sendable, Hashable, Codable {
        case attribute
        case relationship
    }

    /// The destination property's name, or the source property's when it is removed.
    package var name: String
    /// The source property's name when it is renamed.
    package var oldName: String?
    package var kind: Kind
    package var change: Change
    /// The type: `"Integer 16"` for an attribute, `"to-many Recipe"` or `"ordered to-many Recipe"`
    /// for a relationship (the source's when removed).
    package var type: String
    /// The source type when it differs from ``type``.
    package var oldType: String?
    /// The type widening of a widened attribute.
    package var widening: TypeWidening?
    /// Other changes in words: "becomes optional", "to-one → to-many", "moved from Vehicle to Car"…
    package var notes: [String]
    /// Why a removed property's values (or a relationship's links) are dropped
    /// (``DroppedData``); nil when nothing is lost, e.g. a relationship whose inverse is kept.
    package var dropped: DroppedData.Reason?

    package init(
        name: String, oldName: String? = nil, kind: Kind, change: Change, type: String, oldType: String? = nil,
        widening: TypeWidening? = nil, notes: [String] = [], dropped: DroppedData.Reason? = nil
    ) {
        self.name = name
        self.oldName = oldName
        self.kind = kind
        self.change = change
        self.type = type
        self.oldType = oldType
        self.widening = widening
        self.notes = notes
        self.dropped = dropped
    }

    private enum CodingKeys: String, CodingKey {
        case name, oldName, kind, change, type, oldType, widening, notes, dropped
    }

    /// Encodes every key, absent values as `null`; ``widening`` as its ``TypeWidening/userInfoValue``
    /// (`"integer16→integer32"`).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .name: name, .oldName: oldName, .kind: kind, .change: change, .type: type, .oldType: oldType,
            .widening: widening?.userInfoValue, .notes: notes, .dropped: dropped,
        ])
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        oldName = try container.decodeIfPresent(String.self, forKey: .oldName)
        kind = try container.decode(Kind.self, forKey: .kind)
        change = try container.decode(Change.self, forKey: .change)
        type = try container.decode(String.self, forKey: .type)
        oldType = try container.decodeIfPresent(String.self, forKey: .oldType)
        widening = try container.decodeIfPresent(String.self, forKey: .widening).flatMap(
            TypeWidening.init(userInfoValue:))
        notes = try container.decode([String].self, forKey: .notes)
        dropped = try container.decodeIfPresent(DroppedData.Reason.self, forKey: .dropped)
    }
}

import StepwiseModel

/// Data a migration step leaves behind: the rows of a source entity no mapping carries, or the
/// values of a source property the destination doesn't keep.
///
/// Core Data's lightweight migration drops removed entities and attributes without a word,
/// and so does an explicit mapping model that leaves an entity out. Stepwise names every such
/// drop: `stepwise diff` marks them, `stepwise plan` counts them in a store,
/// ``StepReport/drops`` records what a step dropped, and an upgrade in strict mode refuses
/// any drop a mapping didn't declare.
///
/// ```swift
/// let drops = DroppedData.planned(by: [mapping], from: v1, to: v2)
/// // [Post.color: attribute, removedFromModel]
/// ```
///
/// A drop names its entity and property in the step's *source* version. Counts are taken
/// over the entity's own rows (its `Z_ENT`), so a property an entity inherits is counted once
/// per entity that holds it.
///
/// ## Topics
/// - ``Reason``
/// - ``Kind``
public struct DroppedData: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Why the data is dropped.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The entity or property is only in the source version, and the step is inferred
        /// (or its explicit mapping says nothing about it): Core Data's lightweight migration
        /// drops it.
        case removedFromModel
        /// The entity is in both versions, but the step's explicit mapping has no entity
        /// mapping for it: an omission, not a decision.
        case leftOutOfMapping
        /// An explicit entity mapping with no destination drops the rows on purpose.
        case droppedByMapping
        /// The entity is only in the source version, and the step's explicit mapping, written
        /// against a destination without it, has no entity mapping for it: Xcode's mapping
        /// editor makes none for a removed entity. Counted as declared: the mapping's author
        /// saw the removal.
        case removedWithExplicitMapping
        /// The relationship is carried, but now points to an entity that some objects it held
        /// don't become (``DroppedData/linksTo`` names their source entities): the links to
        /// them are left out, as Core Data's inferred mapping leaves them out
        /// (`-[NSMigrationManager destinationInstancesForSourceRelationshipNamed:sourceInstances:]`
        /// follows only the mappings that make a kind of the new destination).
        case destinationChanged
    }

    /// What is dropped.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Whole rows of the entity (``DroppedData/count`` counts rows).
        case entity
        /// An attribute's values (``DroppedData/count`` counts non-null values).
        case attribute
        /// A relationship whose inverse isn't kept either, so its links are lost
        /// (``DroppedData/count`` counts links).
        case relationship
        /// Core Data's persistent history, cut as Core Data cuts it when it removes the entity:
        /// every transaction up to the last one that changed it, whatever their entities
        /// (``DroppedData/count`` counts changes; see `HistoryTruncation`).
        case persistentHistory
        /// The CloudKit mirroring records of the entity's objects (`ANSCKRECORDMETADATA`…), which
        /// Core Data also deletes when it removes the entity (``DroppedData/count`` counts rows).
        case cloudKitMetadata
    }

    /// The source entity.
    public var entity: String
    /// The source property, nil for ``Kind/entity``.
    public var property: String?
    public var kind: Kind
    public var reason: Reason
    /// For ``Reason/destinationChanged``: the source entities whose objects lose their links
    /// (the relationship's other links stay). Nil for every other drop.
    public var linksTo: [String]?
    /// Rows, non-null values or links dropped; nil until counted in a store, or when they
    /// can't be counted before the step runs (see ``StepReport/drops`` for what it dropped).
    public var count: Int?

    public init(
        entity: String, property: String? = nil, kind: Kind, reason: Reason, linksTo: [String]? = nil,
        count: Int? = nil
    ) {
        self.entity = entity
        self.property = property
        self.kind = kind
        self.reason = reason
        self.linksTo = linksTo
        self.count = count
    }

    /// Whether an explicit mapping asked for it (``Reason/droppedByMapping``, or
    /// ``Reason/removedWithExplicitMapping``): strict mode allows it.
    public var isDeclared: Bool {
        reason == .droppedByMapping || reason == .removedWithExplicitMapping
    }

    /// Whether data that a mapping didn't declare is, or may be, lost: strict mode refuses it.
    /// A drop counted as zero loses nothing; an uncounted one may.
    public var losesUndeclaredData: Bool {
        !isDeclared && count != 0
    }

    /// `Post.color` or `Tag`.
    public var place: String {
        property.map { "\(entity).\($0)" } ?? entity
    }

    /// `1001 non-null values of Post.color (removed from the model)`, `20 rows of Tag (left out of the
    /// mapping)`, `links of Country.continent (removed from the model)` when not counted,
    /// `3 links of Show.images to Image (its destination changed to one they don't become)`,
    /// `57 persistent history changes, up to the last transaction that changed Tag (removed from
    /// the model)`.
    public var description: String {
        let unit: String
        switch kind {
        case .entity: unit = count == 1 ? "row" : "rows"
        case .attribute: unit = count == 1 ? "non-null value" : "non-null values"
        case .relationship: unit = count == 1 ? "link" : "links"
        case .persistentHistory: unit = count == 1 ? "persistent history change" : "persistent history changes"
        case .cloudKitMetadata: unit = count == 1 ? "CloudKit record" : "CloudKit records"
        }
        let amount = count.map { "\($0) \(unit)" } ?? unit
        if let linksTo, !linksTo.isEmpty {
            return "\(amount) of \(place) to \(linksTo.joined(separator: ", ")) (\(reason.explanation))"
        }
        if kind == .persistentHistory {
            return "\(amount), up to the last transaction that changed \(place) (\(reason.explanation))"
        }
        return "\(amount) of \(place) (\(reason.explanation))"
    }

    private enum CodingKeys: String, CodingKey {
        case entity, property, kind, reason, linksTo, count, declared
    }

    /// Encodes every key, absent values as `null`, plus `declared` (``isDeclared``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .entity: entity, .property: property, .kind: kind, .reason: reason, .linksTo: linksTo, .count: count,
            .declared: isDeclared,
        ])
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entity = try container.decode(String.self, forKey: .entity)
        property = try container.decodeIfPresent(String.self, forKey: .property)
        kind = try container.decode(Kind.self, forKey: .kind)
        reason = try container.decode(Reason.self, forKey: .reason)
        linksTo = try container.decodeIfPresent([String].self, forKey: .linksTo)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
    }
}

extension DroppedData.Reason {
    /// "removed from the model", "left out of the mapping", "dropped by the mapping".
    public var explanation: String {
        switch self {
        case .removedFromModel: "removed from the model"
        case .leftOutOfMapping: "left out of the mapping"
        case .droppedByMapping: "dropped by the mapping"
        case .removedWithExplicitMapping: "removed from the model, not in the step's mapping"
        case .destinationChanged: "its destination changed to an entity they don't become"
        }
    }
}

import Foundation
import GRDB
import StepwiseModel

/// What a team knows about its data that the model doesn't say, for a seeded store to hold
/// it too: rows per entity, relationships that are always set, attributes whose values are
/// unique, and attributes whose values come from a list.
///
/// A seeded store otherwise holds what the model allows: an optional to-one left nil in some
/// rows, equal strings in two rows, any string at all. A policy written for the app's real
/// data (every order has a customer, a status is one of three words) then fails on it. Say so:
///
/// ```swift
/// let seeding = SeedingConstraints(
///     rows: RowCounts(default: 20, ["Order": 60]),
///     every: ["Order.customer"],          // every Order has a customer
///     unique: ["Customer.name"],          // no two customers share a name
///     values: ["Order.status": ["open", "shipped", "delivered"]])
/// try SeededStore.create(at: url, model: model, seed: 1, seeding: seeding)
/// try matrix.check(pair, seeding: seeding)
/// ```
///
/// Properties are named `Entity.property`, and apply to the entity's subentities too. An element
/// of a composite attribute is named by its key path, `Book.author.person`: a seeded store holds
/// a composite as its elements, each seeded and constrained like an attribute.
/// - **every**: a to-one is set in every row (as if required); a to-many holds at least one
///   object in every row. Naming the to-many side of a one-to-many (`Customer.orders`) gives
///   every customer an order.
/// - **unique**: values derived from each row's primary key, as for a uniqueness constraint.
/// - **values**: each row holds one of the values, never nil, written as text: numbers as
///   `42` or `2.5`, Booleans as `true`/`false`, dates as ISO 8601 (`2024-05-01T12:00:00Z`),
///   UUIDs in their usual form. Binary and transformable attributes take no list.
///
/// As JSON (`stepwise matrix --seeding FILE`), every key optional:
///
/// ```json
/// {"defaultRows": 20, "rows": {"Order": 60}, "every": ["Order.customer"],
///  "unique": ["Customer.name"], "values": {"Order.status": ["open", "shipped", "delivered"]}}
/// ```
///
/// In a matrix, a constraint applies to the versions that have its entity and property, so
/// one set of constraints serves the whole history (``UpgradeMatrix/validate(_:)`` checks that
/// each one names something in at least one version).
public struct SeedingConstraints: Sendable, Hashable, Encodable {
    /// Rows per concrete entity.
    public var rows: RowCounts
    /// Relationships (`Entity.relationship`) set in every row.
    public var every: Set<String>
    /// Attributes (`Entity.attribute`) whose values are unique across their table.
    public var unique: Set<String>
    /// Attributes (`Entity.attribute`) whose values come from a list, as text.
    public var values: [String: [String]]

    /// Constraints on a seeded store.
    ///
    /// - parameters:
    ///   - rows: Rows per concrete entity; ``UpgradeMatrix/defaultRows`` each by default.
    ///   - every: Relationships (`Entity.relationship`) set in every row.
    ///   - unique: Attributes (`Entity.attribute`) whose values are unique.
    ///   - values: Attributes (`Entity.attribute`) whose values come from a list, as text.
    public init(
        rows: RowCounts = RowCounts(default: UpgradeMatrix.defaultRows), every: Set<String> = [],
        unique: Set<String> = [], values: [String: [String]] = [:]
    ) {
        self.rows = rows
        self.every = every
        self.unique = unique
        self.values = values
    }

    /// Whether only row counts are given.
    public var constrainsOnlyRows: Bool { every.isEmpty && unique.isEmpty && values.isEmpty }

    /// Reads constraints from a JSON file (the format above).
    ///
    /// - parameter url: The file.
    /// - throws: ``UpgradeMatrixFailure`` (``UpgradeMatrixFailure/Kind/unreadableConstraints(reason:)``) naming
    ///   the file and what is wrong in it.
    public init(contentsOf url: URL) throws(UpgradeMatrixFailure) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw UpgradeMatrixFailure(.unreadableConstraints(reason: ErrorText.describe(error)), path: url.path)
        }
        do {
            let file = try JSONDecoder().decode(File.self, from: data)
            self.init(
                rows: RowCounts(default: file.defaultRows ?? UpgradeMatrix.defaultRows, file.rows ?? [:]),
                every: Set(file.every ?? []), unique: Set(file.unique ?? []),
                values: (file.values ?? [:]).mapValues { $0.map(\.text) })
        } catch let error as DecodingError {
            throw UpgradeMatrixFailure(.unreadableConstraints(reason: Self.explain(error)), path: url.path)
        } catch {
            throw UpgradeMatrixFailure(.unreadableConstraints(reason: ErrorText.describe(error)), path: url.path)
        }
    }

    /// The constraints that apply to `model`: those whose entity (and property) it has.
    /// Row counts for entities it lacks are dropped too.
    public func restricted(to model: ObjectModel) -> SeedingConstraints {
        func has(_ name: String) -> Bool {
            guard let (entity, property) = Self.split(name), let found = model[entity: entity] else { return false }
            return model.storedAttributes(of: found).contains { $0.name == property }
                || model.allRelationships(of: found).contains { $0.name == property }
        }
        return SeedingConstraints(
            rows: RowCounts(default: rows.defaultCount, rows.counts.filter { model[entity: $0.key] != nil }),
            every: every.filter(has), unique: unique.filter(has), values: values.filter { has($0.key) })
    }

    /// Checks every name against `model`: each entity exists (concrete, for row counts), each
    /// `every` names a relationship, each `unique` and `values` an attribute, and each listed
    /// value reads as the attribute's type.
    ///
    /// - parameter model: The version the store is seeded at.
    /// - throws: ``UpgradeMatrixFailure`` naming the constraint, the entity or property, and the version.
    public func validate(for model: ObjectModel) throws(UpgradeMatrixFailure) {
        for (name, count) in rows.counts.sorted(by: { $0.key < $1.key }) {
            guard let entity = model[entity: name] else {
                throw UpgradeMatrixFailure(
                    .unknownEntity(entity: name, version: model.name, constraint: "rows \(name)=\(count)"))
            }
            if entity.isAbstract && count != 0 || count < 0 {
                throw UpgradeMatrixFailure(.invalidRowCount(entity: name, count: count))
            }
        }
        for name in every.sorted() { _ = try relationship(name, in: model) }
        for name in unique.sorted() { _ = try attribute(name, in: model, constraint: "unique \(name)") }
        for (name, list) in values.sorted(by: { $0.key < $1.key }) {
            let attribute = try attribute(name, in: model, constraint: "values \(name)")
            if unique.contains(name) {
                throw UpgradeMatrixFailure(
                    .invalidValue(
                        entity: attribute.entity, property: attribute.property, value: list.joined(separator: ","),
                        reason: "it is also constrained unique: give it one or the other"))
            }
            _ = try columnValues(name, in: model)
        }
    }

    // MARK: - Resolution, for the writers

    /// The declaring entity's key (`Entity.relationship`) of each `every` relationship of `model`.
    func alwaysLinkedKeys(in model: ObjectModel) throws(UpgradeMatrixFailure) -> Set<String> {
        var keys: Set<String> = []
        for name in every { keys.insert(try relationship(name, in: model)) }
        return keys
    }

    /// Whether `attribute` of the concrete entity `entity` must be unique by these constraints.
    func isUnique(_ attribute: String, of entity: Entity, in model: ObjectModel) -> Bool {
        ([entity] + model.ancestors(of: entity)).contains { unique.contains("\($0.name).\(attribute)") }
    }

    /// The list `attribute` of the concrete entity `entity` takes its values from, as column
    /// values, if there is one.
    func listedValues(of attribute: String, of entity: Entity, in model: ObjectModel) throws(UpgradeMatrixFailure)
        -> [DatabaseValue]?
    {
        for owner in [entity] + model.ancestors(of: entity) where values["\(owner.name).\(attribute)"] != nil {
            return try columnValues("\(owner.name).\(attribute)", in: model)
        }
        return nil
    }

    // MARK: - Helpers

    /// `Entity.property` as its two names; the property may be an element of a composite by
    /// its key path (`Book.author.person`).
    static func split(_ name: String) -> (String, String)? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else { return nil }
        return (String(parts[0]), parts.dropFirst().joined(separator: "."))
    }

    private func entity(_ name: String, in model: ObjectModel, constraint: String) throws(UpgradeMatrixFailure)
        -> (Entity, String)
    {
        guard let (entityName, property) = Self.split(name) else {
            throw UpgradeMatrixFailure(
                .unknownProperty(
                    entity: name, property: "", version: model.name, constraint: constraint,
                    reason: "name it as Entity.property"))
        }
        guard let entity = model[entity: entityName] else {
            throw UpgradeMatrixFailure(.unknownEntity(entity: entityName, version: model.name, constraint: constraint))
        }
        return (entity, property)
    }

    /// The declaring entity's key of the relationship `name` names.
    private func relationship(_ name: String, in model: ObjectModel) throws(UpgradeMatrixFailure) -> String {
        let constraint = "every \(name)"
        let (entity, property) = try self.entity(name, in: model, constraint: constraint)
        let relationships = model.allRelationships(of: entity).filter { !$0.isTransient }
        guard relationships.contains(where: { $0.name == property }),
            let declaring = model.declaringEntity(ofProperty: property, from: entity)
        else {
            throw UpgradeMatrixFailure(
                .unknownProperty(
                    entity: entity.name, property: property, version: model.name, constraint: constraint,
                    reason:
                        "\(entity.name) has no stored relationship of that name (it has: \(Self.list(relationships.map(\.name))))"
                ))
        }
        return "\(declaring.name).\(property)"
    }

    private func attribute(_ name: String, in model: ObjectModel, constraint: String) throws(UpgradeMatrixFailure)
        -> (entity: String, property: String, attribute: Attribute)
    {
        let (entity, property) = try self.entity(name, in: model, constraint: constraint)
        let attributes = model.storedAttributes(of: entity)
        if let composite = model.allAttributes(of: entity).first(where: { $0.name == property && $0.type == .composite }
        ) {
            // A list of whole composites would need a form of its own; each element takes one.
            throw UpgradeMatrixFailure(
                .unknownProperty(
                    entity: entity.name, property: property, version: model.name, constraint: constraint,
                    reason:
                        "\(property) is a composite attribute: constrain its elements by key path (\(Self.list(composite.flattenedElements.map { "\(entity.name).\($0.name)" })))"
                ))
        }
        guard let attribute = attributes.first(where: { $0.name == property }) else {
            throw UpgradeMatrixFailure(
                .unknownProperty(
                    entity: entity.name, property: property, version: model.name, constraint: constraint,
                    reason:
                        "\(entity.name) has no stored attribute of that name (it has: \(Self.list(attributes.map(\.name))))"
                ))
        }
        return (entity.name, property, attribute)
    }

    /// The listed values of `name` as column values of its attribute's type.
    private func columnValues(_ name: String, in model: ObjectModel) throws(UpgradeMatrixFailure)
        -> [DatabaseValue]
    {
        let (entity, property, attribute) = try self.attribute(name, in: model, constraint: "values \(name)")
        let list = values[name] ?? []
        guard !list.isEmpty else {
            throw UpgradeMatrixFailure(
                .invalidValue(entity: entity, property: property, value: "", reason: "the list is empty"))
        }
        var converted: [DatabaseValue] = []
        for text in list {
            guard let value = SeededValues.columnValue(text, for: attribute) else {
                throw UpgradeMatrixFailure(
                    .invalidValue(
                        entity: entity, property: property, value: text,
                        reason: "it doesn't read as \(attribute.type.rawValue) (in '\(model.name)')"))
            }
            converted.append(value)
        }
        return converted
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.sorted().joined(separator: ", ")
    }

    private enum CodingKeys: String, CodingKey {
        case defaultRows, rows, every, unique, values
    }

    /// Encodes the file's shape, every key present and names sorted, so that
    /// `stepwise matrix --json` says what the stores were seeded with.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows.defaultCount, forKey: .defaultRows)
        try container.encode(rows.counts, forKey: .rows)
        try container.encode(every.sorted(), forKey: .every)
        try container.encode(unique.sorted(), forKey: .unique)
        try container.encode(values, forKey: .values)
    }

    /// The JSON file's shape.
    private struct File: Decodable {
        var defaultRows: Int?
        var rows: [String: Int]?
        var every: [String]?
        var unique: [String]?
        var values: [String: [ListedValue]]?
    }

    /// A listed value as JSON gives it: text, a number or a Boolean.
    private struct ListedValue: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                text = bool ? "true" : "false"
            } else if let integer = try? container.decode(Int64.self) {
                text = String(integer)
            } else if let number = try? container.decode(Double.self) {
                text = String(number)
            } else {
                text = try container.decode(String.self)
            }
        }
    }

    /// A decoding error as "'values', 'Order.status', 2: …".
    private static func explain(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            let parts = path.map { key in key.intValue.map { "item \($0 + 1)" } ?? "'\(key.stringValue)'" }
            return parts.isEmpty ? "the file" : parts.joined(separator: ", ")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath)): key '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

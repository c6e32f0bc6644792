import Foundation
import StepwiseModel

/// A matrix cell that failed, naming the pair, the check, and where possible the entity, the
/// seeded store's row (`Z_PK`) and the property; or a seeded store that can't be generated
/// (the model asks for something the row counts can't give, or a seeding constraint names
/// what the model lacks).
///
/// Switch on ``kind`` to tell the cases apart; ``description`` is the sentence to show.
///
/// ```
/// Recipes 3 → Recipes 4: value check failed for Recipe, source row Z_PK 3, property 'name':
/// the seeded store holds "مرحبا بالعالم", the upgraded store holds "tampered" (its Z_PK 3)
/// ```
///
/// Unlike the library's errors, messages show values: they come from generated stores, never
/// from a user's. Text is quoted with what can't be seen escaped (`"e\u{301}cole"`), so two
/// strings that look alike but differ in their bytes read differently.
public struct UpgradeMatrixFailure: Error, Sendable, Hashable, LocalizedError, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The invariant `check` didn't hold for ``UpgradeMatrixFailure/pair``: `detail` says how.
        case checkFailed(Check, detail: String)

        // A seeded store that can't be generated (``SeededStore``, ``SeedingConstraints``).

        /// A row count below zero, or for an entity the model doesn't have or that is abstract.
        case invalidRowCount(entity: String, count: Int)
        /// The model's rules can't all hold with these row counts: a required to-one whose
        /// destination has no rows, a to-many whose minimum count exceeds the rows available, a
        /// unique Boolean on more than two rows…
        case unsatisfiable(entity: String, property: String, reason: String)
        /// A seeding constraint (``SeedingConstraints``) names an entity the version doesn't have.
        case unknownEntity(entity: String, version: String, constraint: String)
        /// A seeding constraint names a property the entity doesn't have, or one of the wrong
        /// kind (`every` takes a relationship; `unique` and `values` an attribute).
        case unknownProperty(entity: String, property: String, version: String, constraint: String, reason: String)
        /// A listed value (``SeedingConstraints/values``) that doesn't read as its attribute's
        /// type, an empty list, or a list for a unique attribute.
        case invalidValue(entity: String, property: String, value: String, reason: String)
        /// A seeding constraints file that can't be read or isn't the expected JSON.
        case unreadableConstraints(reason: String)
    }

    /// The invariant that didn't hold.
    public enum Check: String, Sendable, Hashable, Codable, CaseIterable {
        /// The pair isn't a case of the matrix (no plan reaches `to` from `from`).
        case plan
        /// The seeded store couldn't be generated for the source version.
        case seeding
        /// The upgrade threw.
        case upgrade
        /// The upgraded store's metadata isn't the target version's.
        case metadata
        /// `quick_check`, or a dangling key or join-table row.
        case consistency
        /// A copied entity lost or gained rows.
        case rowCount
        /// A copied attribute's value changed.
        case value
        /// An entity both versions have lost all its rows, and no mapping declared the drop.
        case droppedRows
        /// Upgrading all at once and stopping at each version gave different stores.
        case pathIndependence
    }

    public var kind: Kind
    /// The pair whose cell failed; nil for a seeded store made outside the matrix.
    public var pair: UpgradeMatrix.Pair?
    /// The entity concerned: in the seeded store's version for ``Check/rowCount`` and
    /// ``Check/value``, in the target version otherwise.
    public var entity: String?
    /// The seeded store's row (`Z_PK`), when one row is to blame.
    public var sourcePrimaryKey: Int64?
    /// The property concerned.
    public var property: String?
    /// The seeded store being generated, or the seeding constraints file, when known.
    public var path: String?

    public init(
        pair: UpgradeMatrix.Pair, check: Check, entity: String? = nil, sourcePrimaryKey: Int64? = nil,
        property: String? = nil, detail: String
    ) {
        self.kind = .checkFailed(check, detail: detail)
        self.pair = pair
        self.entity = entity
        self.sourcePrimaryKey = sourcePrimaryKey
        self.property = property
    }

    /// A seeded store that can't be generated: `kind` is one of the seeding cases, `path` the
    /// store or the constraints file.
    public init(_ kind: Kind, path: String? = nil) {
        self.kind = kind
        self.path = path
    }

    /// The check that failed, for a matrix cell.
    public var check: Check? {
        if case .checkFailed(let check, _) = kind { return check }
        return nil
    }

    public var description: String {
        let store = path.map { "\($0): " } ?? ""
        switch kind {
        case .checkFailed(let check, let detail):
            return cellDescription(check, detail: detail)
        case .invalidRowCount(let entity, let count):
            return
                "\(store)can't seed \(count) rows of '\(entity)': give 0 or more rows, to concrete entities of the model."
        case .unsatisfiable(let entity, let property, let reason):
            return
                "\(store)can't seed \(entity).\(property): \(reason). Give the entities involved more (or fewer) rows, or drop a seeding constraint."
        case .unknownEntity(let entity, let version, let constraint):
            return
                "\(store)the seeding constraint '\(constraint)' names the entity '\(entity)', which '\(version)' doesn't have. Check its spelling (entity names are case-sensitive)."
        case .unknownProperty(let entity, let property, let version, let constraint, let reason):
            return
                "\(store)the seeding constraint '\(constraint)' names '\(entity).\(property)' in '\(version)': \(reason)."
        case .invalidValue(let entity, let property, let value, let reason):
            return
                "\(store)can't seed \(entity).\(property) from the listed value '\(value)': \(reason). Fix the value list."
        case .unreadableConstraints(let reason):
            return
                "\(store)not a seeding constraints file: \(reason). Expected {\"defaultRows\": n, \"rows\": {\"Entity\": n}, \"every\": [\"Entity.relationship\"], \"unique\": [\"Entity.attribute\"], \"values\": {\"Entity.attribute\": [\"…\"]}}, every key optional."
        }
    }

    public var errorDescription: String? { description }

    private func cellDescription(_ check: Check, detail: String) -> String {
        var place: [String] = []
        if let entity { place.append("for \(entity)") }
        if let sourcePrimaryKey { place.append("source row Z_PK \(sourcePrimaryKey)") }
        if let property { place.append("property '\(property)'") }
        let location = place.isEmpty ? "" : " " + place.joined(separator: ", ")
        let pair = self.pair.map { "\($0): " } ?? ""
        return "\(pair)\(Self.names[check] ?? check.rawValue) failed\(location): \(detail)"
    }

    private static let names: [Check: String] = [
        .plan: "planning", .seeding: "seeding", .upgrade: "upgrade", .metadata: "metadata check",
        .consistency: "consistency check", .rowCount: "row count check", .value: "value check",
        .droppedRows: "dropped rows check",
        .pathIndependence: "path independence check",
    ]

    /// The check's name (`value`) for a cell, else the seeding case's (`unsatisfiable`), for
    /// tools: `{"kind": …}` in the CLI's JSON.
    package var caseName: String {
        switch kind {
        case .checkFailed(let check, _): check.rawValue
        case .invalidRowCount: "invalidRowCount"
        case .unsatisfiable: "unsatisfiable"
        case .unknownEntity: "unknownEntity"
        case .unknownProperty: "unknownProperty"
        case .invalidValue: "invalidValue"
        case .unreadableConstraints: "unreadableConstraints"
        }
    }

    /// The seeded store or constraints file, when the error names one.
    package var subjectPath: String? { path }
}

/// A matrix cell that failed, naming the pair, the check, and where possible the entity, the
/// seeded store's row (`Z_PK`) and the property.
///
/// ```
/// Recipes 3 → Recipes 4: value check failed for Recipe, source row Z_PK 3, property 'name':
/// the seeded store holds "مرحبا بالعالم", the upgraded store holds "tampered" (its Z_PK 3)
/// ```
///
/// Unlike the library's errors, messages show values: they come from generated stores, never
/// from a user's. Text is quoted with what can't be seen escaped (`"e\u{301}cole"`), so two
/// strings that look alike but differ in their bytes read differently.
public struct UpgradeMatrixFailure: Error, Sendable, CustomStringConvertible {
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
        /// `integrity_check`, or a dangling key or join-table row.
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

    public var pair: UpgradeMatrix.Pair
    public var check: Check
    /// The entity concerned: in the seeded store's version for ``Check/rowCount`` and
    /// ``Check/value``, in the target version otherwise.
    public var entity: String?
    /// The seeded store's row (`Z_PK`), when one row is to blame.
    public var sourcePrimaryKey: Int64?
    /// The property concerned.
    public var property: String?
    /// What went wrong.
    public var detail: String

    public init(
        pair: UpgradeMatrix.Pair, check: Check, entity: String? = nil, sourcePrimaryKey: Int64? = nil,
        property: String? = nil, detail: String
    ) {
        self.pair = pair
        self.check = check
        self.entity = entity
        self.sourcePrimaryKey = sourcePrimaryKey
        self.property = property
        self.detail = detail
    }

    public var description: String {
        var place: [String] = []
        if let entity { place.append("for \(entity)") }
        if let sourcePrimaryKey { place.append("source row Z_PK \(sourcePrimaryKey)") }
        if let property { place.append("property '\(property)'") }
        let location = place.isEmpty ? "" : " " + place.joined(separator: ", ")
        return "\(pair): \(Self.names[check] ?? check.rawValue) failed\(location): \(detail)"
    }

    private static let names: [Check: String] = [
        .plan: "planning", .seeding: "seeding", .upgrade: "upgrade", .metadata: "metadata check",
        .consistency: "consistency check", .rowCount: "row count check", .value: "value check",
        .droppedRows: "dropped rows check",
        .pathIndependence: "path independence check",
    ]
}

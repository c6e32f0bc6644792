import StepwiseModel

extension UpgradeMatrix {
    /// Checks seeding constraints against the history before any pair runs: each names an
    /// entity (and property) that at least one version has, and is right wherever it applies
    /// (a relationship for `every`, an attribute for `unique` and `values`, listed values that
    /// read as the attribute's type).
    ///
    /// - parameter seeding: The constraints ``check(_:seeding:seed:)`` will be given.
    /// - throws: ``UpgradeMatrixFailure`` naming the constraint, the entity or property and the version
    ///   (the newest, when no version has it).
    package func validate(_ seeding: SeedingConstraints) throws(UpgradeMatrixFailure) {
        let versions = history.versions + asShipped
        for version in versions {
            try seeding.restricted(to: version).validate(for: version)
        }
        // A name that no version has would be silently ignored by every pair.
        guard let newest = history.latest else { return }
        let applied = versions.map { seeding.restricted(to: $0) }
        let unmatched = SeedingConstraints(
            rows: RowCounts(
                default: seeding.rows.defaultCount,
                seeding.rows.counts.filter { name, _ in !applied.contains { $0.rows.counts[name] != nil } }),
            every: seeding.every.filter { name in !applied.contains { $0.every.contains(name) } },
            unique: seeding.unique.filter { name in !applied.contains { $0.unique.contains(name) } },
            values: seeding.values.filter { name, _ in !applied.contains { $0.values[name] != nil } })
        try unmatched.validate(for: newest)
    }
}

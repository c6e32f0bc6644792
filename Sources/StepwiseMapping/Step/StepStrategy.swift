/// How a migration step carried its store to the next version: which of the step's three
/// ways of writing its output it took.
///
/// A step chooses in one place (`MigrationStep`'s `chooseStrategy`), in this order of
/// preference: the cheapest that fits the step's mapping and survives its rehearsal on the
/// source's schema. A strategy refused while it runs (an `ALTER` SQLite rejects although the
/// rehearsal passed), with the source still intact, gives way to the next one.
///
/// The raw values are what reports, the journal and the CLI's `--json` write.
public enum StepStrategy: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A copy of the source (or the source itself, when the caller is done with it) altered
    /// with `ALTER TABLE`: tables and columns renamed, added or dropped, rows and keys kept.
    ///
    /// Chosen for a step with one mapping model and no `willMigrate` stage whose mapping only
    /// renames, adds or drops (a lightweight migration's usual mapping), when the
    /// altered schema would be exactly the destination's and the source's rows fit its entity
    /// numbers.
    case inPlace
    /// A copy of the source (or the source itself, when the caller may give it up) in which
    /// only the tables real mappings write are rebuilt; the plain copies' tables are kept as
    /// they are, rows, keys and pages untouched (``StepReport/keptTables``).
    ///
    /// Chosen when the step can't run in place but its one mapping model mixes plain copies
    /// with real mappings, names no policy, has no `willMigrate` stage, and the source holds
    /// nothing the rebuilt tables wouldn't carry.
    case partialRebuild
    /// A new file, every row written again by the three passes (instances, relationships,
    /// validation) in one transaction.
    ///
    /// Chosen when neither of the others fits: several mapping models, a policy, a
    /// `willMigrate` stage, or a mapping under which no table can be kept; and when the
    /// partial rebuild is refused while it runs, or turned off.
    case rebuild

    /// The raw value: `inPlace`, `partialRebuild` or `rebuild`.
    public var description: String { rawValue }
}

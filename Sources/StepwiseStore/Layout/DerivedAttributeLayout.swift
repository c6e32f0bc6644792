import StepwiseModel

/// How a derived attribute (`NSDerivedAttributeDescription`) lives in a store: its column, the
/// `Z_DA_…` triggers Core Data creates to keep it current, and one statement that computes it
/// for every row at once.
///
/// The trigger texts are the ones Core Data writes, byte for byte as `sqlite_master` keeps them
/// (the real Photos stores in the corpus show the key path through a to-one:
/// `real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-{13.0.1,15.7.1}`). Like
/// Core Data's, they leave identifiers unquoted, so they compare equal with a real store's.
///
/// ```swift
/// let layout = try StoreLayout(model: model)
/// for derived in layout.derivedAttributes {
///     try db.execute(sql: derived.recomputeStatement)   // after a step wrote the table
/// }
/// ```
package struct DerivedAttributeLayout: Sendable, Hashable {
    /// The entity that declares the derived attribute (`Asset`).
    package let entityName: String
    /// The derived attribute (`derivedCameraCaptureDevice`).
    package let attributeName: String
    /// The entity's table (`ZASSET`).
    package let table: String
    /// The derived attribute's column (`ZDERIVEDCAMERACAPTUREDEVICE`).
    package let column: String
    /// The derivation as the model states it.
    package let derivation: Derivation
    /// The names of ``triggerStatements``, in the same order.
    package let triggerNames: [String]
    /// The `CREATE TRIGGER …` statements exactly as Core Data writes them, as `sqlite_master`
    /// keeps them. They call Core Data's trigger functions: register them on a connection
    /// (`CoreDataSQLFunctions.register(in:now:)`) before writing to these tables.
    package let triggerStatements: [String]
    /// One `UPDATE` that sets ``column`` of every row of the entity (its `Z_ENT` values only,
    /// when the table is shared with other entities) to its value computed from the other
    /// tables, set-based. Identifiers are quoted.
    package let recomputeStatement: String

    /// A layout from its parts; ``StoreLayout`` builds these from the model.
    package init(
        entityName: String, attributeName: String, table: String, column: String, derivation: Derivation,
        triggerNames: [String], triggerStatements: [String], recomputeStatement: String
    ) {
        self.entityName = entityName
        self.attributeName = attributeName
        self.table = table
        self.column = column
        self.derivation = derivation
        self.triggerNames = triggerNames
        self.triggerStatements = triggerStatements
        self.recomputeStatement = recomputeStatement
    }
}

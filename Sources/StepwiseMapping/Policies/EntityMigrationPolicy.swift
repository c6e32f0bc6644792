import GRDB
import StepwiseStore

/// Customizes how one entity mapping runs: Core Data's `NSEntityMigrationPolicy`.
///
/// Subclass it, override the hooks you need, call `super` for the default behaviour, and
/// register the subclass under the name your mapping's `policy` uses:
///
/// ```swift
/// import Stepwise
///
/// final class ChefPolicy: EntityMigrationPolicy {
///     override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws -> MappingValue {
///         switch selector {
///         case "firstName:": return .string(arguments.first?.stringValue?.split(separator: " ").first.map(String.init) ?? "")
///         default: return try super.function(named: selector, arguments: arguments, manager: manager)
///         }
///     }
/// }
/// var policies = PolicyRegistry()
/// policies.register("ChefPolicy") { ChefPolicy() }
/// ```
///
/// The hooks run in Core Data's order, for each entity mapping:
/// 1. ``begin(_:manager:)``;
/// 2. pass 1: ``createDestinationInstances(forSource:in:manager:)`` per source row, then
///    ``endInstanceCreation(for:manager:)``;
/// 3. pass 2: ``createRelationships(forDestination:in:manager:)`` per destination instance,
///    then ``endRelationshipCreation(for:manager:)``;
/// 4. pass 3: ``performCustomValidation(for:manager:)``, then ``end(_:manager:)``.
///
/// The defaults do what the mapping says. A mapping with a policy runs row by row (its
/// hooks must see every row); a mapping without one runs as set-based SQL when it can.
/// A policy instance lives for one entity mapping of one step, so it may keep state.
open class EntityMigrationPolicy {
    public required init() {}

    /// Called before anything else of the mapping runs.
    open func begin(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Creates the destination instance(s) for one source row. The default creates one
    /// instance from the mapping's attribute mappings and associates it with the source.
    open func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        _ = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
    }

    /// Called when every source row of the mapping has been through pass 1.
    open func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Sets the relationships of one destination instance. The default evaluates the
    /// mapping's relationship mappings.
    open func createRelationships(
        forDestination destination: ObjectID, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        try manager.applyRelationshipMappings(toDestination: destination, in: mapping, policy: self)
    }

    /// Whether pass 2 may write this mapping's relationship mappings as set-based SQL, as it
    /// does for a mapping without a policy, instead of calling
    /// ``createRelationships(forDestination:in:manager:)`` once per destination instance.
    ///
    /// `false` by default, so that an override of that hook always runs for every instance.
    /// Return `true` from a policy that does not override it (one that only answers
    /// ``function(named:arguments:manager:)`` or customizes pass 1): its relationships are
    /// then linked by one statement per relationship mapping. What the SQL can't express (a
    /// `FUNCTION` of the policy) still runs row by row, through the default hook. The links
    /// are those the default hook writes; only `Z_OPT`, which set-based SQL leaves alone,
    /// differs.
    open var createsRelationshipsByDefault: Bool { false }

    /// What this policy writes in entities other than its mapping's destination, as Core Data
    /// policies may: attribute names by entity name, in the step's destination version. An
    /// empty set declares that the policy inserts or deletes the entity's rows.
    ///
    /// Nothing at run time depends on it. `UpgradeMatrix` compares the values of attributes a
    /// step copies with the seeded store's; declared attributes (and the row counts of declared
    /// entities) are left to the policy's own checks and listed as unchecked, "written by" the
    /// policy, instead of failing the value check.
    ///
    /// ```swift
    /// override var writesOtherEntities: [String: Set<String>] { ["Customer": ["orderCount"]] }
    /// ```
    open var writesOtherEntities: [String: Set<String>] { [:] }

    /// Called when every destination instance of the mapping has been through pass 2.
    open func endRelationshipCreation(for mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Extra checks in pass 3, after the model's own rules passed. Throw to fail the step.
    open func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Called last.
    open func end(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Answers `FUNCTION($entityPolicy, "selector:", arguments…)`. Override and switch on
    /// the selector; call `super` for selectors you don't handle.
    ///
    /// An argument that follows a relationship of `$source` (`$source.team`) is an object of
    /// the *source* store: read it with ``MigrationManager/source``. A value returned for an
    /// attribute must have the attribute's form (``/StepwiseStore/AttributeValueForm``): for
    /// a Transformable, return the object (``MappingValue/transformable(_:)``), which the step
    /// archives with the attribute's transformer.
    open func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        throw MappingError(.unknownFunction(selector))
    }
}

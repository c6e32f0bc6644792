import StepwiseStore

/// The entity migration policies a step may use, by the name mappings give them.
///
/// Names may be module-qualified as Xcode writes them (`Migrations.Country5ToCountry6Policy`):
/// a lookup tries the full name, then the part after the last dot.
public struct PolicyRegistry: Sendable {
    private var factories: [String: @Sendable () -> EntityMigrationPolicy] = [:]
    private var versions: [String: String] = [:]
    /// The value transformers that Transformable attributes name, for the objects policies
    /// return for them (``registerValueTransformer(_:_:)``).
    public private(set) var valueTransformers = ValueTransformerRegistry()

    public init() {}

    /// Registers a policy under `name`; `make` creates a fresh instance per entity mapping run.
    ///
    /// - parameters:
    ///   - name: The name mapping models give the policy (an entity mapping's `policy`, or
    ///     the custom policy class name of an `.xcmappingmodel`).
    ///   - version: Change it when you change what the policy writes. An interrupted
    ///     upgrade resumes from the checkpoints of its finished steps only when the plan's
    ///     mappings and the versions of the policies they name are those it ran with; otherwise
    ///     it starts over from the store, since a checkpoint holds what the old code wrote.
    ///     Mapping files are compared by content; a policy is code, so its version is the only
    ///     change Stepwise can see.
    ///   - make: Makes a new instance of the policy.
    public mutating func register(
        _ name: String, version: String = "", _ make: @escaping @Sendable () -> EntityMigrationPolicy
    ) {
        factories[name] = make
        versions[name] = version
    }

    /// The version `name` was registered with (``register(_:version:_:)``), found as
    /// ``makePolicy(named:)`` finds the policy; nil when it isn't registered.
    public func version(of name: String) -> String? {
        registeredName(for: name).flatMap { versions[$0] }
    }

    /// A new instance of the policy registered as `name`, or nil.
    public func makePolicy(named name: String) -> EntityMigrationPolicy? {
        factory(named: name)?()
    }

    /// Whether ``makePolicy(named:)`` finds a policy for `name`, without making one.
    public func contains(_ name: String) -> Bool {
        factory(named: name) != nil
    }

    private func factory(named name: String) -> (@Sendable () -> EntityMigrationPolicy)? {
        registeredName(for: name).flatMap { factories[$0] }
    }

    /// The registered name a mapping's policy name finds: the full name, then the part after
    /// the last dot (`Migrations.ChefPolicy` finds `ChefPolicy`).
    private func registeredName(for name: String) -> String? {
        if factories[name] != nil { return name }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let unqualified = String(name[name.index(after: dot)...])
        return factories[unqualified] != nil ? unqualified : nil
    }

    /// Registers the value transformer a Transformable attribute names, for the objects
    /// policies return for it (``/StepwiseStore/TransformableValue``): Core Data's
    /// `transformedValue(_:)`, written in Swift.
    ///
    /// Attributes with no transformer, `NSSecureUnarchiveFromData` or `NSKeyedUnarchiveFromData`
    /// need none: Stepwise writes their keyed archives itself. Any other name not registered
    /// here is looked up with Foundation's `ValueTransformer(forName:)`.
    ///
    /// ```swift
    /// policies.registerValueTransformer("ColorTransformer") { value in
    ///     guard case .string(let hex) = value else { throw ColorError.notHex }
    ///     return Data(hex.utf8)
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - name: The attribute's `valueTransformerName` (module-qualified or not).
    ///   - transform: Turns an object into the bytes stored; throw when it can't.
    public mutating func registerValueTransformer(
        _ name: String, _ transform: @escaping ValueTransformerRegistry.Transform
    ) {
        valueTransformers.register(name, transform)
    }

    /// The registered names.
    public var names: [String] { factories.keys.sorted() }
}

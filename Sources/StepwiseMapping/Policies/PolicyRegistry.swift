/// The entity migration policies a step may use, by the name mappings give them.
///
/// Names may be module-qualified as Xcode writes them (`Migrations.Country5ToCountry6Policy`):
/// a lookup tries the full name, then the part after the last dot.
public struct PolicyRegistry: Sendable {
    private var factories: [String: @Sendable () -> EntityMigrationPolicy] = [:]

    public init() {}

    /// Registers a policy under `name`; `make` creates a fresh instance per entity mapping run.
    public mutating func register(_ name: String, _ make: @escaping @Sendable () -> EntityMigrationPolicy) {
        factories[name] = make
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
        if let make = factories[name] { return make }
        if let dot = name.lastIndex(of: ".") { return factories[String(name[name.index(after: dot)...])] }
        return nil
    }

    /// The registered names.
    public var names: [String] { factories.keys.sorted() }
}

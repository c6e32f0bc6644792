// snippet.hide
// EntityMigrationPolicies.md, "Write a policy": a policy that makes objects in pass 1. Built by
// `swift build`, never run.
// snippet.show
import Stepwise

final class CuisinePolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        var cuisines = manager.userInfo["cuisines"] as? [String: ObjectID] ?? [:]
        var cuisine: ObjectID?
        if let name = source.string("cuisine") {
            if let known = cuisines[name] {
                cuisine = known
            } else {
                let made = try manager.destination.insert("Cuisine", ["name": name])
                cuisines[name] = made
                manager.userInfo["cuisines"] = cuisines
                cuisine = made
            }
        }
        try manager.createDestinationInstance(
            forSource: source, in: mapping, policy: self, toOne: ["cuisine": cuisine])
    }

    override var createsRelationshipsByDefault: Bool { true }
}

import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Three versions that only rename, each through renaming identifiers, for tests of merged
/// inferred steps. It is not one of the `Versions/` samples.
///
/// | Pets | Pets 2 | Pets 3 |
/// | --- | --- | --- |
/// | Person(name, nickname, pets) | Owner(fullName, nickname, animals) | Keeper(displayName, nickname, creatures) |
/// | Pet(age, name, owner) | Animal(age, petName, owner) | Creature(age, label, keeper) |
///
/// Every step infers, but inferring `Pets → Pets 3` directly would drop every row: `Keeper`'s
/// renaming identifier is `Owner`, which `Pets` doesn't have. Only composing the two steps
/// carries the rows over in one pass.
package enum RenameChainHistory {
    /// v1: people and their pets.
    package static let v1 = ObjectModel("Pets", versionIdentifiers: ["1"]) {
        Entity("Person") {
            Attribute("name", .string).required()
            Attribute("nickname", .string)
            Relationship("pets", to: "Pet", inverse: "owner").toMany()
        }
        Entity("Pet") {
            Attribute("age", .integer16)
            Attribute("name", .string).required()
            Relationship("owner", to: "Person", inverse: "pets")
        }
    }

    /// v2: Person → Owner (name → fullName, pets → animals), Pet → Animal (name → petName).
    package static let v2 = ObjectModel("Pets 2", versionIdentifiers: ["2"]) {
        Entity("Animal") {
            Attribute("age", .integer16)
            Attribute("petName", .string).required().renamed(from: "name")
            Relationship("owner", to: "Owner", inverse: "animals")
        }.renamed(from: "Pet")
        Entity("Owner") {
            Attribute("fullName", .string).required().renamed(from: "name")
            Attribute("nickname", .string)
            Relationship("animals", to: "Animal", inverse: "owner").toMany().renamed(from: "pets")
        }.renamed(from: "Person")
    }

    /// v3: Owner → Keeper (fullName → displayName, animals → creatures), Animal → Creature
    /// (petName → label, owner → keeper).
    package static let v3 = ObjectModel("Pets 3", versionIdentifiers: ["3"]) {
        Entity("Creature") {
            Attribute("age", .integer16)
            Attribute("label", .string).required().renamed(from: "petName")
            Relationship("keeper", to: "Keeper", inverse: "creatures").renamed(from: "owner")
        }.renamed(from: "Animal")
        Entity("Keeper") {
            Attribute("displayName", .string).required().renamed(from: "fullName")
            Attribute("nickname", .string)
            Relationship("creatures", to: "Creature", inverse: "keeper").toMany().renamed(from: "animals")
        }.renamed(from: "Owner")
    }

    package static let history = VersionHistory([v1, v2, v3])

    /// A person of the seed and the names and ages of their pets.
    package struct Person: Sendable, Hashable {
        package var name: String
        package var nickname: String?
        package var pets: [Pet]

        package init(name: String, nickname: String?, pets: [Pet]) {
            self.name = name
            self.nickname = nickname
            self.pets = pets
        }
    }

    /// A pet of the seed.
    package struct Pet: Sendable, Hashable {
        package var name: String
        package var age: Int?

        package init(name: String, age: Int?) {
            self.name = name
            self.age = age
        }
    }

    /// The seed's people, in insertion order: pets with and without an age, a person without
    /// a nickname, a person without pets.
    package static let people: [Person] = [
        Person(name: "Ada Lovelace", nickname: "Ada", pets: [Pet(name: "Rex", age: 3), Pet(name: "Tom", age: nil)]),
        Person(name: "Grace Hopper", nickname: nil, pets: [Pet(name: "Mia", age: 7)]),
        Person(name: "Alan Turing", nickname: "Prof", pets: []),
    ]

    /// A pet without an owner.
    package static let stray = Pet(name: "Stray", age: 1)

    /// Creates a store at `v1` at `url` holding ``people`` and the ``stray``.
    package static func seed(at url: URL) throws {
        try StoreCreator.createStore(at: url, model: v1)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: v1)
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            for person in people {
                let owner = try objects.insert("Person", ["name": person.name, "nickname": person.nickname])
                for pet in person.pets {
                    _ = try objects.insert("Pet", ["name": pet.name, "age": pet.age, "owner": owner])
                }
            }
            _ = try objects.insert("Pet", ["name": stray.name, "age": stray.age])
        }
    }
}

import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

// The policy of the article "Porting a Core Data policy", as the article shows it: this file
// keeps the article's code compiling and checks what it writes.

/// Splits a player's name, files the player under one Team per club name (made or updated),
/// and answers the mapping's `FUNCTION($entityPolicy, …)` calls.
final class PlayerMigrationPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        // super: one Player from the mapping's attribute expressions, associated with `source`.
        let player = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)

        // source.value(forKey: "club"): follow the to-one in the source store. The row's own
        // source["club"] is only the club's Z_PK.
        guard let club = try manager.source.related(source.id, "club").first,
            let clubName = try manager.source.object(club).string("name")
        else { return }

        // A fetch request with a predicate, in the destination store.
        let team: ObjectID
        if let existing = try manager.destination.fetch("Team", where: .equal("name", clubName)).first {
            // Update an existing destination object: setValue(_:forKey:).
            let count = existing.int("playerCount") ?? 0
            try manager.destination.update(existing.id, ["playerCount": count + 1])
            team = existing.id
        } else {
            // NSEntityDescription.insertNewObject(forEntityName:into:).
            team = try manager.destination.insert("Team", ["name": clubName, "playerCount": 1])
        }
        // player.setValue(team, forKey: "team"): the inverse (Team.players) follows.
        try manager.destination.relate(player, "team", to: team)
    }

    override func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {
        // Navigate the other way: each team's players, through the inverse.
        for team in try manager.destination.fetch("Team") {
            let players = try manager.destination.related(team.id, "players")
            guard Int64(players.count) == team.int("playerCount") else {
                throw RosterError.countMismatch(team: team.string("name") ?? "?")
            }
        }
    }

    override func function(
        named selector: String, arguments: [MappingValue], manager: MigrationManager
    ) throws -> MappingValue {
        switch selector {
        case "firstNameOf:":
            return .string(Self.nameParts(arguments.first).first ?? "")
        case "lastNameOf:":
            return .string(Self.nameParts(arguments.first).dropFirst().joined(separator: " "))
        case "homepageForHandle:":
            // A URI attribute takes the URL's text.
            guard let handle = arguments.first?.stringValue else { return .null }
            return .string("https://example.com/players/\(handle)")
        case "tagsForClub:":
            // $source.club arrives as .object(id): an object of the SOURCE store.
            guard case .object(let club)? = arguments.first,
                let name = try manager.source.object(club).string("name")
            else { return .transformable([]) }
            // A Transformable takes the object; Stepwise archives it.
            return .transformable([.string(name), "player"])
        default:
            return try super.function(named: selector, arguments: arguments, manager: manager)
        }
    }

    private static func nameParts(_ value: MappingValue?) -> [String] {
        (value?.stringValue ?? "").split(separator: " ").map(String.init)
    }

    enum RosterError: Error {
        case countMismatch(team: String)
    }
}

@Suite("Ported Core Data policy")
struct PortedPolicyTests {
    enum Roster {
        static let v1 = ObjectModel("Roster") {
            Entity("Club") {
                Attribute("name", .string).required()
                Relationship("players", to: "Player", inverse: "club").toMany()
            }
            Entity("Player") {
                Attribute("name", .string).required()
                Attribute("joined", .date)
                Attribute("handle", .string)
                Relationship("club", to: "Club", inverse: "players")
            }
        }

        static let v2 = ObjectModel("Roster 2") {
            Entity("Team") {
                Attribute("name", .string).required()
                Attribute("playerCount", .integer32).required().defaultValue("0")
                Relationship("players", to: "Player", inverse: "team").toMany()
            }
            Entity("Player") {
                Attribute("firstName", .string).required()
                Attribute("lastName", .string)
                Attribute("joined", .date)
                Attribute("homepage", .uri)
                Attribute("tags", .transformable).transformer("NSSecureUnarchiveFromData")
                Relationship("team", to: "Team", inverse: "players")
            }
        }

        /// The article's mapping file.
        static let mapping = """
            {
              "name": "Roster → Roster 2", "source": "Roster", "destination": "Roster 2",
              "entityMappings": [
                {
                  "name": "PlayerToPlayer", "source": "Player", "destination": "Player",
                  "policy": "PlayerMigrationPolicy",
                  "attributes": {
                    "firstName": "FUNCTION($entityPolicy, \\"firstNameOf:\\", $source.name)",
                    "lastName": "FUNCTION($entityPolicy, \\"lastNameOf:\\", $source.name)",
                    "joined": "$source.joined",
                    "homepage": "FUNCTION($entityPolicy, \\"homepageForHandle:\\", $source.handle)",
                    "tags": "FUNCTION($entityPolicy, \\"tagsForClub:\\", $source.club)"
                  }
                }
              ]
            }
            """
    }

    static let joined = Date(timeIntervalSinceReferenceDate: 700_000_000)

    /// Two clubs; three players, the third without a club or a handle.
    static func makeSource(at url: URL) throws {
        try StepFixtures.store(at: url, model: Roster.v1) { objects in
            let arsenal = try objects.insert("Club", ["name": "Arsenal"])
            let ajax = try objects.insert("Club", ["name": "Ajax"])
            _ = try objects.insert(
                "Player", ["name": "Ada Lovelace", "joined": joined, "handle": "ada", "club": arsenal])
            _ = try objects.insert("Player", ["name": "Alan Mathison Turing", "handle": "alan", "club": arsenal])
            _ = try objects.insert("Player", ["name": "Grace Hopper", "club": ajax])
            _ = try objects.insert("Player", ["name": "Edsger"])
        }
    }

    static func upgrade(_ source: URL, to destination: URL) throws {
        var policies = PolicyRegistry()
        policies.register("PlayerMigrationPolicy") { PlayerMigrationPolicy() }
        let models = try StepFixtures.mappingModels([Roster.mapping], from: Roster.v1, to: Roster.v2)
        _ = try MigrationStep(from: Roster.v1, to: Roster.v2, mappingModels: models, policies: policies)
            .run(source: source, destination: destination)
    }

    @Test func thePortedPolicyWritesWhatCoreDatasWould() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("Roster.sqlite")
        let destination = directory.path("Roster 2.sqlite")
        try Self.makeSource(at: source)
        try Self.upgrade(source, to: destination)

        try StepFixtures.read(destination, Roster.v2) { objects in
            // One team per club, made once and then updated.
            let teams = try objects.fetch("Team")
            #expect(teams.map { $0.string("name") } == ["Arsenal", "Ajax"])
            #expect(teams.map { $0.int("playerCount") } == [2, 1])
            // Updating bumped Z_OPT, as a save of a changed object does.
            #expect(teams.map(\.version) == [2, 1])

            let players = try objects.fetch("Player")
            #expect(players.map { $0.string("firstName") } == ["Ada", "Alan", "Grace", "Edsger"])
            #expect(players.map { $0.string("lastName") } == ["Lovelace", "Mathison Turing", "Hopper", ""])
            #expect(players[0].date("joined") == Self.joined)
            #expect(players[1].date("joined") == nil)
            #expect(
                players.map { $0.string("homepage") } == [
                    "https://example.com/players/ada", "https://example.com/players/alan", nil, nil,
                ])
            // Links, both ways.
            let teamNames = try players.map { player in
                try objects.related(player.id, "team").first.map { try objects.object($0).string("name") } ?? nil
            }
            #expect(teamNames == ["Arsenal", "Arsenal", "Ajax", nil])
            #expect(try objects.related(teams[0].id, "players") == [players[0].id, players[1].id])

            // The Transformable was archived from the object the policy returned.
            #expect(
                players.map { TransformableValue.fromDatabaseValue($0["tags"]) } == [
                    ["Arsenal", "player"], ["Arsenal", "player"], ["Ajax", "player"], [],
                ])
            let archive = try #require(players[0].data("tags"))
            let decoded =
                try NSKeyedUnarchiver.unarchivedObject(
                    ofClasses: [NSArray.self, NSString.self], from: archive) as? [String]
            #expect(decoded == ["Arsenal", "player"])
        }
    }

    @Test func twoUpgradesOfOneStoreWriteTheSameTransformableBytes() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("Roster.sqlite")
        try Self.makeSource(at: source)
        var columns: [[Data?]] = []
        for run in 1...2 {
            let destination = directory.path("Roster 2 (\(run)).sqlite")
            try Self.upgrade(source, to: destination)
            columns.append(
                try StepFixtures.read(destination, Roster.v2) { try $0.fetch("Player").map { $0.data("tags") } })
        }
        #expect(columns[0].count == 4)
        #expect(columns[0] == columns[1])
        // Both are the bytes of Stepwise's own archive, which no hash order reaches
        // (TransformableArchiveTests fixes them across runs).
        #expect(columns[0][0] == TransformableValue.array(["Arsenal", "player"]).keyedArchive())
    }
}

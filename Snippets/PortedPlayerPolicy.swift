// snippet.hide
// PortingACoreDataPolicy.md: the Core Data `PlayerMigrationPolicy` ported, one slice per step
// (Tests/StepwiseMappingTests/Policies/PortedPolicyTests.swift runs the same policy on a store).
// Built by `swift build`, never run.
import Foundation
import Stepwise

enum RosterError: Error {
    case countMismatch(team: String)
}

let modelURL = URL(fileURLWithPath: "Roster.xcdatamodeld")
// snippet.show
// snippet.register
var policies = PolicyRegistry()
policies.register("PlayerMigrationPolicy") { PlayerMigrationPolicy() }
let upgrader = try Upgrader(bundleAt: modelURL, policies: policies)
// snippet.end
// snippet.hide
_ = upgrader

final class PlayerMigrationPolicy: EntityMigrationPolicy {
    // snippet.show
    // snippet.createDestinationInstances
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let player = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
        guard let club = try manager.source.related(source.id, "club").first,
            let clubName = try manager.source.object(club).string("name")
        else { return }
        let team: ObjectID
        if let existing = try manager.destination.fetch("Team", where: .equal("name", clubName)).first {
            let count = existing.int("playerCount") ?? 0
            try manager.destination.update(existing.id, ["playerCount": count + 1])
            team = existing.id
        } else {
            team = try manager.destination.insert("Team", ["name": clubName, "playerCount": 1])
        }
        try manager.destination.relate(player, "team", to: team)
    }
    // snippet.end

    // snippet.performCustomValidation
    override func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {
        for team in try manager.destination.fetch("Team") {
            let players = try manager.destination.related(team.id, "players")
            guard Int64(players.count) == team.int("playerCount") else {
                throw RosterError.countMismatch(team: team.string("name") ?? "?")
            }
        }
    }
    // snippet.end

    // snippet.function
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
    // snippet.end
    // snippet.hide
}

// The steps' single lines, each in a function of its own so that each compiles where the article
// shows it: in a hook, with `source`, `mapping`, `manager` and `self` at hand.
extension PlayerMigrationPolicy {
    func step3CreateInstance(source: StoredObject, mapping: EntityMapping, manager: MigrationManager) throws {
        // snippet.show
        // snippet.createDestinationInstance
        let player = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
        // snippet.end
        // snippet.hide
        _ = player
    }

    func step3Insert(manager: MigrationManager, clubName: String) throws {
        // snippet.show
        // snippet.insert
        let team = try manager.destination.insert("Team", ["name": clubName, "playerCount": 1])
        // snippet.end
        // snippet.hide
        _ = team
    }

    func step4Composite(source: StoredObject, manager: MigrationManager, book: ObjectID) throws {
        // snippet.show
        // snippet.composite
        // Core Data: let author = source.value(forKey: "author") as? [String: Any]
        if case .composite(var author) = try manager.source.value(forKeyPath: "author", of: source) {
            author["published"] = author.removeValue(forKey: "year")
            try manager.destination.setValue(.composite(author), forKeyPath: "author", of: book)
        }
        // snippet.end
        // snippet.hide
    }

    func step4ReadTheClub(source: StoredObject, manager: MigrationManager) throws {
        // snippet.show
        // snippet.readTheClub
        guard let club = try manager.source.related(source.id, "club").first,
            let clubName = try manager.source.object(club).string("name")
        else { return }
        // snippet.end
        // snippet.hide
        _ = clubName
    }

    func step6Update(manager: MigrationManager, clubName: String) throws {
        var team: ObjectID?
        // snippet.show
        // snippet.update
        if let existing = try manager.destination.fetch("Team", where: .equal("name", clubName)).first {
            let count = existing.int("playerCount") ?? 0
            try manager.destination.update(existing.id, ["playerCount": count + 1])
            team = existing.id
        }
        // snippet.end
        // snippet.hide
        _ = team
    }

    func step8Composite(selector: String, arguments: [MappingValue]) -> MappingValue {
        switch selector {
        // snippet.show
        // snippet.compositeFunction
        case "authorOf:":
            guard case .composite(var author)? = arguments.first else { return .null }
            author["published"] = author.removeValue(forKey: "year")
            return .composite(author)
        // snippet.end
        // snippet.hide
        default:
            return .null
        }
    }
}

enum ColorError: Error {
    case notHex
}

func registerTheColorTransformer(in policies: inout PolicyRegistry) {
    // snippet.show
    // snippet.valueTransformer
    policies.registerValueTransformer("ColorTransformer") { value in
        guard case .string(let hex) = value else { throw ColorError.notHex }
        return Data(hex.utf8)
    }
    // snippet.end
    // snippet.hide
}

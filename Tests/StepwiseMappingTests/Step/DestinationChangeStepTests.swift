import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import StepwiseMapping

/// A relationship whose destination entity changes is inferred as Core Data infers it: by name,
/// keeping the links to objects that become a kind of the new destination and leaving out the
/// others (`-[NSMigrationManager destinationInstancesForSourceRelationshipNamed:sourceInstances:]`).
/// Stepwise names and counts the links it leaves out.
@Suite("Inferred steps: a relationship's destination changes")
struct DestinationChangeStepTests {
    /// How `Show.images` and its inverse are stored.
    enum Storage: String, CaseIterable, CustomTestStringConvertible {
        /// `Show.images` is a to-one; its inverse `shows` a to-many.
        case toOne
        /// `Show.images` is a to-many; its inverse `shows` a to-one.
        case toMany
        /// Both are to-many: a join table.
        case manyToMany

        var testDescription: String { rawValue }
        var imagesIsToMany: Bool { self != .toOne }
        var showsIsToMany: Bool { self != .toMany }
    }

    /// `Show.images` points at `Image`, whose subentity is `InstallShot`.
    static func before(_ storage: Storage) -> ObjectModel {
        ObjectModel("Gallery") {
            Entity("Image") {
                Attribute("url", .string)
                Relationship("shows", to: "Show", inverse: "images").toMany(if: storage.showsIsToMany)
            }
            Entity("InstallShot", parent: "Image") { Attribute("room", .string) }
            Entity("Show") {
                Attribute("name", .string)
                Relationship("images", to: "Image", inverse: "shows").toMany(if: storage.imagesIsToMany)
            }
        }
    }

    /// `Show.images` now points at the subentity `InstallShot`, which declares the inverse: a
    /// plain `Image` doesn't become an `InstallShot`, so its links are left out (Artsy's
    /// `Show.installationImages`, ArtsyFolio v2.0 → v2.1).
    static func after(_ storage: Storage) -> ObjectModel {
        ObjectModel("Gallery 2") {
            Entity("Image") { Attribute("url", .string) }
            Entity("InstallShot", parent: "Image") {
                Attribute("room", .string)
                Relationship("shows", to: "Show", inverse: "images").toMany(if: storage.showsIsToMany)
            }
            Entity("Show") {
                Attribute("name", .string)
                Relationship("images", to: "InstallShot", inverse: "shows").toMany(if: storage.imagesIsToMany)
            }
        }
    }

    struct Outcome {
        let report: StepReport
        /// Each show's name and its images' urls, sorted.
        let links: [String: [String]]
        /// Image rows of each entity, by url.
        let images: [String]
        /// Non-null values left in the destination's `ZSHOWS` column by rows of plain `Image`s,
        /// which no longer have the relationship.
        let staleKeys: Int
    }

    /// Two shows: "North" holds a plain image and an install shot, "South" one install shot
    /// (or, with a to-one `images`, "North" holds the plain image only).
    func run(_ storage: Storage) throws -> Outcome {
        let directory = try TemporaryDirectory()
        let source = directory.url.appendingPathComponent("before.sqlite")
        let destination = directory.url.appendingPathComponent("after.sqlite")
        let (before, after) = (Self.before(storage), Self.after(storage))
        try StepFixtures.store(at: source, model: before) { objects in
            let plain = try objects.insert("Image", ["url": "plain"])
            let shotA = try objects.insert("InstallShot", ["url": "shot-a", "room": "1"])
            let shotB = try objects.insert("InstallShot", ["url": "shot-b", "room": "2"])
            let north = try objects.insert("Show", ["name": "North"])
            let south = try objects.insert("Show", ["name": "South"])
            try objects.relate(north, "images", to: plain)
            if storage.imagesIsToMany { try objects.relate(north, "images", to: shotA) }
            try objects.relate(south, "images", to: shotB)
        }
        let mapping = try MappingInference.inferMapping(from: before, to: after)
        let report = try MigrationStep(from: before, to: after, mappingModels: [mapping])
            .run(source: source, destination: destination)
        let links = try StepFixtures.read(destination, after) { objects in
            var links: [String: [String]] = [:]
            for show in try objects.fetch("Show") {
                links[show.string("name") ?? ""] = try objects.related(show.id, "images").map {
                    try objects.object($0).string("url") ?? ""
                }.sorted()
            }
            return links
        }
        let images = try StepFixtures.read(destination, after) { objects in
            try objects.fetch("Image").map { $0.string("url") ?? "" }.sorted()
        }
        let staleKeys = try DatabaseQueue(path: destination.path).read { db in
            let layout = try StoreLayout(model: after)
            guard let image = layout.entity(named: "Image"),
                case .foreignKey(let column, _, _)? = layout.entity(named: "InstallShot")?.relationship(named: "shows")?
                    .storage
            else { return 0 }
            return try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(\(column.quotedSQLIdentifier)) FROM \(image.tableName.quotedSQLIdentifier) \
                    WHERE "Z_ENT" = \(image.number)
                    """) ?? 0
        }
        return Outcome(report: report, links: links, images: images, staleKeys: staleKeys)
    }

    @Test(
        "the links to objects that don't become the new destination are left out and named", arguments: Storage.allCases
    )
    func linksToObjectsThatDontFitAreLeftOutAndNamed(storage: Storage) throws {
        let outcome = try run(storage)
        #expect(outcome.links["North"] == (storage.imagesIsToMany ? ["shot-a"] : []))
        #expect(outcome.links["South"] == ["shot-b"])
        #expect(outcome.images == ["plain", "shot-a", "shot-b"])
        #expect(outcome.staleKeys == 0)
        #expect(
            outcome.report.drops == [
                DroppedData(
                    entity: "Show", property: "images", kind: .relationship, reason: .destinationChanged,
                    linksTo: ["Image"], count: 1)
            ])
        #expect(
            outcome.report.drops.first?.description
                == "1 link of Show.images to Image (its destination changed to an entity they don't become)")
    }

    /// `Album.cover` points at `Artwork`, then at the unrelated `Picture`: every link is left out,
    /// and both entities keep their rows (Artsy's covers, ArtsyFolio v1.5 → v1.7).
    @Test("a relationship pointed at an unrelated entity leaves out every link", arguments: [false, true])
    func unrelatedDestinationLeavesOutEveryLink(toMany: Bool) throws {
        let before = ObjectModel("Albums") {
            Entity("Album") { Relationship("cover", to: "Artwork").toMany(if: toMany) }
            Entity("Artwork") { Attribute("title", .string) }
            Entity("Picture") { Attribute("url", .string) }
        }
        let after = ObjectModel("Albums 2") {
            Entity("Album") { Relationship("cover", to: "Picture").toMany(if: toMany) }
            Entity("Artwork") { Attribute("title", .string) }
            Entity("Picture") { Attribute("url", .string) }
        }
        let directory = try TemporaryDirectory()
        let source = directory.url.appendingPathComponent("before.sqlite")
        let destination = directory.url.appendingPathComponent("after.sqlite")
        try StepFixtures.store(at: source, model: before) { objects in
            for index in 0..<3 {
                let album = try objects.insert("Album")
                _ = try objects.insert("Picture", ["url": "p\(index)"])
                let artwork = try objects.insert("Artwork", ["title": "a\(index)"])
                if index > 0 { try objects.relate(album, "cover", to: artwork) }
            }
        }
        let mapping = try MappingInference.inferMapping(from: before, to: after)
        #expect(
            DroppedData.planned(by: [mapping], from: before, to: after) == [
                DroppedData(
                    entity: "Album", property: "cover", kind: .relationship, reason: .destinationChanged,
                    linksTo: ["Artwork"])
            ])
        let report = try MigrationStep(from: before, to: after, mappingModels: [mapping])
            .run(source: source, destination: destination)
        #expect(report.drops.map(\.count) == [2])
        let counts = try StepFixtures.read(destination, after) { objects in
            [
                try objects.count("Album"), try objects.count("Artwork"), try objects.count("Picture"),
                try objects.fetch("Album").map { try objects.related($0.id, "cover").count }.reduce(0, +),
            ]
        }
        #expect(counts == [3, 3, 3, 0])
    }
}

extension Relationship {
    /// This relationship, made to-many when `toMany` is true.
    fileprivate func toMany(if toMany: Bool) -> Relationship {
        toMany ? self.toMany() : self
    }
}

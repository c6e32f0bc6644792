import Foundation
import GRDB
import StepwiseModel
import StepwiseTesting
import Testing

@testable import StepwiseStore

/// A many-to-many ordered on both sides keeps two positions in each join row, one per side.
/// Core Data appends an object to both ordered sets when it relates them, so `relate` writes
/// both: the side it is called on, and the inverse.
@Suite("Object access: many-to-many ordered on both sides")
struct OrderedManyToManyObjectTests {
    static let model = ObjectModel("Playlists") {
        Entity("Playlist") {
            Attribute("name", .string)
            Relationship("songs", to: "Song", inverse: "playlists").ordered()
        }
        Entity("Song") {
            Attribute("title", .string)
            Relationship("playlists", to: "Playlist", inverse: "songs").ordered()
        }
    }

    @Test("relating from either side appends to both ordered sets")
    func relatingAppendsToBothSides() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Playlists.sqlite")
        try StoreCreator.createStore(at: url, model: Self.model)
        let layout = try StoreLayout(model: Self.model)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            let mix = try objects.insert("Playlist", ["name": "mix"])
            let road = try objects.insert("Playlist", ["name": "road"])
            let first = try objects.insert("Song", ["title": "first"])
            let second = try objects.insert("Song", ["title": "second"])
            try objects.relate(mix, "songs", to: second)
            try objects.relate(mix, "songs", to: first)
            // From the other side: `road` is appended to `first`'s playlists, after `mix`.
            try objects.relate(first, "playlists", to: road)
            try objects.relate(road, "songs", to: second)

            #expect(try objects.related(mix, "songs") == [second, first])
            #expect(try objects.related(road, "songs") == [first, second])
            #expect(try objects.related(first, "playlists") == [mix, road])
            #expect(try objects.related(second, "playlists") == [mix, road])

            guard
                case .joinTable(let table, _, _, let songOrder?)? = layout.entity(named: "Playlist")?
                    .relationship(named: "songs")?.storage,
                case .joinTable(_, _, _, let playlistOrder?)? = layout.entity(named: "Song")?
                    .relationship(named: "playlists")?.storage
            else {
                Issue.record("both sides should be ordered in a join table")
                return
            }
            let unpositioned = try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM \(table.quotedSQLIdentifier)
                    WHERE \(songOrder.quotedSQLIdentifier) IS NULL OR \(playlistOrder.quotedSQLIdentifier) IS NULL
                    """)
            #expect(unpositioned == 0)
        }
    }
}

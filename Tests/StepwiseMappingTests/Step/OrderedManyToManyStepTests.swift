import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A many-to-many ordered on both sides keeps two positions in each join row, one per side
/// (`Z_FOK_…`; Wire's `lastServerSyncedActiveParticipants` is one). A step that rebuilds
/// must keep both: pass 2 links the pairs from one side first, and the other side's
/// positions go into the rows it already wrote.
@Suite("Many-to-many ordered on both sides")
struct OrderedManyToManyStepTests {
    static func music(_ name: String, duration: Bool) -> ObjectModel {
        ObjectModel(name) {
            Entity("Playlist") {
                Attribute("title", .string)
                Relationship("songs", to: "Song", inverse: "playlists").ordered()
            }
            Entity("Song") {
                Attribute("title", .string)
                if duration { Attribute("duration", .double) }
                Relationship("playlists", to: "Playlist", inverse: "songs").ordered()
            }
        }
    }

    static let before = music("Music", duration: false)
    static let after = music("Music 2", duration: true)

    /// Each playlist's songs and each song's playlists, in their orders.
    static let songs: KeyValuePairs<String, [String]> = ["p1": ["s3", "s1", "s4"], "p2": ["s2", "s3"]]
    static let playlists: KeyValuePairs<String, [String]> = [
        "s3": ["p2", "p1"], "s1": ["p1"], "s2": ["p2"], "s4": ["p1"],
    ]

    /// The orders as the store holds them, read through `model`'s layout.
    static func orders(at url: URL, model: ObjectModel) throws -> (
        songs: [String: [String]], playlists: [String: [String]]
    ) {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: model))
            func titles(_ entity: String, _ relationship: String) throws -> [String: [String]] {
                var found: [String: [String]] = [:]
                for object in try objects.fetch(entity) {
                    found[object.string("title") ?? ""] = try objects.related(object.id, relationship).map {
                        try objects.object($0).string("title") ?? ""
                    }
                }
                return found
            }
            return (try titles("Playlist", "songs"), try titles("Song", "playlists"))
        }
    }

    @Test func aRebuildKeepsThePositionsOfBothSides() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("Music.sqlite")
        try StoreCreator.createStore(at: source, model: Self.before)
        let layout = try StoreLayout(model: Self.before)
        guard
            case .joinTable(let table, let playlistColumn, let songColumn, let songOrder?)? =
                layout.entity(named: "Playlist")?.relationship(named: "songs")?.storage,
            case .joinTable(_, _, _, let playlistOrder?)? =
                layout.entity(named: "Song")?.relationship(named: "playlists")?.storage
        else {
            Issue.record("the relationship isn't a join table ordered on both sides")
            return
        }
        try DatabaseQueue(path: source.path).write { db in
            let objects = ObjectContext(db, layout: layout)
            var ids: [String: ObjectID] = [:]
            for title in ["p1", "p2"] { ids[title] = try objects.insert("Playlist", ["title": title]) }
            for title in ["s1", "s2", "s3", "s4"] { ids[title] = try objects.insert("Song", ["title": title]) }
            // Both positions of each pair, as Core Data keeps them.
            for (playlist, titles) in Self.songs {
                for (index, song) in titles.enumerated() {
                    let position = Self.playlists.first { $0.key == song }?.value.firstIndex(of: playlist) ?? 0
                    try db.execute(
                        sql: """
                            INSERT INTO \(table.quotedSQLIdentifier)
                            (\(playlistColumn.quotedSQLIdentifier), \(songColumn.quotedSQLIdentifier),
                             \(songOrder.quotedSQLIdentifier), \(playlistOrder.quotedSQLIdentifier))
                            VALUES (?, ?, ?, ?)
                            """,
                        arguments: [
                            ids[playlist]?.primaryKey, ids[song]?.primaryKey, (index + 1) * 1024, (position + 1) * 1024,
                        ])
                }
            }
        }
        let expected = try Self.orders(at: source, model: Self.before)
        #expect(expected.songs == Dictionary(uniqueKeysWithValues: Self.songs.map { ($0.key, $0.value) }))
        #expect(expected.playlists == Dictionary(uniqueKeysWithValues: Self.playlists.map { ($0.key, $0.value) }))

        // A willMigrate hook sees the source's rows: the step rebuilds.
        var step = MigrationStep(
            from: Self.before, to: Self.after,
            stage: MigrationStage(from: "Music", to: "Music 2", willMigrate: { _, _ in }))
        step.allowsPartialRebuild = false
        let destination = directory.path("Music 2.sqlite")
        #expect(try step.run(source: source, destination: destination).strategy == .rebuild)
        let rebuilt = try Self.orders(at: destination, model: Self.after)
        #expect(rebuilt.songs == expected.songs)
        #expect(rebuilt.playlists == expected.playlists)
    }
}

import Foundation
import GRDB
import StepwiseModel
import StepwiseTesting
import Testing

@testable import StepwiseStore

/// Replacing a to-many in one call (issue 45): a policy that rebuilds an ordered relationship
/// no longer unlinks and relinks each object itself.
@Suite("Object access: replacing what a relationship holds")
struct SetRelatedTests {
    /// An ordered one-to-many (`Album.tracks`) and a many-to-many ordered on both sides
    /// (`Playlist.songs`).
    static let model = ObjectModel("Music") {
        Entity("Album") {
            Attribute("name", .string)
            Relationship("tracks", to: "Track", inverse: "album").ordered()
        }
        Entity("Track") {
            Attribute("title", .string)
            Relationship("album", to: "Album", inverse: "tracks")
        }
        Entity("Playlist") {
            Attribute("name", .string)
            Relationship("songs", to: "Song", inverse: "playlists").ordered()
        }
        Entity("Song") {
            Attribute("title", .string)
            Relationship("playlists", to: "Playlist", inverse: "songs").ordered()
        }
    }

    func withObjects(_ body: (ObjectContext) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Music.sqlite")
        try StoreCreator.createStore(at: url, model: Self.model)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in try body(ObjectContext(db, layout: try StoreLayout(model: Self.model))) }
    }

    @Test func anOrderedOneToManyTakesTheNewObjectsInTheirOrder() throws {
        try withObjects { objects in
            let album = try objects.insert("Album", ["name": "A"])
            let tracks = try (1...4).map { try objects.insert("Track", ["title": "t\($0)"]) }
            for track in tracks.prefix(3) { try objects.relate(album, "tracks", to: track) }

            try objects.setRelated(album, "tracks", to: [tracks[2], tracks[3], tracks[0], tracks[2]])
            #expect(try objects.related(album, "tracks") == [tracks[2], tracks[3], tracks[0]])
            // The track left out has no album; the others point back.
            #expect(try objects.related(tracks[1], "album") == [])
            #expect(try objects.related(tracks[3], "album") == [album])

            try objects.setRelated(album, "tracks", to: [])
            #expect(try objects.related(album, "tracks") == [])
        }
    }

    @Test func anOrderedManyToManyKeepsBothSidesConsistent() throws {
        try withObjects { objects in
            let mix = try objects.insert("Playlist", ["name": "mix"])
            let songs = try (1...3).map { try objects.insert("Song", ["title": "s\($0)"]) }
            for song in songs { try objects.relate(mix, "songs", to: song) }

            try objects.setRelated(mix, "songs", to: [songs[2], songs[0]])
            #expect(try objects.related(mix, "songs") == [songs[2], songs[0]])
            #expect(try objects.related(songs[1], "playlists") == [])
            #expect(try objects.related(songs[0], "playlists") == [mix])
        }
    }

    @Test func aToOneTakesOneObjectOrNone() throws {
        try withObjects { objects in
            let album = try objects.insert("Album", ["name": "A"])
            let track = try objects.insert("Track", ["title": "t"])
            try objects.setRelated(track, "album", to: [album])
            #expect(try objects.related(album, "tracks") == [track])
            #expect(throws: StoreError.self) { try objects.setRelated(track, "album", to: [album, album]) }
            try objects.setRelated(track, "album", to: [])
            #expect(try objects.related(track, "album") == [])
        }
    }
}

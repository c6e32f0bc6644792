import Testing

@testable import StepwiseStore

/// The port of Core Data's private hash tables, pinned on values computed by the Python simulator
/// the rule was derived and checked with (`cdsim.py`: `tiger_hash(k, 32)`, `leopard_strhash(k, 32)`,
/// `leopard_bucket_hash(k, 32)`, `Leopard(32)`, `tiger_order`), which names all of the corpus's
/// join tables as Core Data did.
@Suite("CoreDataPropertyOrder")
struct CoreDataPropertyOrderTests {
    @Test func hashesMatchTheSimulator() {
        // Short keys (hashed whole), a long one (Tiger hashes 24 code units of it) and one of
        // 100 (Leopard hashes 96 of it).
        let long = "lastServerSyncedActiveParticipants"
        let veryLong = String(repeating: "x", count: 100)
        #expect(CoreDataPropertyOrder.tigerHash("_ent") == 2_053_296_458)
        #expect(CoreDataPropertyOrder.tigerHash("favorites") == 2_162_238_172)
        #expect(CoreDataPropertyOrder.tigerHash("favoriteFolders") == 3_419_874_366)
        #expect(CoreDataPropertyOrder.tigerHash(long) == 3_946_425_760)
        #expect(CoreDataPropertyOrder.tigerHash(veryLong) == 3_267_855_844)
        #expect(CoreDataPropertyOrder.leopardStringHash(long) == 879_806_213)
        #expect(CoreDataPropertyOrder.leopardStringHash(veryLong) == 2_830_238_628)
        #expect(CoreDataPropertyOrder.leopardBucketHash("_ent") == 3_555_739_345)
        #expect(CoreDataPropertyOrder.leopardBucketHash("favorites") == 3_241_315_493)
        #expect(CoreDataPropertyOrder.leopardBucketHash("favoriteFolders") == 1_072_190_590)
        #expect(CoreDataPropertyOrder.leopardBucketHash(long) == 2_165_758_365)
        #expect(CoreDataPropertyOrder.leopardBucketHash(veryLong) == 3_100_825_719)
    }

    @Test func tablesOrderKeysAsTheSimulatorDoes() {
        // Twelve keys: the Leopard table grows from 4 buckets to 8 and 16 on the way.
        let keys = [
            "_ent", "_pk", "_opt", "date", "title", "url", "uuid", "_ZPARENT", "parent", "children", "favorites",
            "favoriteFolders",
        ]
        var table = CoreDataPropertyOrder.LeopardTable()
        for key in keys { table.insert(key) }
        #expect(table.count == 12)
        #expect(
            table.keys == [
                "parent", "_ent", "url", "uuid", "_pk", "_opt", "favorites", "children", "title", "_ZPARENT", "date",
                "favoriteFolders",
            ])
        // A Tiger table for 12 keys has 23 buckets.
        #expect(
            CoreDataPropertyOrder.visitingOrder(of: table.keys) == [
                "_ent", "_pk", "title", "_opt", "favorites", "url", "_ZPARENT", "parent", "children", "uuid",
                "favoriteFolders", "date",
            ])
    }

    @Test func insertingAKeyTwiceKeepsOneSlot() {
        var table = CoreDataPropertyOrder.LeopardTable()
        for key in ["a", "b", "c", "a"] { table.insert(key) }
        #expect(table.count == 3)
        #expect(Set(table.keys) == ["a", "b", "c"])
        #expect(table.contains("a") && !table.contains("d"))
    }
}

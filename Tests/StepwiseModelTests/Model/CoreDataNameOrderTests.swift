import StepwiseModel
import Testing

/// Core Data's entity order ignores case (`caseInsensitiveCompare:`); a byte-order sort puts
/// every uppercase letter before every lowercase one.
@Suite("Core Data's name order")
struct CoreDataNameOrderTests {
    @Test(arguments: [
        // DuckDuckGo's SyncMetadata store (Core Data 1338) numbers these 1 and 2.
        ("SyncableSettingsMetadata", "SyncFeatureEntity"),
        ("apple", "Banana"),
        ("Item", "itemDetail"),
        // Case folds to lowercase: `_` (0x5F) sorts before every letter.
        ("Foo_Bar", "FooBar"),
        // Names equal but for case: byte order, so the order is stable.
        ("ITEM", "Item"),
    ])
    func theFirstPrecedesTheSecond(first: String, second: String) {
        #expect(CoreDataNameOrder.precedes(first, second))
        #expect(!CoreDataNameOrder.precedes(second, first))
    }

    @Test func rootsAndSubentitiesAreNumberedInThatOrder() throws {
        let model = ObjectModel(
            "M",
            entities: [
                Entity("SyncFeatureEntity"), Entity("SyncableSettingsMetadata"), Entity("Zeta"),
                Entity("beta", parentName: "Zeta"), Entity("Alpha", parentName: "Zeta"),
            ])
        #expect(model.rootEntities.map(\.name) == ["SyncableSettingsMetadata", "SyncFeatureEntity", "Zeta"])
        let zeta = try #require(model[entity: "Zeta"])
        #expect(model.hierarchy(from: zeta).map(\.name) == ["Zeta", "Alpha", "beta"])
    }
}

import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// A registry lays each version out once, however many stores it identifies.
@Suite("Version layouts")
struct VersionLayoutsTests {
    let directory: TemporaryDirectory
    let history = RecipesHistory.history

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// One store per version of `history`, and one of its second version whose hashes match no
    /// version, so that it is identified by comparing its tables with every version's.
    func createStores(of history: VersionHistory) throws -> [URL] {
        var stores: [URL] = []
        for (index, version) in history.versions.enumerated() {
            let url = directory.path("\(version.name) \(index).sqlite")
            _ = try StoreCreator.createStore(at: url, model: version)
            stores.append(url)
        }
        let edited = directory.path("Edited \(history.versions[1].name).sqlite")
        _ = try StoreCreator.createStore(at: edited, model: history.versions[1])
        let queue = try DatabaseQueue(path: edited.path)
        try queue.write { db in
            var metadata = try StoreMetadata.read(from: db, path: edited.path)
            metadata.versionHashes = metadata.versionHashes.mapValues { _ in Data(repeating: 7, count: 32) }
            try metadata.write(to: db, path: edited.path)
        }
        try queue.close()
        return stores + [edited]
    }

    /// What an identification concluded, to compare two of them.
    func outcome(_ identification: StoreIdentification) -> String {
        let version = identification.version?.name ?? "none"
        let kind = identification.matchedBy?.rawValue ?? "none"
        return
            "\(version) by \(kind), consistent \(identification.isConsistent), problem \(identification.problem ?? "none"), notes \(identification.notes)"
    }

    @Test func eachVersionIsLaidOutOnceAcrossIdentifications() throws {
        let stores = try createStores(of: history)
        let registry = VersionRegistry(history: history)
        var kept: [String] = []
        for _ in 1...3 {
            for store in stores { kept.append(outcome(try registry.identify(storeAt: store))) }
        }
        let fresh = try stores.map { outcome(try VersionRegistry(history: history).identify(storeAt: $0)) }

        #expect(kept == fresh + fresh + fresh)
        #expect(fresh.last?.hasPrefix("Recipes 2 by schema, consistent true") == true)
        // The edited store lays every version out; the others only their own.
        #expect(
            registry.layouts.layoutCountsByVersion == Dictionary(uniqueKeysWithValues: history.names.map { ($0, 1) }))
    }

    @Test func anUpgradersPlansShareItsHistorysLayouts() throws {
        // Every step inferred, so that a store of each version can be planned.
        let notes = VersionHistory([
            ObjectModel("Notes") { Entity("Note") { Attribute("title", .string) } },
            ObjectModel("Notes 2") {
                Entity("Note") {
                    Attribute("title", .string)
                    Attribute("body", .string)
                }
            },
            ObjectModel("Notes 3") {
                Entity("Note") {
                    Attribute("title", .string)
                    Attribute("body", .string)
                    Attribute("created", .date)
                }
            },
        ])
        // The store of the newest version is up to date: nothing to plan.
        let stores = try createStores(of: notes).filter { !$0.lastPathComponent.hasPrefix("Notes 3") }
        let upgrader = try Upgrader(history: notes)
        var plans: [[String]] = []
        for _ in 1...2 {
            for store in stores { plans.append(try upgrader.plan(forStoreAt: store).plan.steps.map(\.description)) }
        }
        #expect(plans.count == 6)
        #expect(Array(plans[0..<3]) == Array(plans[3..<6]))
        // The edited store of Notes 2 lays every version out; the others only their own. Notes 3
        // once more, first: as a new store, when the first plan checks its destination can be laid
        // out (a store's layout depends on its join tables, a new store's on the model alone).
        #expect(
            upgrader.history.layouts.layoutCountsByVersion == ["Notes": 1, "Notes 2": 1, "Notes 3": 2])
    }
}

import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An explicit step whose mapping mixes plain copies with real mappings rebuilds only the
/// mapped tables, inside a copy of the source: the copied tables keep their rows, keys and
/// pages, and the store reads as the whole-store rebuild's.
@Suite("Partial rebuild")
struct PartialRebuildTests {
    typealias Kitchen = SetBasedRelinkTests.Kitchen

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func seededKitchen(deleting: Bool) throws -> URL {
        let source = directory.path("Kitchen-\(deleting).sqlite")
        try StepFixtures.store(at: source, model: Kitchen.v1, Kitchen.seed(deleting: deleting))
        return source
    }

    func step(policy: String? = nil, partial: Bool = true) throws -> MigrationStep {
        var policies = PolicyRegistry()
        policies.register("Passive") { SetBasedRelinkTests.PassivePolicy() }
        let models = try StepFixtures.mappingModels([Kitchen.mapping(policy: policy)], from: Kitchen.v1, to: Kitchen.v2)
        var step = MigrationStep(from: Kitchen.v1, to: Kitchen.v2, mappingModels: models, policies: policies)
        step.allowsPartialRebuild = partial
        return step
    }

    /// Every recipe with its chef and ingredients, by name: the store's content whatever the keys.
    func content(_ url: URL) throws -> [String] {
        try StepFixtures.read(url, Kitchen.v2) { objects in
            try objects.fetch("Recipe").map { recipe in
                let chef = try objects.related(recipe.id, "chef").first.flatMap {
                    try objects.object($0).string("name")
                }
                let ingredients = try objects.related(recipe.id, "ingredients").compactMap {
                    try objects.object($0).string("name")
                }.sorted()
                return "\(recipe.string("name") ?? "-") by \(chef ?? "-"): \(ingredients.joined(separator: ", "))"
            }.sorted()
        }
    }

    /// The pages of `table`'s b-tree and indexes (SQLite's `dbstat`), and their bytes.
    func pages(of table: String, in url: URL) throws -> [Int: Data] {
        let numbers = try sql(url) { db in
            try Int.fetchAll(
                db,
                sql: """
                    SELECT "pageno" FROM "dbstat" WHERE "name" IN
                      (SELECT "name" FROM "sqlite_master" WHERE "tbl_name" = ? COLLATE NOCASE)
                    """,
                arguments: [table])
        }
        let pageSize = try sql(url) { db in try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096 }
        let bytes = try Data(contentsOf: url)
        return Dictionary(
            uniqueKeysWithValues: numbers.map { number in
                let start = (number - 1) * pageSize
                return (number, bytes.subdata(in: start..<min(start + pageSize, bytes.count)))
            })
    }

    @Test(arguments: [false, true])
    func theCopiedTableIsKeptPageForPageAndTheStoreReadsAsTheWholeRebuilds(deleting: Bool) throws {
        let source = try seededKitchen(deleting: deleting)
        let partial = directory.path("partial-\(deleting).sqlite")
        let whole = directory.path("whole-\(deleting).sqlite")
        let report = try step().run(source: source, destination: partial)
        let wholeReport = try step(partial: false).run(source: source, destination: whole)
        // Chef is a plain copy whose table holds no key into a rebuilt table: kept. Recipe and
        // Ingredient change (a renamed relationship), so they are rebuilt.
        #expect(report.keptTables == ["ZCHEF"])
        #expect(report.strategy == .partialRebuild)
        #expect(wholeReport.strategy == .rebuild)
        #expect(wholeReport.keptTables.isEmpty)
        #expect(try content(partial) == content(whole))
        #expect(try content(partial).count == (deleting ? 35 : 40))
        #expect(report.objects == wholeReport.objects)
        // No row of the kept table was rewritten: its pages are the source's, byte for byte.
        let sourcePages = try pages(of: "ZCHEF", in: source)
        #expect(!sourcePages.isEmpty)
        #expect(try pages(of: "ZCHEF", in: partial) == sourcePages)
        // The schema is the destination's, indexes included, and the file is a sound store.
        #expect(try SetBasedRelinkTests().schemaIndexes(Kitchen.v2) == indexes(partial))
        let integrity = try sql(partial) { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        let metadata = try sql(partial) { db in try StoreMetadata.read(from: db, path: partial.path) }
        #expect(metadata.versionHashes == VersionHasher.entityHashes(of: Kitchen.v2))
    }

    @Test func newKeysContinueAfterTheKeptRowsAndTheRebuiltOnesRestart() throws {
        let source = try seededKitchen(deleting: true)
        let partial = directory.path("partial.sqlite")
        _ = try step().run(source: source, destination: partial)
        // Chef keeps its Z_MAX (its keys are unchanged); Recipe's keys are dense again.
        #expect(try StepFixtures.maxima(partial)["Chef"] == StepFixtures.maxima(source)["Chef"])
        #expect(try StepFixtures.maxima(partial)["Recipe"] == 35)
    }

    @Test func aStepWithAPolicyOnEveryMappingRebuildsTheWholeStore() throws {
        let source = try seededKitchen(deleting: false)
        let report = try step(policy: "Passive").run(source: source, destination: directory.path("policy.sqlite"))
        #expect(report.keptTables.isEmpty)
    }

    func sql<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    func indexes(_ url: URL) throws -> [String] {
        try sql(url) { db in
            try String.fetchAll(
                db, sql: "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }.sorted()
    }
}

/// A kept table's foreign keys into a table rebuilt one row per source row are moved to the new
/// keys: only the rows whose key changed are written.
@Suite("Partial rebuild: keys into rebuilt tables")
struct PartialRebuildKeyTests {
    static let v1 = ObjectModel("Shop") {
        Entity("Customer") {
            Attribute("name", .string)
            Relationship("orders", to: "Order", inverse: "customer").toMany()
        }
        Entity("Order") {
            Attribute("number", .integer64)
            Relationship("customer", to: "Customer", inverse: "orders")
        }
    }

    /// Customer gains `displayName`, computed from `name`; Order is unchanged.
    static let v2 = ObjectModel("Shop 2") {
        Entity("Customer") {
            Attribute("displayName", .string)
            Attribute("name", .string)
            Relationship("orders", to: "Order", inverse: "customer").toMany()
        }
        Entity("Order") {
            Attribute("number", .integer64)
            Relationship("customer", to: "Customer", inverse: "orders")
        }
    }

    static let mapping = """
        {
          "source": "Shop", "destination": "Shop 2",
          "entityMappings": [
            { "name": "CustomerToCustomer", "source": "Customer", "destination": "Customer",
              "attributes": { "displayName": "$source.name" } },
            { "name": "OrderToOrder", "source": "Order", "destination": "Order" }
          ]
        }
        """

    /// Each order's number with its customer's name, and each customer's display name.
    func content(_ url: URL, _ model: ObjectModel) throws -> [String] {
        try StepFixtures.read(url, model) { objects in
            try objects.fetch("Order").map { order in
                let customer = try objects.related(order.id, "customer").first.map { try objects.object($0) }
                let display = customer?.string(model.name == Self.v2.name ? "displayName" : "name") ?? "-"
                return "\(order.int("number") ?? -1): \(customer?.string("name") ?? "-") / \(display)"
            }.sorted()
        }
    }

    @Test(arguments: [false, true])
    func ordersFollowTheirRebuiltCustomers(deleting: Bool) throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("Shop.sqlite")
        try StepFixtures.store(at: source, model: Self.v1) { objects in
            let customers = try (0..<30).map { try objects.insert("Customer", ["name": "Customer \($0)"]) }
            for index in 0..<200 {
                _ = try objects.insert(
                    "Order", ["number": index, "customer": index % 9 == 0 ? nil : customers[(index * 7) % 30]])
            }
            // Deleted customers leave gaps, so the rebuilt ones get other keys; their orders
            // go with them (cascade is not modelled: the orders' keys just point at nothing).
            guard deleting else { return }
            for index in stride(from: 1, to: 30, by: 4) {
                for order in try objects.related(customers[index], "orders") { try objects.delete(order) }
                try objects.delete(customers[index])
            }
        }
        let models = try StepFixtures.mappingModels([Self.mapping], from: Self.v1, to: Self.v2)
        let partial = directory.path("partial.sqlite")
        let whole = directory.path("whole.sqlite")
        let report = try MigrationStep(from: Self.v1, to: Self.v2, mappingModels: models)
            .run(source: source, destination: partial)
        var wholeStep = MigrationStep(from: Self.v1, to: Self.v2, mappingModels: models)
        wholeStep.allowsPartialRebuild = false
        _ = try wholeStep.run(source: source, destination: whole)
        #expect(report.keptTables == ["ZORDER"])
        let expected = try content(source, Self.v1)
        #expect(try content(partial, Self.v2) == expected)
        #expect(try content(whole, Self.v2) == expected)
        #expect(try StepFixtures.maxima(partial)["Customer"] == (deleting ? 22 : 30))
    }
}

/// A fault at each file-system call of the partial rebuild: the source stays as it was, and a
/// failed step leaves nothing at its destination. (No sample history's upgrade has a step that
/// rebuilds only what it maps, since each names a policy, so the upgrade's fault-injection
/// suite doesn't reach these calls; this does.)
@Suite("Partial rebuild: faults")
struct PartialRebuildFaultTests {
    static let sites = ["step.partial-copy", "step.partial-sync"]

    @Test(arguments: sites, [FileSystem.Fault.crash, .error(EIO), .error(ENOSPC)])
    func aFaultLeavesTheSourceAsItWas(site: String, fault: FileSystem.Fault) throws {
        try check(site: site, fault: fault, access: .copy)
    }

    /// A checkpoint the step may take: a fault before the move leaves it; after it, the step
    /// fails and the file is gone (the runner then starts over from the original).
    @Test(arguments: ["step.partial-take-source", "step.partial-sync"], [FileSystem.Fault.crash, .error(EIO)])
    func aFaultWhileTakingACheckpointFailsTheStep(site: String, fault: FileSystem.Fault) throws {
        let fixture = try PartialRebuildTests()
        let source = try fixture.seededKitchen(deleting: true)
        let destination = fixture.directory.path("taken.sqlite")
        var step = try fixture.step()
        step.fileSystem = FileSystem { _, at in at == site ? fault : nil }
        #expect(throws: (any Error).self) {
            try step.run(source: source, destination: destination, access: .checkpoint)
        }
        if site == "step.partial-take-source" {
            #expect(FileManager.default.fileExists(atPath: source.path))
        }
        if case .error = fault {
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
    }

    @Test func aCheckpointIsTakenNotCopied() throws {
        let fixture = try PartialRebuildTests()
        let source = try fixture.seededKitchen(deleting: false)
        let inode = try FileManager.default.attributesOfItem(atPath: source.path)[.systemFileNumber] as? Int
        let destination = fixture.directory.path("taken.sqlite")
        let report = try fixture.step().run(source: source, destination: destination, access: .checkpoint)
        #expect(report.keptTables == ["ZCHEF"])
        #expect(!FileManager.default.fileExists(atPath: source.path))
        #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.systemFileNumber] as? Int == inode)
    }

    private func check(site: String, fault: FileSystem.Fault, access: MigrationStep.SourceAccess) throws {
        let fixture = try PartialRebuildTests()
        let source = try fixture.seededKitchen(deleting: true)
        let before = try Data(contentsOf: source)
        let destination = fixture.directory.path("faulty.sqlite")
        var step = try fixture.step()
        let sites = LockedSites()
        step.fileSystem = FileSystem { _, at in
            sites.append(at)
            return at == site ? fault : nil
        }
        #expect(throws: (any Error).self) { try step.run(source: source, destination: destination, access: access) }
        #expect(sites.all.contains(site))
        #expect(try Data(contentsOf: source) == before)
        if case .error = fault {
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
        // And the same step without the fault keeps Chef's table.
        let report = try fixture.step().run(source: source, destination: fixture.directory.path("after.sqlite"))
        #expect(report.keptTables == ["ZCHEF"])
    }
}

/// The sites a fault-injecting file system saw, from any thread.
final class LockedSites: @unchecked Sendable {
    private let lock = NSLock()
    private var sites: [String] = []
    func append(_ site: String) { lock.withLock { sites.append(site) } }
    var all: [String] { lock.withLock { sites } }
}

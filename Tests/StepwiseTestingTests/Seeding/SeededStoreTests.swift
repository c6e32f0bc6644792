import Foundation
import GRDB
import Stepwise
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("SeededStore")
struct SeededStoreTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-seeded")
    }

    func seed(
        _ name: String = "Sink.sqlite", model: ObjectModel = KitchenSinkModel.model, seed: UInt64 = 7,
        rows: RowCounts = 40
    ) throws -> (url: URL, store: SeededStore) {
        let url = directory.path(name)
        return (url, try SeededStore.create(at: url, model: model, seed: seed, rows: rows))
    }

    /// Rows and metadata are equal; the files are not quite: `Z_METADATA.Z_PLIST` is a binary
    /// property list whose key order follows a Swift dictionary's, which differs between two
    /// dictionaries of the same content. The metadata is compared decoded.
    @Test("the same seed gives the same rows and metadata; another seed other rows")
    func sameSeedSameStore() throws {
        let (first, _) = try seed("A.sqlite")
        let (second, _) = try seed("B.sqlite")
        let (other, _) = try seed("C.sqlite", seed: 8)
        let firstDump = try SeededDump(first)
        #expect(firstDump.rows.values.reduce(0) { $0 + $1.count } > 200)
        #expect(try SeededDump(second) == firstDump)
        #expect(try SeededDump(other) != firstDump)
        #expect(!FileManager.default.fileExists(atPath: first.path + "-wal"), "the store is checkpointed")
    }

    @Test("every concrete entity gets its rows, subentities included, at consecutive keys")
    func inheritanceRows() throws {
        let (url, store) = try seed(rows: RowCounts(default: 12, ["Film": 5]))
        #expect(store.rowCounts == ["Book": 12, "Film": 5, "Note": 12, "Passport": 12, "Person": 12, "Tag": 12])
        #expect(store.totalRows == 65)
        // Book and Film share Item's table and its key sequence: Books 1…12, Films 13…17.
        #expect(store.primaryKey(of: "Book", row: 0) == 1)
        #expect(store.primaryKey(of: "Film", row: 4) == 17)
        #expect(store.primaryKey(of: "Film", row: 5) == nil)
        #expect(store.primaryKey(of: "Item", row: 0) == nil, "Item is abstract")
        let counts = try read(url) { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, COUNT(*) AS n FROM ZITEM GROUP BY Z_ENT ORDER BY Z_ENT")
                .map { [$0["Z_ENT"] as Int, $0["n"] as Int] }
        }
        let layout = try StoreLayout(model: KitchenSinkModel.model)
        let book = try #require(layout.entity(named: "Book")?.number)
        let film = try #require(layout.entity(named: "Film")?.number)
        #expect(counts == [[book, 12], [film, 5]])
    }

    @Test("edge cases are stored and read back: NaN as NULL (SQLite's rule), ±infinity, extremes, Unicode, blobs")
    func edgeCasesReadBack() throws {
        let (url, _) = try seed()
        let person = try read(url) { db in try Row.fetchAll(db, sql: "SELECT * FROM ZPERSON ORDER BY Z_PK") }
        let heights = person.map { $0["ZHEIGHT"] as Double? }
        #expect(heights.contains(.infinity))
        #expect(heights.contains(-.infinity))
        #expect(heights.contains(.greatestFiniteMagnitude))
        #expect(heights.contains(.leastNonzeroMagnitude))
        #expect(!heights.contains { $0?.isNaN == true }, "SQLite never stores NaN")
        // The rows seeded with NaN read back as NULL, as in Core Data's own stores.
        let values = SeededValues(seed: 7)
        let height = try #require(KitchenSinkModel.model[entity: "Person"]?.attribute(named: "height"))
        let nanRows = try (0..<40).filter { row in
            let value = try values.value(of: height, entity: "Person", row: row, primaryKey: Int64(row + 1))
            if case .double(let number) = value.storage { return number.isNaN }
            return false
        }
        #expect(!nanRows.isEmpty)
        for row in nanRows { #expect(heights[row] == nil, "row \(row) was seeded with NaN") }

        let scores = person.map { $0["ZSCORE"] as Int64? }
        #expect(scores.contains(Int64.min) && scores.contains(Int64.max))
        let ranks = person.map { $0["ZRANK"] as Int64? }
        #expect(ranks.contains(Int64(Int16.min)) && ranks.contains(Int64(Int16.max)))
        #expect(!ranks.contains(nil), "rank is required")
        let visits = person.map { $0["ZVISITS"] as Int64? }
        #expect(visits.contains(Int64(Int32.min)) && visits.contains(Int64(Int32.max)))

        let names = person.compactMap { $0["ZNAME"] as String? }
        #expect(names.count == 40, "name is required")
        #expect(names.contains(""))
        #expect(names.contains { $0.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
        #expect(
            names.contains { $0.unicodeScalars.contains { (0x0590...0x06FF).contains($0.value) } }, "Hebrew or Arabic")
        #expect(names.contains { $0.unicodeScalars.contains { $0.value == 0x301 } }, "a combining accent")
        #expect(names.contains { $0.utf8.count > 4096 })

        let photos = person.map { $0["ZPHOTO"] as Data? }
        #expect(photos.contains { $0?.isEmpty == true })
        #expect(photos.contains { ($0?.count ?? 0) > 4096 })
        let born = person.compactMap { $0["ZBORN"] as Double? }
        #expect(born.contains(Date.distantPast.timeIntervalSinceReferenceDate))
        #expect(born.contains(Date.distantFuture.timeIntervalSinceReferenceDate))
        let tokens = person.compactMap { $0["ZTOKEN"] as Data? }
        #expect(tokens.allSatisfy { $0.count == 16 })
        #expect(tokens.contains(Data(repeating: 0, count: 16)))
        #expect(Set(person.compactMap { $0["ZACTIVE"] as Int64? }) == [0, 1])
        #expect(person.contains { $0["ZPROFILE"] as String? == "https://例え.jp/ü" })
    }

    @Test("every value reads back as SeededValues gives it, after SQLite's own rules")
    func valuesAreSeededValues() throws {
        let (url, store) = try seed(rows: 24)
        let layout = try StoreLayout(model: KitchenSinkModel.model)
        let values = SeededValues(seed: 7)
        try read(url) { db in
            for segment in store.segments where segment.entity != "Book" && segment.entity != "Film" {
                let entity = try #require(layout.entity(named: segment.entity))
                let attributes = try #require(KitchenSinkModel.model[entity: segment.entity]).attributes
                let rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM \(entity.tableName) WHERE Z_ENT = ? ORDER BY Z_PK",
                    arguments: [entity.number])
                #expect(rows.count == segment.count)
                for (index, row) in rows.enumerated() {
                    for attribute in attributes where attribute.name != "number" && attribute.name != "label" {
                        let column = try #require(entity.attribute(named: attribute.name)?.column)
                        let expected = try values.value(
                            of: attribute, entity: segment.entity, row: index,
                            primaryKey: segment.firstPrimaryKey + Int64(index))
                        #expect(
                            Self.stored(expected, as: attribute.type) == row[column] as DatabaseValue,
                            "\(segment.entity).\(attribute.name) row \(index)")
                    }
                }
            }
        }
    }

    @Test("attributes of uniqueness constraints are unique in their table")
    func uniqueness() throws {
        let (url, _) = try seed(rows: 60)
        try read(url) { db in
            for (table, column) in [("ZITEM", "ZCODE"), ("ZTAG", "ZLABEL"), ("ZPASSPORT", "ZNUMBER")] {
                let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")
                let distinct = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT \(column)) FROM \(table)")
                #expect(total == distinct, "\(table).\(column)")
                #expect(total == 60 || total == 120)
            }
        }
    }

    @Test("relationships respect required to-ones, counts and inverses")
    func relationships() throws {
        let (url, _) = try seed(rows: 30)
        #expect(try StoreConsistency.problems(inStoreAt: url, model: KitchenSinkModel.model) == [])
        try read(url) { db in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM WHERE ZOWNER IS NULL") == 0)
            // Person.items is ordered: every item has a position among its owner's items.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM WHERE Z_FOK_OWNER IS NULL") == 0)
            // Tag.items holds 1 to 5 items.
            let objects = ObjectContext(db, layout: try StoreLayout(model: KitchenSinkModel.model))
            let perTag = try objects.fetch("Tag").map { try objects.related($0.id, "items").count }
            #expect(perTag.count == 30)
            #expect(perTag.allSatisfy { (1...5).contains($0) }, "\(perTag)")
            // One-to-one: each passport holds at most one person, and they point at each other.
            #expect(
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT COUNT(*) FROM ZPERSON p JOIN ZPASSPORT s ON s.Z_PK = p.ZPASSPORT WHERE s.ZHOLDER != p.Z_PK"
                )
                    == 0)
            let linked = try Int.fetchOne(db, sql: "SELECT COUNT(ZPASSPORT) FROM ZPERSON") ?? 0
            #expect(linked > 15 && linked < 30, "four persons in five hold a passport: \(linked)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT ZPASSPORT) FROM ZPERSON") == linked)
        }
    }

    @Test("row counts that can't satisfy the model are refused, naming the entity and property")
    func unsatisfiableCounts() throws {
        #expect {
            try seed(rows: RowCounts(default: 5, ["Person": 0]))
        } throws: { error in
            guard let error = error as? UpgradeMatrixFailure,
                case .unsatisfiable(let entity, let property, _) = error.kind
            else { return false }
            return entity == "Item" && property == "owner" && "\(error)".contains("Item.owner")
        }
        #expect(throws: UpgradeMatrixFailure.self) { try seed("Bad.sqlite", rows: ["Tag": -1]) }
        #expect(throws: UpgradeMatrixFailure.self) { try seed("Abstract.sqlite", rows: ["Item": 3]) }
    }

    @Test(
        "every version of every sample history seeds a sound store",
        arguments: SampleHistories.all.flatMap { sample in
            sample.history.versions.map { (sample.name, $0.name) }
        })
    func sampleVersions(sample: String, version: String) throws {
        let history = try #require(SampleHistories.all.first { $0.name == sample }?.history)
        let model = try #require(history.version(named: version))
        let (url, store) = try seed("\(version).sqlite", model: model, rows: 20)
        #expect(store.totalRows == 20 * model.entities.filter { !$0.isAbstract }.count)
        #expect(try StoreConsistency.problems(inStoreAt: url, model: model) == [])
        let identification = try VersionRegistry(history: history).identify(storeAt: url)
        #expect(identification.version?.name == version)
    }

    // MARK: - Helpers

    func read<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// What a column holds once SQLite has stored a value: NaN becomes NULL, -0.0 becomes
    /// 0.0, and a DECIMAL column keeps an integral real as an integer (NUMERIC affinity).
    static func stored(_ value: DatabaseValue, as type: AttributeType) -> DatabaseValue {
        guard case .double(let number) = value.storage else { return value }
        if number.isNaN { return .null }
        if number == 0 { return (type == .decimal ? 0 : 0.0 as Double).databaseValue }
        if type == .decimal, number.rounded() == number, abs(number) < 9e18 { return Int64(number).databaseValue }
        return value
    }
}

/// Every row of every table of a store, each row as text that compares exactly, and the
/// metadata decoded.
struct SeededDump: Equatable {
    let rows: [String: [String]]
    let metadata: StoreMetadata

    init(_ url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        metadata = try queue.read { db in try StoreMetadata.read(from: db, path: url.path) }
        rows = try queue.read { db in
            var rows: [String: [String]] = [:]
            for table in try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'Z_METADATA'")
            {
                rows[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map { row in
                    row.databaseValues.map { value -> String in
                        switch value.storage {
                        case .null: "null"
                        case .int64(let number): "i\(number)"
                        case .double(let number): "r\(number.bitPattern)"
                        case .string(let text): "t\(Array(text.utf8))"
                        case .blob(let data): "b\(Array(data))"
                        }
                    }.joined(separator: "|")
                }.sorted()
            }
            return rows
        }
    }
}

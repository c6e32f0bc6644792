import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import Testing

/// A stored source value and what the documented SQL conversion turns it into.
struct WideningSample: Sendable, CustomTestStringConvertible {
    var source: AttributeType
    var destination: AttributeType
    var stored: DatabaseValue
    var converted: DatabaseValue

    var testDescription: String { "\(source.rawValue) → \(destination.rawValue): \(stored) → \(converted)" }

    /// Nil for a typo in the table, which the tests report.
    var widening: TypeWidening? { TypeWidening(from: source, to: destination) }

    init(_ source: AttributeType, _ destination: AttributeType, _ stored: DatabaseValue, _ converted: DatabaseValue) {
        self.source = source
        self.destination = destination
        self.stored = stored
        self.converted = converted
    }

    static let uuidBytes = Data([
        0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F,
    ])

    static let all: [WideningSample] = [
        WideningSample(.integer16, .integer32, 42.databaseValue, 42.databaseValue),
        WideningSample(.integer16, .integer64, (-7).databaseValue, (-7).databaseValue),
        WideningSample(.integer32, .integer64, 2_000_000_000.databaseValue, 2_000_000_000.databaseValue),
        WideningSample(.boolean, .integer16, false.databaseValue, 0.databaseValue),
        WideningSample(.boolean, .integer32, true.databaseValue, 1.databaseValue),
        WideningSample(.boolean, .integer64, true.databaseValue, 1.databaseValue),
        // Core Data writes only 0 and 1; another number in a Boolean column is kept as it is.
        WideningSample(.boolean, .integer32, 2.databaseValue, 2.databaseValue),
        WideningSample(.integer16, .double, 42.databaseValue, 42.0.databaseValue),
        WideningSample(.integer32, .double, (-123_456).databaseValue, (-123_456.0).databaseValue),
        // Beyond 2^53 an Integer 64 becomes the nearest Double (documented caveat).
        WideningSample(.integer64, .double, 9_007_199_254_740_993.databaseValue, 9_007_199_254_740_992.0.databaseValue),
        WideningSample(.float, .double, 0.5.databaseValue, 0.5.databaseValue),
        WideningSample(.integer16, .string, (-7).databaseValue, "-7".databaseValue),
        WideningSample(.integer32, .string, 123_456.databaseValue, "123456".databaseValue),
        WideningSample(.integer64, .string, Int64.max.databaseValue, "9223372036854775807".databaseValue),
        WideningSample(.double, .string, 0.5.databaseValue, "0.5".databaseValue),
        WideningSample(.double, .string, 1.0.databaseValue, "1.0".databaseValue),
        WideningSample(.double, .string, 0.1.databaseValue, "0.1".databaseValue),
        WideningSample(.double, .string, (0.1 + 0.2).databaseValue, "0.30000000000000004".databaseValue),
        WideningSample(.double, .string, (1.0 / 3).databaseValue, "0.3333333333333333".databaseValue),
        WideningSample(
            .double, .string, Double.greatestFiniteMagnitude.databaseValue, "1.7976931348623157e+308".databaseValue),
        WideningSample(.float, .string, Double(Float(0.1)).databaseValue, "0.10000000149011612".databaseValue),
        WideningSample(.decimal, .string, 12.25.databaseValue, "12.25".databaseValue),
        WideningSample(.decimal, .string, 3.databaseValue, "3".databaseValue),
        WideningSample(.boolean, .string, true.databaseValue, "1".databaseValue),
        WideningSample(.boolean, .string, false.databaseValue, "0".databaseValue),
        WideningSample(.date, .string, 0.0.databaseValue, "2001-01-01T00:00:00.000Z".databaseValue),
        WideningSample(.date, .string, 725_846_400.5.databaseValue, "2024-01-02T00:00:00.500Z".databaseValue),
        WideningSample(.date, .string, (-978_307_200.0).databaseValue, "1970-01-01T00:00:00.000Z".databaseValue),
        WideningSample(
            .uuid, .string, uuidBytes.databaseValue, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F".databaseValue),
        WideningSample(
            .uri, .string, "https://example.com/a?b=1".databaseValue, "https://example.com/a?b=1".databaseValue),
    ]
}

@Suite("TypeWidening")
struct TypeWideningTests {
    @Test func acceptsExactlyTheListedWidenings() {
        let listed = Set(WideningChange.all.map { TypeWidening(from: $0.source, to: $0.destination) })
        #expect(!listed.contains(nil))
        #expect(Set(TypeWidening.all) == Set(listed.compactMap { $0 }))
        #expect(TypeWidening.all.count == 20)
        for source in AttributeType.allCases {
            for destination in AttributeType.allCases {
                let isListed = WideningChange.all.contains { $0.source == source && $0.destination == destination }
                #expect((TypeWidening(from: source, to: destination) != nil) == isListed, "\(source) → \(destination)")
            }
        }
    }

    @Test(arguments: WideningChange.all)
    func userInfoValueRoundTrips(_ change: WideningChange) throws {
        let widening = try #require(TypeWidening(from: change.source, to: change.destination))
        #expect(widening.userInfoValue == change.userInfoValue)
        #expect(TypeWidening(userInfoValue: change.userInfoValue) == widening)
        #expect(widening.description == "\(change.source.rawValue) → \(change.destination.rawValue)")
    }

    @Test(arguments: ["", "integer16", "integer16→", "integer64→integer16", "Integer 16→Integer 32", "a→b→c"])
    func malformedOrLossyUserInfoValuesReadAsNil(_ value: String) {
        #expect(TypeWidening(userInfoValue: value) == nil)
    }

    @Test func aPropertyMappingWithoutTheKeyHasNoWidening() {
        #expect(PropertyMapping("x", .source("x")).widening == nil)
        #expect(
            PropertyMapping("x", .source("x"), userInfo: [TypeWidening.userInfoKey: "float→double"]).widening
                == TypeWidening(from: .float, to: .double))
    }

    @Test func everyWideningIsSampled() {
        #expect(Set(WideningSample.all.compactMap(\.widening)) == Set(TypeWidening.all))
    }

    /// The widenings whose SQL is the column itself, between columns of one declared type: a
    /// step may keep their column instead of rewriting it.
    @Test func keepsStoredValuesForExactlyTheWideningsThatCopyTheColumn() {
        let kept = TypeWidening.all.filter(\.keepsStoredValues).map(\.userInfoValue)
        #expect(
            kept == [
                "integer16→integer32", "integer16→integer64", "integer32→integer64", "float→double",
                "boolean→integer16", "boolean→integer32", "boolean→integer64", "uri→string",
            ])
    }

    @Test func theWideningsOfABooleanAreTheIntegersAndString() {
        #expect(
            TypeWidening.widenings(from: .boolean).map(\.destination) == [.integer16, .integer32, .integer64, .string])
        #expect(TypeWidening.widenings(from: .binary).isEmpty)
    }

    @Test(arguments: WideningSample.all)
    func theDocumentedSQLConvertsAStoredValue(_ sample: WideningSample) throws {
        let widening = try #require(sample.widening)
        #expect(try convert(sample.stored, with: widening) == sample.converted)
    }

    @Test(arguments: TypeWidening.all)
    func theDocumentedSQLKeepsNull(_ widening: TypeWidening) throws {
        #expect(try convert(.null, with: widening) == .null)
    }

    /// Stores `value` in a column declared as Core Data declares the source type, then reads it
    /// back through the widening's SQL.
    private func convert(_ value: DatabaseValue, with widening: TypeWidening) throws -> DatabaseValue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in SQLExpressionCompiler.registerFunctions(in: db) }
        let database = try DatabaseQueue(configuration: configuration)
        return try database.write { db in
            try db.execute(sql: "CREATE TABLE t (\"ZVALUE\" \(ColumnType(widening.source).rawValue))")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
            let sql = "SELECT \(widening.sqlExpression(converting: "\"ZVALUE\"")) FROM t"
            return try DatabaseValue.fetchOne(db, sql: sql) ?? .null
        }
    }
}

import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// How composite attributes are laid out: one column per leaf, named after the leaf alone and
/// numbered within the table, at the composite's place in the column order.
@Suite("StoreLayout of composite attributes")
struct CompositeLayoutTests {
    static let library = ObjectModel("Library") {
        Entity("Book") {
            Attribute("id", .uuid)
            Attribute("title", .string)
            Attribute.composite(
                "author",
                elements: [
                    Attribute("person", .string), Attribute("place", .string), Attribute("year", .integer64),
                    Attribute("id", .uuid),
                ])
        }
    }

    static func layout(_ model: ObjectModel) throws -> StoreLayout {
        try StoreLayout(model: model)
    }

    /// The issue's SwiftData store: `Author { person, place, year, id }` is stored in `ZPERSON`,
    /// `ZPLACE`, `ZYEAR` and `ZID1`, `1` because the book's own `id` has `ZID`.
    @Test func theIssuesAuthorIsStoredInFlattenedColumnsWithTheOneSuffix() throws {
        let book = try #require(try Self.layout(Self.library).entity(named: "Book"))
        let columns = Dictionary(uniqueKeysWithValues: book.attributes.map { ($0.name, $0.column) })
        #expect(
            columns == [
                "id": "ZID", "title": "ZTITLE", "author.person": "ZPERSON", "author.place": "ZPLACE",
                "author.year": "ZYEAR", "author.id": "ZID1",
            ])
        let table = try #require(try Self.layout(Self.library).table(named: "ZBOOK"))
        #expect(Set(table.columns.map(\.name)).isSuperset(of: ["ZID", "ZID1", "ZPERSON", "ZPLACE", "ZYEAR", "ZTITLE"]))
        #expect(table.columns.count == 9)
        #expect(try Self.layout(Self.library).model[entity: "Book"]?.attribute(named: "author") == nil)
    }

    @Test func nestedLeavesAndSubentitiesShareTheTablesNumbering() throws {
        let model = ObjectModel("Places") {
            Entity("Place") { Attribute("city", .string) }
            Entity("Home", parent: "Place") {
                Attribute.composite(
                    "address",
                    elements: [
                        Attribute("street", .string),
                        Attribute.composite(
                            "where", elements: [Attribute("city", .string), Attribute("zip", .string)]),
                    ])
            }
        }
        let home = try #require(try Self.layout(model).entity(named: "Home"))
        let columns = Dictionary(uniqueKeysWithValues: home.attributes.map { ($0.name, $0.column) })
        #expect(
            columns == [
                "city": "ZCITY", "address.street": "ZSTREET", "address.where.city": "ZCITY1",
                "address.where.zip": "ZZIP",
            ])
    }

    /// The real SwiftData store's `SDFolder` (issue 43): the enum's four elements, in declared
    /// order, at `folderType`'s place among the strings, before `ZNAME`.
    @Test func sdFoldersTableHasTheRealStoresColumnsInOrder() throws {
        let model = SwiftDataFolders.model()
        let table = try #require(try Self.layout(model).table(named: "ZSDFOLDER"))
        #expect(
            table.columns.map(\.name) == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZPARENTFOLDER", "ZSYSTEMALL", "ZSYSTEMSTANDARD", "ZSYSTEMRECENTLYDELETED",
                "ZUSER", "ZNAME", "ZID", "ZIMAGEDATA",
            ])
    }

    /// A composite whose leaf takes a name the entity already has keeps the `1` suffix, and its
    /// columns still sit at the composite's place: `author` sorts before `id` and `title`.
    @Test func theLibrarysColumnsSitAtTheCompositesPlace() throws {
        let table = try #require(try Self.layout(Self.library).table(named: "ZBOOK"))
        #expect(
            table.columns.map(\.name) == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZYEAR", "ZPERSON", "ZPLACE", "ZTITLE", "ZID1", "ZID",
            ])
    }
}

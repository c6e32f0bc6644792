import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import Testing

@Suite("SourceJoinPlanner")
struct SourceJoinPlannerTests {
    static let model = ObjectModel("Atlas") {
        Entity("City") {
            Attribute("name", .string)
            Attribute("population", .integer64)
            Relationship("country", to: "Country", inverse: "cities")
            Relationship("twins", to: "City", inverse: "twins").toMany()
        }
        Entity("Country") {
            Attribute("name", .string)
            Relationship("cities", to: "City", inverse: "country").toMany()
            Relationship("continent", to: "Continent", inverse: "countries")
        }
        Entity("Continent") {
            Attribute("name", .string)
            Attribute("nickname", .string).transient()
            Relationship("countries", to: "Country", inverse: "continent").toMany()
        }
    }

    @Test func twoHopToOnePathJoinsEachTableOnceAndReusesJoins() throws {
        let layout = try StoreLayout(model: Self.model)
        var planner = try SourceJoinPlanner(layout: layout, sourceEntity: "City", alias: "s")

        #expect(try planner.resolve(["name"])?.sql == #""s"."ZNAME""#)
        #expect(planner.joins.isEmpty)

        let continentName = try #require(try planner.resolve(["country", "continent", "name"]))
        #expect(continentName.sql == #""j2"."ZNAME""#)
        #expect(continentName.entity == "Continent")
        #expect(
            planner.joinClause == #"LEFT JOIN "ZCOUNTRY" AS "j1" ON "j1"."Z_PK" = "s"."ZCOUNTRY" "#
                + #"LEFT JOIN "ZCONTINENT" AS "j2" ON "j2"."Z_PK" = "j1"."ZCONTINENT""#)

        // A to-one's value is the destination's Z_PK: the foreign key in the joined table.
        let continent = try #require(try planner.resolve(["country", "continent"]))
        #expect(continent.sql == #""j1"."ZCONTINENT""#)
        guard case .toOne(let relationship) = continent.target else {
            Issue.record("expected a to-one, got \(continent.target)")
            return
        }
        #expect(relationship.destination == "Continent")
        #expect(try planner.resolve(["country", "name"])?.sql == #""j1"."ZNAME""#)
        #expect(planner.joins.map(\.alias) == ["j1", "j2"])
        #expect(planner.fromClause == #""ZCITY" AS "s""#)
    }

    @Test func pathsWithoutASingleColumnResolveToNil() throws {
        var planner = try SourceJoinPlanner(layout: try StoreLayout(model: Self.model), sourceEntity: "City")
        #expect(try planner.resolve(["twins"]) == nil)  // to-many
        #expect(try planner.resolve(["country", "cities", "name"]) == nil)
        #expect(try planner.resolve(["twins", "@count"]) == nil)
        #expect(try planner.resolve(["country", "continent", "nickname"]) == nil)  // transient
        #expect(try planner.resolve(["name", "length"]) == nil)
        #expect(try planner.resolve([]) == nil)
    }

    @Test func unknownPropertiesAreReportedWithTheirEntity() throws {
        var planner = try SourceJoinPlanner(layout: try StoreLayout(model: Self.model), sourceEntity: "City")
        #expect(
            throws: MappingError(
                .unknownProperty(entity: "Country", property: "capital", version: "Atlas"), entity: "Country",
                property: "capital")
        ) {
            try planner.resolve(["country", "capital"])
        }
        #expect(throws: MappingError(.unknownEntity("Town", version: "Atlas"))) {
            try SourceJoinPlanner(layout: try StoreLayout(model: Self.model), sourceEntity: "Town")
        }
    }

    @Test func joinAliasesNeverTakeTheSourceAlias() throws {
        var planner = try SourceJoinPlanner(
            layout: try StoreLayout(model: Self.model), sourceEntity: "City", alias: "j1")
        #expect(try planner.resolve(["country", "continent", "name"])?.sql == #""j3"."ZNAME""#)
        #expect(planner.joins.map(\.alias) == ["j2", "j3"])
    }

    @Test func joinedSelectRunsOnARealStore() throws {
        let layout = try StoreLayout(model: Self.model)
        let queue = try DatabaseQueue()
        var planner = try SourceJoinPlanner(layout: layout, sourceEntity: "City")
        let city = try #require(try planner.resolve(["name"]))
        let continent = try #require(try planner.resolve(["country", "continent", "name"]))
        let rows = try queue.write { db in
            for statement in layout.createStatements { try db.execute(sql: statement) }
            try db.execute(
                sql: #"INSERT INTO "ZCONTINENT" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") VALUES (1, 2, 1, 'Europe')"#)
            try db.execute(
                sql:
                    #"INSERT INTO "ZCOUNTRY" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZCONTINENT") VALUES (1, 3, 1, 'France', 1), (2, 3, 1, 'Atlantis', NULL)"#
            )
            try db.execute(
                sql:
                    #"INSERT INTO "ZCITY" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZCOUNTRY") VALUES (1, 1, 1, 'Paris', 1), (2, 1, 1, 'Poseidonia', 2), (3, 1, 1, 'Nowhere', NULL)"#
            )
            return try Row.fetchAll(
                db,
                sql: "SELECT \(city.sql), \(continent.sql) FROM \(planner.fromClause) \(planner.joinClause) ORDER BY 1")
        }
        #expect(
            rows.map { [$0[0] as String?, $0[1] as String?] } == [
                ["Nowhere", nil], ["Paris", "Europe"], ["Poseidonia", nil],
            ])
    }
}

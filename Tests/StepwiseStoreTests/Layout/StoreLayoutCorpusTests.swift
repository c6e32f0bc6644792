import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// The oracle: for every corpus store, the schema Stepwise generates for the model version
/// that wrote it equals the schema Core Data wrote, up to column order.
@Suite("StoreLayout against the corpus")
struct StoreLayoutCorpusTests {
    /// The release that wrote Apptentive v1 to v3 and 2C.
    static let apptentive = CoreDataRelease(frameworkVersion: 419)

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusStore.all)
    func generatedSchemaEqualsTheSchemaCoreDataWrote(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let release = try store.metadata(in: corpus).release
        let layout = try StoreLayout(model: corpus.model(of: store), release: release)
        let expected = try SQLiteSchema(expectedFor: layout)
        let (actual, primaryKeys) = try store.schemaAndPrimaryKeys(in: corpus)

        // Z_MODELCACHE is the one table Stepwise doesn't create (see StoreLayout).
        #expect(actual.differences(from: expected, ignoringTables: StoreLayout.optionalTableNames) == [])
        let unfiltered = actual.differences(from: expected)
        #expect(unfiltered == [] || unfiltered == [.extraTable("Z_MODELCACHE")])
        #expect(primaryKeys.map(\.ignoringMaximum) == layout.primaryKeyRows)
        // Not vacuous: every entity table and join table was compared.
        #expect(actual.tables.count >= layout.tables.count)
        #expect(actual.tables.count > 2)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusStore.all)
    func columnsComeInCoreDataOrder(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let layout = try StoreLayout(
            model: corpus.model(of: store), release: try store.metadata(in: corpus).release)
        let (actual, _) = try store.schemaAndPrimaryKeys(in: corpus)
        for table in layout.tables {
            #expect(actual.table(named: table.name)?.columns.map(\.name) == table.columnNames, "\(table.name)")
        }
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func corruptStoreHasTheTablesOfVersion2NotVersion3() throws {
        let corpus = try Corpus.required()
        let bundle = try corpus.modelBundle(.apptentive)
        let version2 = try SQLiteSchema(
            expectedFor: StoreLayout(model: bundle.version(named: "ATDataModel 2"), release: Self.apptentive))
        let version3 = try SQLiteSchema(
            expectedFor: StoreLayout(model: bundle.version(named: "ATDataModel 3"), release: Self.apptentive))
        let (actual, _) = try CorpusStore.corrupt.schemaAndPrimaryKeys(in: corpus)

        #expect(actual.differences(from: version2, ignoringTables: StoreLayout.optionalTableNames) == [])
        let fromVersion3 = actual.differences(from: version3, ignoringTables: StoreLayout.optionalTableNames)
        #expect(fromVersion3 == [.missingColumn(table: "ZATRECORD", column: "ZCUSTOMDATA")])
        #expect(fromVersion3.map(\.description) == ["table ZATRECORD lacks column ZCUSTOMDATA"])
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func apptentiveVersion1LaysOutTheManyToManyAndTheOneToOne() throws {
        let corpus = try Corpus.required()
        let model = try corpus.modelBundle(.apptentive).version(named: "ATDataModel")
        let layout = try StoreLayout(model: model, release: Self.apptentive)

        let message = try #require(layout.entity(named: "ATMessage"))
        #expect(message.number == 6)
        #expect(message.superNumber == 4)
        #expect(message.tableName == "ZATRECORD")
        #expect(message.subentityNumbers == [6, 7, 8, 9, 10])
        #expect(message.column(for: "pendingState") == "ZPENDINGSTATE")
        #expect(message.column(for: "apptentiveID") == "ZAPPTENTIVEID")  // inherited from ATRecord
        #expect(message.column(for: "sender") == "ZSENDER")
        #expect(message.column(for: "displayTypes") == nil)
        #expect(
            message.relationship(named: "displayTypes")?.storage
                == .joinTable(
                    table: "Z_6DISPLAYTYPES", sourceColumn: "Z_6MESSAGES", destinationColumn: "Z_2DISPLAYTYPES",
                    orderColumn: nil))
        let displayType = try #require(layout.entity(named: "ATMessageDisplayType"))
        #expect(
            displayType.relationship(named: "messages")?.storage
                == .joinTable(
                    table: "Z_6DISPLAYTYPES", sourceColumn: "Z_2DISPLAYTYPES", destinationColumn: "Z_6MESSAGES",
                    orderColumn: nil))
        #expect(layout.table(named: "Z_6DISPLAYTYPES")?.primaryKey == ["Z_6MESSAGES", "Z_2DISPLAYTYPES"])
        #expect(layout.indexes(on: "Z_6DISPLAYTYPES").isEmpty)

        // One-to-one: a foreign key on both sides, each indexed.
        #expect(layout.entity(named: "ATFileMessage")?.column(for: "fileAttachment") == "ZFILEATTACHMENT")
        #expect(layout.entity(named: "ATFileAttachment")?.column(for: "fileMessage") == "ZFILEMESSAGE")
        let indexNames = Set(layout.indexes.map(\.name))
        #expect(indexNames.contains("ZATRECORD_ZFILEATTACHMENT_INDEX"))
        #expect(indexNames.contains("ZATFILEATTACHMENT_ZFILEMESSAGE_INDEX"))
        #expect(indexNames.contains("ZATRECORD_Z_ENT_INDEX"))
        #expect(!indexNames.contains("ZATMESSAGESENDER_Z_ENT_INDEX"))
        #expect(
            layout.role(ofColumn: "ZSENDER", inTable: "ZATRECORD")
                == .foreignKey(entity: "ATMessage", relationship: "sender"))
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func apptentiveVersion2NumbersTheSecondPendingState() throws {
        let corpus = try Corpus.required()
        let model = try corpus.modelBundle(.apptentive).version(named: "ATDataModel 2")
        let layout = try StoreLayout(model: model, release: Self.apptentive)
        #expect(layout.entity(named: "ATAbstractMessage")?.column(for: "pendingState") == "ZPENDINGSTATE")
        #expect(layout.entity(named: "ATSurveyResponse")?.column(for: "pendingState") == "ZPENDINGSTATE1")
        #expect(layout.entity(named: "ATSurveyResponse")?.number == 11)
        #expect(
            layout.entity(named: "ATAbstractMessage")?.relationship(named: "displayTypes")?.joinTableName
                == "Z_5DISPLAYTYPES")
        #expect(
            layout.role(ofColumn: "ZPENDINGSTATE1", inTable: "ZATRECORD")
                == .attribute(entity: "ATSurveyResponse", property: "pendingState"))
        #expect(layout.entity(named: "ATRecord")?.subentityNumbers == Array(4...11))
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func apptentiveVersion5OrdersAttachmentsWithAForeignKeyOrderColumn() throws {
        let corpus = try Corpus.required()
        let model = try corpus.modelBundle(.apptentive).version(named: "ATDataModel 5")
        let layout = try StoreLayout(model: model, release: Self.apptentive)
        #expect(
            layout.entity(named: "ATMessage")?.relationship(named: "attachments")?.storage
                == .inverseForeignKey(table: "ZATFILEATTACHMENT", column: "ZMESSAGE", orderColumn: "Z_FOK_MESSAGE"))
        #expect(
            layout.entity(named: "ATFileAttachment")?.relationship(named: "message")?.storage
                == .foreignKey(column: "ZMESSAGE", entityColumn: nil, orderColumn: "Z_FOK_MESSAGE"))
        #expect(
            layout.role(ofColumn: "Z_FOK_MESSAGE", inTable: "ZATFILEATTACHMENT")
                == .order(entity: "ATMessage", relationship: "attachments"))
        #expect(!layout.indexes.contains { $0.columns.contains("Z_FOK_MESSAGE") })
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func moodyVersion1PutsTheUniquenessConstraintInTheRootTable() throws {
        let corpus = try Corpus.required()
        let model = try corpus.modelBundle(.moody).version(named: "Moody")
        let layout = try StoreLayout(model: model, release: CoreDataRelease(frameworkVersion: 637))  // Moody's
        let table = try #require(layout.table(named: "ZGEOGRAPHICREGION"))
        #expect(
            table.uniqueConstraints.map(\.name) == ["ZNUMERICISO3166CODE_ZUNIQUENESSDUMMY"])
        #expect(table.createStatement.contains(#"CONSTRAINT "ZNUMERICISO3166CODE_ZUNIQUENESSDUMMY" UNIQUE"#))
        #expect(
            layout.indexes(on: "ZMOOD").map(\.name).contains(
                "ZMOOD_ZMARKEDFORREMOTEDELETION_ZMARKEDFORDELETIONDATE_ZDATE"))
        #expect(
            layout.primaryKeyRows.map(\.description) == [
                "1 GeographicRegion 0 (max 0)", "2 Continent 1 (max 0)", "3 Country 1 (max 0)", "4 Mood 0 (max 0)",
            ])
    }
}

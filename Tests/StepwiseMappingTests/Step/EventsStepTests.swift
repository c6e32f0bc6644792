import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Events 1 → 2: one step that runs two mapping models into the same destination.
@Suite("Events steps")
struct EventsStepTests {
    static let stepOne = "Events → Events 2, step one: time stamps"
    static let stepTwo = "Events → Events 2, step two: printed dates"

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func seeded(_ timeStamps: [Date?] = EventsSeed.timeStamps) throws -> URL {
        let url = directory.path("Events.sqlite")
        try StoreCreator.createStore(at: url, model: EventsHistory.v1)
        try EventsSeed.seed(at: url, timeStamps: timeStamps)
        return url
    }

    func run(_ models: [MappingModel], source: URL) throws -> (URL, StepReport) {
        let destination = directory.path("Events 2.sqlite")
        let report = try MigrationStep(
            from: EventsHistory.v1, to: EventsHistory.v2, mappingModels: models, policies: SamplePolicies.registry
        ).run(source: source, destination: destination)
        return (destination, report)
    }

    func sampleModels() throws -> [MappingModel] {
        try StepFixtures.mappingModels(
            [SampleMappings.events1to2TimeStamps, SampleMappings.events1to2PrintedDates], from: EventsHistory.v1,
            to: EventsHistory.v2)
    }

    /// The converted values in primary-key order: time stamps and printed dates.
    func converted(_ url: URL) throws -> (timeStamps: [Double?], printedDates: [String?]) {
        try StepFixtures.read(url, EventsHistory.v2) { objects in
            (
                try objects.fetch("TimeStampEvent").map { $0.double("timeStamp") },
                try objects.fetch("PrintedDateEvent").map { $0.string("printedDate") }
            )
        }
    }

    struct Conversion: Sendable, CustomTestStringConvertible {
        var seconds: Double?
        var printed: String?
        var testDescription: String { "\(seconds.map { "\($0)" } ?? "nil") → \(printed ?? "nil")" }
    }

    @Test(arguments: [
        Conversion(seconds: 978_307_200, printed: "Jan 1, 2001"),
        Conversion(seconds: 0, printed: "Jan 1, 1970"),
        Conversion(seconds: 1_709_210_096, printed: "Feb 29, 2024"),
        Conversion(seconds: -86_400, printed: "Dec 31, 1969"),
        // One second before midnight UTC is printed as that day, whatever the machine's zone.
        Conversion(seconds: 978_393_599, printed: "Jan 1, 2001"),
        Conversion(seconds: 978_307_200.25, printed: "Jan 1, 2001"),
        Conversion(seconds: nil, printed: nil),
    ])
    func eachEventBecomesATimeStampEventAndAPrintedDateEvent(_ conversion: Conversion) throws {
        let source = try seeded([conversion.seconds.map { Date(timeIntervalSince1970: $0) }])
        let (destination, _) = try run(try sampleModels(), source: source)
        let (timeStamps, printedDates) = try converted(destination)
        #expect(timeStamps == [conversion.seconds])
        #expect(printedDates == [conversion.printed])
    }

    @Test func nEventsBecomeNOfEachInSourceOrderWithDenseKeys() throws {
        let source = try seeded()
        let before = StepFixtures.bytes(source)
        let (destination, report) = try run(try sampleModels(), source: source)
        #expect(StepFixtures.bytes(source) == before)
        let (timeStamps, printedDates) = try converted(destination)
        #expect(timeStamps == [978_307_200, 0, 1_709_210_096, -86_400, nil])
        #expect(printedDates == ["Jan 1, 2001", "Jan 1, 1970", "Feb 29, 2024", "Dec 31, 1969", nil])
        #expect(report.rows == 10)
        #expect(try StepFixtures.maxima(destination) == ["PrintedDateEvent": 5, "TimeStampEvent": 5])
        let keys = try StepFixtures.read(destination, EventsHistory.v2) { objects in
            [
                try objects.fetch("TimeStampEvent").map(\.id.primaryKey),
                try objects.fetch("PrintedDateEvent").map(\.id.primaryKey),
            ]
        }
        #expect(keys == [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
    }

    @Test func theTwoMappingModelsRunInTheOrderGiven() throws {
        let source = try seeded()
        let models = try sampleModels()
        let (_, report) = try run(models, source: source)
        #expect(report.kind == .explicit)
        #expect(report.mappingModels == [Self.stepOne, Self.stepTwo])
        #expect(report.entityMappings.map(\.name) == ["EventToTimeStampEvent", "EventToPrintedDateEvent"])
        #expect(report.entityMappings.map(\.instances) == [5, 5])

        let reversedDestination = directory.path("Reversed.sqlite")
        let reversed = try MigrationStep(
            from: EventsHistory.v1, to: EventsHistory.v2, mappingModels: models.reversed(),
            policies: SamplePolicies.registry
        ).run(source: source, destination: reversedDestination)
        #expect(reversed.mappingModels == [Self.stepTwo, Self.stepOne])
        #expect(reversed.entityMappings.map(\.name) == ["EventToPrintedDateEvent", "EventToTimeStampEvent"])
    }

    @Test func oneMappingModelAloneLeavesTheOtherEntityEmpty() throws {
        let source = try seeded()
        let (destination, report) = try run([try sampleModels()[0]], source: source)
        #expect(report.mappingModels == [Self.stepOne])
        let (timeStamps, printedDates) = try converted(destination)
        #expect(timeStamps.count == 5)
        #expect(printedDates.isEmpty)
    }

    // MARK: Mapping directory

    @Test func theMappingDirectoryOfVersionsRunsTheStepsInTheirOrder() throws {
        let versions = Corpus.packageRoot.appendingPathComponent("Versions")
        let bundle = try ModelBundle(contentsOf: versions.appendingPathComponent("Events.xcdatamodeld"))
        let mappings = try MappingDirectory(
            contentsOf: versions.appendingPathComponent("Events.mappings"), history: bundle.history)
        let models = mappings.mappingModels(from: "Events", to: "Events 2")
        #expect(models.map(\.name) == [Self.stepOne, Self.stepTwo])
        // The same mappings as the sample files' text; the directory also records each file.
        #expect(models.map { $0.origin?.format } == [.json, .json])
        #expect(
            models.map {
                var model = $0; model.origin = nil; return model
            } == (try sampleModels()))
        let (destination, report) = try run(models, source: try seeded())
        #expect(report.mappingModels == [Self.stepOne, Self.stepTwo])
        #expect(try converted(destination).printedDates.first == "Jan 1, 2001")
    }

    struct OrderCase: Sendable, CustomTestStringConvertible {
        /// File name → `order` (nil: no key).
        var files: [String: Int?]
        /// The expected run order, by file name.
        var runOrder: [String]
        var testDescription: String { runOrder.joined(separator: ", ") }
    }

    @Test(arguments: [
        // `order` wins over the file names…
        OrderCase(files: ["a.json": 2, "b.json": 1], runOrder: ["b.json", "a.json"]),
        OrderCase(files: ["a.json": 10, "b.json": 9, "c.json": -1], runOrder: ["c.json", "b.json", "a.json"]),
        // …the file name breaks ties, and a missing `order` counts as 0.
        OrderCase(files: ["b.json": 1, "a.json": 1], runOrder: ["a.json", "b.json"]),
        OrderCase(files: ["z.json": nil, "a.json": 1], runOrder: ["z.json", "a.json"]),
    ])
    func theMappingDirectoryOrdersFilesByOrderThenByName(_ orderCase: OrderCase) throws {
        let folder = directory.path("Events.mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (file, order) in orderCase.files {
            let orderKey = order.map { "\"order\": \($0)," } ?? ""
            // Each file its own add mapping: files of the same content would run once, and two
            // mapping Event → TimeStampEvent differently would be refused.
            let text = """
                { "name": "\(file)", \(orderKey) "source": "Events", "destination": "Events 2",
                  "entityMappings": [{ "name": "Add\(file)", "destination": "TimeStampEvent" }] }
                """
            try Data(text.utf8).write(to: folder.appendingPathComponent(file))
        }
        // Not a mapping file: ignored.
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README.md"))
        let mappings = try MappingDirectory(contentsOf: folder, history: EventsHistory.history)
        #expect(mappings.mappingModels(from: "Events", to: "Events 2").map(\.name) == orderCase.runOrder)
        #expect(Array(mappings.steps.keys) == [MappingDirectory.StepKey("Events", "Events 2")])
    }
}

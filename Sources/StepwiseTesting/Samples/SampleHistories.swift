import Foundation
import StepwiseMapping
import StepwiseModel

/// The sample model histories kept in `Versions/`, defined in Swift so the CLI's demo can
/// run without any file on disk.
public enum SampleHistories {
    /// A sample history and the bundle name it is written under in `Versions/`.
    public struct Sample: Sendable {
        /// The bundle's base name: `Versions/<name>.xcdatamodeld`.
        public var name: String
        public var history: VersionHistory
        /// Mapping file name → JSON text, written to `<name>.mappings/`.
        public var mappingFiles: [String: String] = [:]
    }

    /// Every sample, in the order the demo presents them.
    public static let all: [Sample] = [
        Sample(
            name: "Recipes", history: RecipesHistory.history,
            mappingFiles: [
                "Recipes to Recipes 2.json": SampleMappings.recipes1to2,
                "Recipes 2 to Recipes 3.json": SampleMappings.recipes2to3,
            ]),
        Sample(
            name: "University", history: UniversityHistory.history,
            mappingFiles: [
                "University 2 to University 3.json": SampleMappings.university2to3,
                "University 3 to University 4.json": SampleMappings.university3to4,
            ]),
        Sample(
            name: "Events", history: EventsHistory.history,
            mappingFiles: [
                "Events to Events 2 (1 time stamps).json": SampleMappings.events1to2TimeStamps,
                "Events to Events 2 (2 printed dates).json": SampleMappings.events1to2PrintedDates,
            ]),
    ]

    /// Writes every sample as `<directory>/<name>.xcdatamodeld` plus its `<name>.history`
    /// file (the explicit order, so nobody has to trust the natural sort).
    public static func write(to directory: URL) throws -> [URL] {
        var written: [URL] = []
        for sample in all {
            let bundle = directory.appendingPathComponent("\(sample.name).xcdatamodeld")
            try? FileManager.default.removeItem(at: bundle)
            let versions = sample.history.versions
            try XcodeModelWriter.writeBundle(versions, current: versions.last?.name ?? sample.name, to: bundle)
            let historyText =
                "# Version order of \(sample.name).xcdatamodeld, oldest first.\n"
                + sample.history.names.joined(separator: "\n") + "\n"
            try Data(historyText.utf8).write(to: ModelBundle.historyFileURL(for: bundle), options: .atomic)
            let mappings = MappingDirectory.defaultURL(for: bundle)
            try? FileManager.default.removeItem(at: mappings)
            if !sample.mappingFiles.isEmpty {
                try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
                for (file, text) in sample.mappingFiles {
                    try Data(text.utf8).write(to: mappings.appendingPathComponent(file), options: .atomic)
                }
            }
            written.append(bundle)
        }
        return written
    }
}

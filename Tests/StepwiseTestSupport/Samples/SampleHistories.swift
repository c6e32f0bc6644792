import Foundation
import StepwiseDemo
import StepwiseMapping
import StepwiseModel

/// The sample model histories kept in `Versions/`, defined in Swift so tests and the demo can
/// run without any file on disk.
package enum SampleHistories {
    /// A sample history and the bundle name it is written under in `Versions/`.
    package typealias Sample = SampleHistory

    /// Every sample, in the order the demo presents them.
    package static let all: [Sample] = [
        DemoHistory.recipes,
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

    /// Writes every sample as `<directory>/<name>.xcdatamodeld`, its `<name>.history` file
    /// and its mappings.
    package static func write(to directory: URL) throws -> [URL] {
        try all.map { try $0.write(to: directory) }
    }
}

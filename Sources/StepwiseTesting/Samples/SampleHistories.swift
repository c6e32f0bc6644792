import Foundation
import StepwiseModel

/// The sample model histories kept in `Versions/`, defined in Swift so the CLI's demo can
/// run without any file on disk.
public enum SampleHistories {
    /// A sample history and the bundle name it is written under in `Versions/`.
    public struct Sample: Sendable {
        /// The bundle's base name: `Versions/<name>.xcdatamodeld`.
        public var name: String
        public var history: VersionHistory
    }

    /// Every sample, in the order the demo presents them.
    public static let all: [Sample] = [
        Sample(name: "Recipes", history: RecipesHistory.history)
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
            written.append(bundle)
        }
        return written
    }
}

import Foundation
import StepwiseMapping
import StepwiseModel

/// A sample model history and the bundle name it is written under in `Versions/`.
package struct SampleHistory: Sendable {
    /// The bundle's base name: `Versions/<name>.xcdatamodeld`.
    package var name: String
    package var history: VersionHistory
    /// Mapping file name → JSON text, written to `<name>.mappings/`.
    package var mappingFiles: [String: String]

    package init(name: String, history: VersionHistory, mappingFiles: [String: String] = [:]) {
        self.name = name
        self.history = history
        self.mappingFiles = mappingFiles
    }

    /// Writes the sample as `<directory>/<name>.xcdatamodeld` plus its `<name>.history` file
    /// (the explicit order, so nobody has to trust the natural sort) and its mapping folder.
    /// Returns the bundle's URL.
    package func write(to directory: URL) throws -> URL {
        let bundle = directory.appendingPathComponent("\(name).xcdatamodeld")
        try? FileManager.default.removeItem(at: bundle)
        let versions = history.versions
        try XcodeModelWriter.writeBundle(versions, current: versions.last?.name ?? name, to: bundle)
        let historyText =
            "# Version order of \(name).xcdatamodeld, oldest first.\n" + history.names.joined(separator: "\n") + "\n"
        try Data(historyText.utf8).write(to: ModelBundle.historyFileURL(for: bundle), options: .atomic)
        let mappings = MappingDirectory.defaultURL(for: bundle)
        try? FileManager.default.removeItem(at: mappings)
        if !mappingFiles.isEmpty {
            try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
            for (file, text) in mappingFiles {
                try Data(text.utf8).write(to: mappings.appendingPathComponent(file), options: .atomic)
            }
        }
        return bundle
    }
}

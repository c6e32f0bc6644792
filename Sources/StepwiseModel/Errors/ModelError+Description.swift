import Foundation

extension ModelError: CustomStringConvertible {
    public var description: String {
        let path = self.path ?? ""
        let place = self.path.map { " (\($0))" } ?? ""
        switch kind {
        case .notFound:
            return
                "no model at \(path). Pass the path of a .xcdatamodeld bundle, a .xcdatamodel, a compiled .momd folder or a .mom file."
        case .notAModel:
            return
                "\(path) is not a Core Data model. Pass a .xcdatamodeld bundle, a .xcdatamodel, a compiled .momd folder or a .mom file."
        case .legacyBinaryFormat:
            return
                "\(path) has no 'contents' file: it uses the pre-Xcode 4 binary model format ('elements'/'layout'). Open it in Xcode 4 or later and save it to convert it to the XML format."
        case .malformed(let reason):
            return
                "\(path) is not a readable Core Data model: \(reason). Restore the file from version control, or open the model in Xcode to repair it."
        case .invalidValue(let element, let attribute, let value):
            let shown = value.map { "'\($0)'" } ?? "missing"
            return "\(path): \(element) has \(shown) for '\(attribute)'. Fix the model file in Xcode."
        case .emptyBundle:
            return "\(path) holds no .xcdatamodel version. Add a model version in Xcode."
        case .unknownCurrentVersion(let name):
            return
                "\(path)/.xccurrentversion names '\(name)', which is not in the bundle. Pick the current version again in Xcode."
        case .unknownVersion(let name, let available):
            return "\(path) has no version '\(name)'. Available: \(available.joined(separator: ", "))."
        case .unreadableCompiledModel(let reason):
            return
                "\(path) is not a readable compiled Core Data model: \(reason). Build the app again so Xcode recompiles the model, or pass its source .xcdatamodeld."
        case .versionInfoMismatch(let reason):
            return
                "\(path): \(reason). Build the app again so Xcode writes the compiled model folder whole, or pass its source .xcdatamodeld."
        case .versionHashMismatch(let version, let entity):
            return
                "\(path): the version hash of entity '\(entity)' in version '\(version)' differs from the one VersionInfo.plist records: the .mom file is damaged or Stepwise misreads it. Pass the source .xcdatamodeld, and report the model to Stepwise."
        case .invalidModel(let version, let problems):
            let list = problems.map { "  - \($0)" }.joined(separator: "\n")
            return
                "model version '\(version)'\(place) is invalid:\n\(list)\nFix the model in Xcode or in its builder code, then try again."
        case .ambiguousOrder(let names, let reason):
            // The history file's own name when the bundle is known (`Shop.history`).
            let file =
                self.path.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent + ".history" }
                .map { "in \($0) beside the bundle" } ?? "in a history file beside the bundle (<Bundle>.history)"
            return
                "can't order the model versions \(names.map { "'\($0)'" }.joined(separator: ", "))\(place): \(reason). List them oldest first, one per line, \(file), or pass an explicit order."
        case .historyFileMismatch(let unknown, let missing):
            var parts: [String] = []
            if !unknown.isEmpty { parts.append("names unknown versions \(unknown.joined(separator: ", "))") }
            if !missing.isEmpty { parts.append("leaves out \(missing.joined(separator: ", "))") }
            return "\(path) \(parts.joined(separator: " and ")). List every version in the bundle, oldest first."
        case .unreadableShippedRecord(let reason):
            return "can't read the shipped record \(path): \(reason). Restore it from version control."
        case .malformedShippedRecord(let reason):
            return
                "\(path) is not a readable shipped record: \(reason). Restore it from version control, or record the version again with `force`."
        case .unwritableShippedRecord(let reason):
            return "can't write the shipped record \(path): \(reason). Check that its folder is writable."
        case .changedSinceShipped(let version, let differences):
            let list =
                differences.isEmpty
                ? "its model differs in ways that keep its version hashes (defaults, indexes, user info or layout)."
                : differences.map(\.description).joined(separator: " ")
            return
                "'\(version)' was recorded as shipped in \(path), and its model has changed since: \(list) Stores written by the shipped model keep its old layout: add a new model version for the change instead, or record again with `force` if the record is what is wrong."
        }
    }

    /// The kind's case name (`notFound`), for tools: `{"kind": …}` in the CLI's JSON. A shipped
    /// record's kinds keep the names they had on their own type (`malformed`, `unreadable`).
    package var caseName: String {
        switch kind {
        case .notFound: "notFound"
        case .notAModel: "notAModel"
        case .legacyBinaryFormat: "legacyBinaryFormat"
        case .malformed: "malformed"
        case .invalidValue: "invalidValue"
        case .emptyBundle: "emptyBundle"
        case .unknownCurrentVersion: "unknownCurrentVersion"
        case .unknownVersion: "unknownVersion"
        case .unreadableCompiledModel: "unreadableCompiledModel"
        case .versionInfoMismatch: "versionInfoMismatch"
        case .versionHashMismatch: "versionHashMismatch"
        case .invalidModel: "invalidModel"
        case .ambiguousOrder: "ambiguousOrder"
        case .historyFileMismatch: "historyFileMismatch"
        case .unreadableShippedRecord: "unreadable"
        case .malformedShippedRecord: "malformed"
        case .unwritableShippedRecord: "unwritable"
        case .changedSinceShipped: "changedSinceShipped"
        }
    }

    /// The file the error is about.
    package var subjectPath: String? { path }
}

/// A model file that can't be read, naming the file and what to do about it.
public struct XcodeModelError: Error, Sendable, Hashable, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The path doesn't exist.
        case notFound
        /// The path is not a model: a `.xcdatamodeld` bundle, a `.xcdatamodel`, a compiled
        /// `.momd` folder or a `.mom` file.
        case notAModel
        /// A `.xcdatamodel` folder without a `contents` file: the pre-Xcode 4 binary format.
        case legacyBinaryFormat
        /// The `contents` file is not well-formed XML or not a Core Data model.
        case malformed(String)
        /// An element lacks a required XML attribute, or has a value Stepwise doesn't know.
        case invalidValue(element: String, attribute: String, value: String?)
        /// A bundle without any `.xcdatamodel` version.
        case emptyBundle
        /// `.xccurrentversion` names a version the bundle doesn't have.
        case unknownCurrentVersion(String)
        /// A version the caller asked for is not in the bundle.
        case unknownVersion(String, available: [String])
        /// A compiled model (a `.mom` file, or the archive of a store's model cache) that is not
        /// a readable `NSManagedObjectModel` archive: why.
        case unreadableCompiledModel(String)
        /// A compiled model folder (`.momd`) whose `VersionInfo.plist` is missing, unreadable or
        /// doesn't match the folder's `.mom` files: why.
        case versionInfoMismatch(String)
        /// A compiled version whose entity hash, computed from its `.mom`, differs from the one
        /// `VersionInfo.plist` records, or an entity only one of the two has.
        case versionHashMismatch(version: String, entity: String)
    }

    /// The file or folder at fault.
    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
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
        }
    }
}

extension XcodeModelError {
    /// The kind's case name (`notFound`), for tools: `{"kind": …}` in the CLI's JSON.
    public var caseName: String {
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
        }
    }

    /// The file the error is about.
    public var subjectPath: String? { path }
}

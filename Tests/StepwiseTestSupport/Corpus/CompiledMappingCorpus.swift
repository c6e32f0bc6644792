import Foundation

/// The compiled mapping models (`.cdm`) of the corpus's `compiled/` projects, each with the
/// `.xcmappingmodel` Xcode compiled it from.
///
/// The projects keep each model version in a bundle of its own, all versions under one name
/// (`Model`, `XcodeServer`), and name their compiled files `*.cdm_precompiled` to keep them out
/// of Xcode's build. ``makeBundle(in:corpus:)`` puts a project's versions into one
/// `.xcdatamodeld`, as a team's history would be, under names that order
/// (`CoreDataPlus 1.0`, `CoreDataPlus 1.1`).
package enum CompiledMappingCorpus: String, CaseIterable, Sendable, CustomStringConvertible {
    /// richardpiazza/CoreDataPlus: one mapping model, `Model_1_0_to_1_1`, from 1.0 to 1.1.
    case coreDataPlus = "CoreDataPlus"
    /// richardpiazza/XcodeServer: a mapping model from 1.0.0 to 1.1.0 and one from 1.1.0 to
    /// 2.0.0, which renames every entity (`Bot` → `ManagedBot`).
    case xcodeServer = "XcodeServer"

    /// A compiled mapping model and its source, as corpus paths.
    package struct Pair: Sendable, CustomStringConvertible {
        /// The project it belongs to.
        package var project: CompiledMappingCorpus
        /// The `.cdm_precompiled` file.
        package var compiled: String
        /// The `.xcmappingmodel` folder beside it.
        package var source: String
        /// The version it maps from, as ``CompiledMappingCorpus/makeBundle(in:corpus:)`` names it.
        package var sourceVersion: String
        /// The version it maps to.
        package var destinationVersion: String

        /// The project and the step, for test names.

        package var description: String { "\(project.rawValue) \(sourceVersion) → \(destinationVersion)" }
    }

    /// Every compiled mapping model of the corpus with its source.
    package static var pairs: [Pair] {
        allCases.flatMap(\.pairs)
    }

    /// The project's name.
    package var description: String { rawValue }

    /// The project's compiled mapping models with their sources.
    package var pairs: [Pair] {
        switch self {
        case .coreDataPlus:
            let folder = "compiled/richardpiazza-CoreDataPlus/Tests/CoreDataPlusTests/Resources/"
            return [
                Pair(
                    project: self, compiled: folder + "Model_1_0_to_1_1.cdm_precompiled",
                    source: folder + "Model_1_0_to_1_1.xcmappingmodel", sourceVersion: "CoreDataPlus 1.0",
                    destinationVersion: "CoreDataPlus 1.1")
            ]
        case .xcodeServer:
            return [
                ("1_1_0", "XcodeServer 1.0.0", "XcodeServer 1.1.0"),
                ("2_0_0", "XcodeServer 1.1.0", "XcodeServer 2.0.0"),
            ]
            .map { folder, source, destination in
                let resources = "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_\(folder)/Resources/"
                return Pair(
                    project: self, compiled: resources + "MappingModel.cdm_precompiled",
                    source: resources + "MappingModel.xcmappingmodel", sourceVersion: source,
                    destinationVersion: destination)
            }
        }
    }

    /// One version of a project: the name ``makeBundle(in:corpus:)`` and
    /// ``makeCompiledBundle(in:corpus:)`` give it, its `.xcdatamodel` folder in the corpus, and
    /// the folder of the `.momd` Xcode compiled it into (`*.momd_precompiled`, one version
    /// each, all under the project's model name).
    package struct Version: Sendable {
        package var name: String
        package var source: String
        package var compiledFolder: String
        package var modelName: String
    }

    /// The project's versions, oldest first.
    package var versionTable: [Version] {
        switch self {
        case .coreDataPlus:
            return ["1.0", "1.1"].map { number in
                let root = "compiled/richardpiazza-CoreDataPlus/Tests/CoreDataPlusTests"
                return Version(
                    name: "CoreDataPlus \(number)",
                    source: "\(root)/Resources/CoreDataPlus_\(number).xcdatamodeld/Model.xcdatamodel",
                    compiledFolder: "\(root)/PrecompiledResources/CoreDataPlus_\(number).momd_precompiled",
                    modelName: "Model")
            }
        case .xcodeServer:
            return ["1.0.0", "1.1.0", "2.0.0"].map { number in
                let folder = number.replacingOccurrences(of: ".", with: "_")
                let resources = "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_\(folder)/Resources"
                return Version(
                    name: "XcodeServer \(number)",
                    source: "\(resources)/XcodeServer.xcdatamodeld/XcodeServer.xcdatamodel",
                    compiledFolder: "\(resources)/XcodeServer.momd_precompiled",
                    modelName: "XcodeServer")
            }
        }
    }

    /// The project's versions, oldest first: each one's name and `.xcdatamodel` folder.
    package var versions: [(name: String, path: String)] {
        versionTable.map { ($0.name, $0.source) }
    }

    /// The project's compiled versions, oldest first: each one's name, `.momd` folder and
    /// model name.
    package var compiledVersions: [(name: String, folder: String, model: String)] {
        versionTable.map { ($0.name, $0.compiledFolder, $0.modelName) }
    }

    /// Writes `<project>.momd` into `directory`, as Xcode would compile the bundle
    /// ``makeBundle(in:corpus:)`` makes: every compiled version's `.mom` under the same names,
    /// and one `VersionInfo.plist` with every version's hashes (taken from each compiled
    /// folder's own), the newest current. Returns its URL.
    /// - parameters:
    ///   - directory: An existing folder of yours; the `.momd` is made in it.
    ///   - corpus: The corpus the compiled versions are copied from (never edited).
    package func makeCompiledBundle(in directory: URL, corpus: Corpus) throws -> URL {
        let bundle = directory.appendingPathComponent("\(rawValue).momd")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var hashes: [String: Any] = [:]
        var info: [String: Any] = [:]
        for (name, folder, model) in compiledVersions {
            let source = corpus.url(folder)
            try FileManager.default.copyItem(
                at: source.appendingPathComponent("\(model).mom"), to: bundle.appendingPathComponent("\(name).mom"))
            let data = try Data(contentsOf: source.appendingPathComponent("VersionInfo.plist"))
            let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
            let versions = plist["NSManagedObjectModel_VersionHashes"] as? [String: Any] ?? [:]
            hashes[name] = versions[model] ?? versions.values.first
            if info.isEmpty { info = plist }
        }
        info["NSManagedObjectModel_VersionHashes"] = hashes
        info["NSManagedObjectModel_CurrentVersionName"] = compiledVersions.last?.name
        info["NSManagedObjectModel_VersionChecksums"] = nil
        let data = try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
        try data.write(to: bundle.appendingPathComponent("VersionInfo.plist"))
        return bundle
    }

    /// Writes `<project>.xcdatamodeld` into `directory` with every version of the project, the
    /// newest current, and returns its URL.
    /// - parameters:
    ///   - directory: An existing folder of yours; the bundle is made in it.
    ///   - corpus: The corpus the versions are copied from (never edited).
    package func makeBundle(in directory: URL, corpus: Corpus) throws -> URL {
        let bundle = directory.appendingPathComponent("\(rawValue).xcdatamodeld")
        for (name, path) in versions {
            let version = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: corpus.url(path).appendingPathComponent("contents"), to: version.appendingPathComponent("contents"))
        }
        if let current = versions.last?.name {
            let plist = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(current).xcdatamodel</string></dict></plist>
                """
            try Data(plist.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        return bundle
    }
}

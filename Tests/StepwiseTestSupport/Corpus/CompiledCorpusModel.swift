import Foundation

/// A compiled model folder of the corpus (`compiled/`: a `.momd`, or a `.momd_precompiled` a
/// project keeps for its tests) and the `.xcdatamodeld` it was compiled from. Paths are relative
/// to the corpus root (``Corpus/url(_:)-(String)``).
package struct CompiledCorpusModel: Sendable, Hashable, CustomStringConvertible {
    /// The folder holding `VersionInfo.plist` and one `.mom` per version.
    package var compiledPath: String
    /// The source bundle.
    package var sourcePath: String

    /// Every compiled model folder of the corpus, with its source.
    package static let all: [CompiledCorpusModel] = [
        .init(
            "compiled/Karim-ezzedine-CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.momd",
            "compiled/Karim-ezzedine-CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.xcdatamodeld"),
        .init(
            "compiled/alemar11-CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd",
            "compiled/alemar11-CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"),
        .init(
            "compiled/richardpiazza-CoreDataPlus/Tests/CoreDataPlusTests/PrecompiledResources/CoreDataPlus_1.0.momd_precompiled",
            "compiled/richardpiazza-CoreDataPlus/Tests/CoreDataPlusTests/Resources/CoreDataPlus_1.0.xcdatamodeld"),
        .init(
            "compiled/richardpiazza-CoreDataPlus/Tests/CoreDataPlusTests/PrecompiledResources/CoreDataPlus_1.1.momd_precompiled",
            "compiled/richardpiazza-CoreDataPlus/Tests/CoreDataPlusTests/Resources/CoreDataPlus_1.1.xcdatamodeld"),
        .init(
            "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_1_0_0/Resources/XcodeServer.momd_precompiled",
            "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_1_0_0/Resources/XcodeServer.xcdatamodeld"),
        .init(
            "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_1_1_0/Resources/XcodeServer.momd_precompiled",
            "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_1_1_0/Resources/XcodeServer.xcdatamodeld"),
        .init(
            "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_2_0_0/Resources/XcodeServer.momd_precompiled",
            "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_2_0_0/Resources/XcodeServer.xcdatamodeld"),
    ]

    /// The corpus store written by the first version of `SampleModel3` (alemar11/CoreDataPlus),
    /// beside its compiled model. Never open it in place: copy it with ``Corpus/copyStore(_:to:)-(String,URL)``.
    package static let sampleModel3Store =
        "compiled/alemar11-CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite"

    /// A pair.
    package init(_ compiledPath: String, _ sourcePath: String) {
        self.compiledPath = compiledPath
        self.sourcePath = sourcePath
    }

    /// The compiled folder's name, with its project: `richardpiazza-XcodeServer/…/XcodeServer.momd_precompiled`.
    package var description: String {
        let components = compiledPath.split(separator: "/")
        return "\(components.dropFirst().first ?? "")/…/\(components.last ?? "")"
    }
}

extension Corpus {
    /// Every folder under the corpus's `compiled/` that holds a `VersionInfo.plist`, relative to
    /// the corpus root, sorted: what ``CompiledCorpusModel/all`` must list.
    package func compiledModelFolders() throws -> [String] {
        let compiled = url("compiled")
        guard let walker = FileManager.default.enumerator(atPath: compiled.path) else { return [] }
        var folders: [String] = []
        while let path = walker.nextObject() as? String {
            if (path as NSString).lastPathComponent == "VersionInfo.plist" {
                folders.append("compiled/" + (path as NSString).deletingLastPathComponent)
            }
        }
        return folders.sorted()
    }

    /// Every folder of the whole corpus that holds a `VersionInfo.plist` (the compiled models
    /// of `compiled/`, and the `.momd` folders of the shipped apps in `app-histories/`),
    /// relative to the corpus root, sorted.
    package func versionInfoFolders() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var folders: [String] = []
        while let path = walker.nextObject() as? String {
            if (path as NSString).lastPathComponent == "VersionInfo.plist" {
                folders.append((path as NSString).deletingLastPathComponent)
            }
        }
        return folders.sorted()
    }
}

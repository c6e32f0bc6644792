import Foundation
import StepwiseModel
import StepwiseTesting

/// The three `.xcdatamodeld` bundles of the corpus (corpus README §2).
enum CorpusBundle: String, CaseIterable, Sendable, CustomStringConvertible {
    case apptentive = "apptentive-ios/model/ATDataModel.xcdatamodeld"
    case moody = "objcio-moody/model/Moody.xcdatamodeld"
    case wibosco = "wibosco-migration-example/model/CoreDataMigration_Example.xcdatamodeld"

    /// The version names, oldest first.
    var versionNames: [String] {
        switch self {
        case .apptentive:
            ["ATDataModel", "ATDataModel 2", "ATDataModel 3", "ATDataModel 4", "ATDataModel 5", "ATDataModel 6"]
        case .moody:
            ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5", "Moody 6"]
        case .wibosco:
            [
                "CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 3",
                "CoreDataMigration_Example 4",
            ]
        }
    }

    /// The version `.xccurrentversion` names.
    var currentVersionName: String {
        versionNames.last ?? ""
    }

    /// The bundle holding the version with this name.
    static func containing(_ versionName: String) -> CorpusBundle? {
        allCases.first { $0.versionNames.contains(versionName) }
    }

    /// All 16 version names of the corpus.
    static var allVersionNames: [String] {
        allCases.flatMap(\.versionNames)
    }

    var description: String {
        URL(fileURLWithPath: rawValue).lastPathComponent
    }
}

/// A corpus model version that can't be found (a typo in a test table).
struct UnknownCorpusVersion: Error, CustomStringConvertible {
    var name: String
    var description: String { "no corpus bundle holds a version named '\(name)'" }
}

extension Corpus {
    /// The `.xcdatamodel` folder of a corpus version.
    func versionURL(_ versionName: String) throws -> URL {
        guard let bundle = CorpusBundle.containing(versionName) else {
            throw UnknownCorpusVersion(name: versionName)
        }
        return url(bundle.rawValue).appendingPathComponent("\(versionName).xcdatamodel")
    }

    /// Reads one corpus version with ``XcodeModelReader``.
    func readVersion(_ versionName: String) throws -> ObjectModel {
        try XcodeModelReader.readVersion(at: versionURL(versionName))
    }
}

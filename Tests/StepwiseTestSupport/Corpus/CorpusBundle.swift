import Foundation

/// The three `.xcdatamodeld` bundles of the corpus (corpus README §2).
///
/// Each bundle's versions are named after it, oldest first: `Moody`, `Moody 2` … `Moody 6`.
/// Read one with ``Corpus/modelBundle(_:)`` or a single version with ``Corpus/readVersion(_:)``.
package enum CorpusBundle: String, CaseIterable, Sendable, CustomStringConvertible {
    /// apptentive-ios's `ATDataModel`, versions 1 to 6.
    case apptentive = "apptentive-ios/model/ATDataModel.xcdatamodeld"
    /// objc.io's `Moody`, versions 1 to 6.
    case moody = "objcio-moody/model/Moody.xcdatamodeld"
    /// wibosco's `CoreDataMigration_Example`, versions 1 to 4.
    case wibosco = "wibosco-migration-example/model/CoreDataMigration_Example.xcdatamodeld"

    /// The bundle's path inside the corpus.
    package var path: String { rawValue }

    /// The bundle's name without its extension, which is also its first version's name.
    package var baseName: String {
        URL(fileURLWithPath: rawValue).deletingPathExtension().lastPathComponent
    }

    /// How many versions the bundle holds.
    package var versionCount: Int {
        self == .wibosco ? 4 : 6
    }

    /// The name of version `number`, counting from 1: ``baseName`` alone, then `"<baseName> 2"`…
    package func versionName(_ number: Int) -> String {
        number == 1 ? baseName : "\(baseName) \(number)"
    }

    /// The version names, oldest first.
    package var versionNames: [String] {
        (1...versionCount).map(versionName)
    }

    /// The version `.xccurrentversion` names: the newest one.
    package var currentVersionName: String {
        versionName(versionCount)
    }

    /// The bundle holding the version with this name, if any.
    package static func containing(_ versionName: String) -> CorpusBundle? {
        allCases.first { $0.versionNames.contains(versionName) }
    }

    /// All 16 version names of the corpus, bundle by bundle, oldest first.
    package static var allVersionNames: [String] {
        allCases.flatMap(\.versionNames)
    }

    /// The bundle's folder name, such as `Moody.xcdatamodeld`.
    package var description: String {
        URL(fileURLWithPath: rawValue).lastPathComponent
    }
}

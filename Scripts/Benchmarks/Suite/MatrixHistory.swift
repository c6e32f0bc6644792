import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting

/// The `matrix` scenario's history: the newest ``versionCount`` versions of Wire's
/// `zmessaging.xcdatamodeld` from the corpus, written as a bundle of their own, so the matrix
/// reads it as `stepwise matrix --models` would (and sees nothing of the older 78).
enum MatrixHistory {
    /// Versions in the history: the 12-version history, 66 pairs.
    static let versionCount = 12
    /// The corpus bundle the versions are taken from.
    static let corpusBundle = "wire-data-model/model/zmessaging.xcdatamodeld"

    /// The bundle in `directory`, written from the corpus the first time; nil without the
    /// corpus.
    static func ensureBundle(in directory: URL) throws -> URL? {
        guard let corpus = try Corpus.locate() else { return nil }
        let folder = directory.appendingPathComponent("matrix-history-\(versionCount)", isDirectory: true)
        let bundle = folder.appendingPathComponent("zmessaging.xcdatamodeld", isDirectory: true)
        if FileManager.default.fileExists(atPath: bundle.path) { return bundle }
        let listing = try ModelBundleListing(contentsOf: corpus.url(corpusBundle))
        let names = Array(listing.names.suffix(versionCount))
        let partial = folder.appendingPathComponent(".partial", isDirectory: true)
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: listing.versionURL(named: name), to: partial.appendingPathComponent(name + ".xcdatamodel"))
        }
        guard let current = names.last else { throw BenchError("matrix: the corpus bundle has no versions") }
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            	<key>_XCCurrentVersionName</key>
            	<string>\(current).xcdatamodel</string>
            </dict>
            </plist>
            """
        try Data(plist.utf8).write(to: partial.appendingPathComponent(".xccurrentversion"))
        try FileManager.default.moveItem(at: partial, to: bundle)
        return bundle
    }
}

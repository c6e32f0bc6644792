import Foundation
import Testing

/// The articles' Swift samples are the files in `Snippets/`, which `swift build` compiles (issue 45).
/// The compiler already refuses a `package` symbol in a snippet; these tests keep the rest of the
/// promise that a reader can copy one: a snippet imports only what an app can (the products and
/// the system's modules), every snippet is shown by an article, and no article shows Stepwise code
/// that isn't a snippet.
@Suite struct DocumentationSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardized
    static let snippets = root.appendingPathComponent("Snippets")
    static let catalog = root.appendingPathComponent("Sources/Stepwise/Stepwise.docc")

    /// SwiftPM lets a snippet import every library target of the package, products or not.
    static let importable: Set<String> = [
        "Stepwise", "StepwiseTesting", "StepwiseCommandLine",
        "Foundation", "Dispatch", "GRDB", "Testing", "UIKit",
    ]

    static func files(in folder: URL, withExtension pathExtension: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == pathExtension }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func articles() throws -> [(name: String, text: String)] {
        try files(in: catalog, withExtension: "md").map {
            ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8))
        }
    }

    @Test func snippetsImportOnlyWhatAnAppCan() throws {
        let files = try Self.files(in: Self.snippets, withExtension: "swift")
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                #expect(!code.hasPrefix("@testable"), "\(file.lastPathComponent): \(code)")
                guard code.hasPrefix("import ") else { continue }
                let module = String(code.dropFirst("import ".count))
                #expect(Self.importable.contains(module), "\(file.lastPathComponent) imports \(module)")
            }
        }
    }

    @Test func everySnippetIsShownByAnArticle() throws {
        let shown = try Self.articles().map(\.text).joined()
        for file in try Self.files(in: Self.snippets, withExtension: "swift") {
            let name = file.deletingPathExtension().lastPathComponent
            #expect(shown.contains("@Snippet(path: \"Stepwise/Snippets/\(name)\""), "no article shows \(name)")
        }
    }

    /// What stays a plain block is code that can't be a snippet: package manifests, and Core Data
    /// or SwiftData code (Apple's frameworks only).
    @Test func noArticleShowsStepwiseCodeOutsideASnippet() throws {
        // Stepwise's own names, not Core Data's (`NSEntityMigrationPolicy`, `NSCustomMigrationStage`).
        let stepwiseCode = try NSRegularExpression(
            pattern: #"import Stepwise|(?<![A-Za-z])(Upgrader|PolicyRegistry|EntityMigrationPolicy|MigrationStage)\b"#)
        for (name, text) in try Self.articles() {
            for block in text.components(separatedBy: "```swift").dropFirst() {
                let code = block.components(separatedBy: "```").first ?? ""
                let range = NSRange(code.startIndex..., in: code)
                #expect(
                    stepwiseCode.firstMatch(in: code, range: range) == nil,
                    "\(name) shows Stepwise code in a ```swift block: make it a snippet")
            }
        }
    }
}

import Foundation
import StepwiseTestSupport
import Testing

// `Process` exists on macOS and Linux only.
#if os(macOS) || os(Linux)

    /// Every fuzz target's seed corpus replayed through the target's replay tool
    /// (`.build/debug/fuzz-<target>`, built by `swift build --build-tests`), which runs each
    /// input on a thread with 512 KB of stack (`FuzzDriver`): no input crashes a reader on the
    /// stack an app's thread has on Apple platforms.
    ///
    /// The seeds are those `Scripts/fuzz` starts from: `Versions/`, `Fuzz/Seeds/<target>/`, the
    /// corpus's models and mapping models when it is present, and what earlier fuzz runs kept
    /// in `.fuzz/<target>/` (gitignored, so only on a maintainer's machine).
    @Suite("Fuzz corpora on a 512 KB stack")
    struct FuzzCorporaReplayTests {
        static let root = Corpus.packageRoot

        @Test(
            "Each fuzz target replays its seeds without a crash",
            arguments: ["model", "mapping", "expression", "metadata", "xcmapping", "archive", "modelcache"])
        func replaysSeeds(target: String) throws {
            let inputs = try Self.inputs(of: target)
            let runner = try CommandRunner(executable: "fuzz-\(target)")
            // A few hundred paths per run keep the command line short.
            for start in stride(from: 0, to: inputs.count, by: 200) {
                let batch = Array(inputs[start..<min(start + 200, inputs.count)])
                let result = try runner.run(batch.map(\.path))
                #expect(
                    result.status == 0 && result.standardOutput.contains("no crash"),
                    "fuzz-\(target) on \(batch.first?.lastPathComponent ?? "?")…: status \(result.status)\n\(result.standardError.suffix(2000))"
                )
            }
        }

        /// The seed files of `target`, as `Scripts/fuzz` gathers them (without the ones it
        /// extracts with python3 from stores and mapping models).
        static func inputs(of target: String) throws -> [URL] {
            var inputs = files(in: root.appendingPathComponent("Fuzz/Seeds/\(target)"))
            for folder in ["corpus", "seeds"] {
                inputs += files(in: root.appendingPathComponent(".fuzz/\(target)/\(folder)"))
            }
            let versions = files(in: root.appendingPathComponent("Versions"), recursively: true)
            let corpus = try Corpus.locate().map { files(in: $0.root, recursively: true) } ?? []
            switch target {
            case "model":
                inputs += (versions + corpus).filter { $0.path.hasSuffix(".xcdatamodel/contents") }
            case "mapping":
                inputs += versions.filter { $0.pathExtension == "json" && $0.path.contains(".mappings/") }
            case "xcmapping":
                inputs += corpus.filter { $0.path.hasSuffix(".xcmappingmodel/xcmapping.xml") }
            case "archive":
                inputs += corpus.filter { $0.pathExtension == "mom" || $0.pathExtension == "cdm" }
            default:
                break
            }
            return inputs
        }

        /// The regular files in `folder` (and below it when `recursively`); none when it is absent.
        static func files(in folder: URL, recursively: Bool = false) -> [URL] {
            guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
            if !recursively {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                return names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }
                    .filter { isFile($0) }
            }
            var found: [URL] = []
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if isFile(url) { found.append(url) }
            }
            return found.sorted { $0.path < $1.path }
        }

        private static func isFile(_ url: URL) -> Bool {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }

#endif

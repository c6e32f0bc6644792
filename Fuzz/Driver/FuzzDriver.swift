import Foundation

#if FUZZING
    import CLibFuzzer
#endif

/// The C signature of libFuzzer's `LLVMFuzzerTestOneInput`: one input's bytes and count;
/// the result is always 0.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// The `main` of every fuzz target.
///
/// Built by `Scripts/fuzz` (`-sanitize=fuzzer,address -DFUZZING`) it hands the command line to
/// libFuzzer's `LLVMFuzzerRunDriver`. libFuzzer's own `main` can't be used: SwiftPM links an
/// executable target with `--defsym main=<module>_main`, the entry point `@main` generates,
/// so a target must have a `@main` of its own and start libFuzzer from it.
///
/// Built normally (`swift build`, no sanitizer) it is a replay tool: every file named on the
/// command line, and every file in a folder named there, is run once through the target, on a
/// thread with 512 KB of stack as an app's secondary thread has on Apple platforms. That
/// reproduces a finding in a debugger or with Swift's own backtrace:
///
/// ```sh
/// swift build --product fuzz-expression
/// .build/debug/fuzz-expression .fuzz/expression/artifacts/crash-1234abcd
/// ```
public enum FuzzDriver {
    /// Runs libFuzzer, or replays the inputs named on the command line; never returns.
    ///
    /// - parameters:
    ///   - target: The target's name in messages, such as `model`.
    ///   - testOneInput: The target's `LLVMFuzzerTestOneInput`.
    public static func main(target: String, testOneInput: FuzzTestOneInput) -> Never {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
            let arguments = Array(CommandLine.arguments.dropFirst())
            exit(onSmallStack { replay(target: target, arguments: arguments, testOneInput: testOneInput) })
        #endif
    }

    /// The stack Apple platforms give a secondary thread (and every GCD worker thread): the
    /// least the readers may run on in an app, so replay runs on no more
    /// (`SmallStackReaderTests` replays the seed corpora with it).
    public static let smallStackSize = 512 * 1024

    /// Runs `body` on a thread with ``smallStackSize`` of stack and waits for it: a reader that
    /// would exhaust an app's secondary thread crashes here too, although Linux gives the main
    /// thread 8 MB.
    static func onSmallStack(_ body: @escaping @Sendable () -> Int32) -> Int32 {
        let finished = DispatchSemaphore(value: 0)
        let status = Status()
        let thread = Thread {
            status.value = body()
            finished.signal()
        }
        thread.stackSize = smallStackSize
        thread.start()
        finished.wait()
        return status.value
    }

    /// The replay thread's exit status.
    ///
    /// `@unchecked Sendable`: written by that thread before it signals, read after the wait.
    private final class Status: @unchecked Sendable {
        var value: Int32 = 0
    }

    /// A copy of one input's bytes.
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Runs each input once; returns the exit status.
    static func replay(target: String, arguments: [String], testOneInput: FuzzTestOneInput) -> Int32 {
        let name = "fuzz-\(target)"
        if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
            print(
                """
                usage: \(name) FILE|DIR…
                Runs each input once through the \(target) fuzz target (a folder: each file in it).
                This build has no libFuzzer: Scripts/fuzz \(target) builds and runs the fuzzer.
                """)
            return arguments.isEmpty ? 2 : 0
        }
        var count = 0
        for path in arguments {
            let files: [URL]
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("\(name): no such file or folder: \(path)\n".utf8))
                return 2
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files = names.sorted().filter { !$0.hasPrefix(".") }.map {
                    URL(fileURLWithPath: path).appendingPathComponent($0)
                }.filter { file in
                    var isFolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder)
                        && !isFolder.boolValue
                }
            } else {
                files = [URL(fileURLWithPath: path)]
            }
            for file in files {
                guard let input = try? Data(contentsOf: file) else { continue }
                _ = input.withUnsafeBytes { buffer in
                    testOneInput(buffer.bindMemory(to: UInt8.self).baseAddress, buffer.count)
                }
                count += 1
            }
        }
        print("\(name): replayed \(count) input\(count == 1 ? "" : "s"), no crash")
        return 0
    }
}

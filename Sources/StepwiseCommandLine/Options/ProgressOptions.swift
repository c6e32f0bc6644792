import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--progress auto|bar|lines|none`, shared by the commands that upgrade a store.
struct ProgressOptions: ParsableArguments {
    /// What `--progress` accepts.
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case auto, bar, lines, none
    }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How to show progress on standard error: auto, bar, lines or none.",
            discussion: "auto draws a bar when standard error is a terminal and prints plain lines otherwise.",
            valueName: "style"))
    var progress: Choice = .auto

    /// The renderer's style, `auto` resolved by asking whether standard error is a terminal.
    var style: ProgressRenderer.Style {
        switch progress {
        case .auto: isatty(STDERR_FILENO) != 0 ? .bar : .lines
        case .bar: .bar
        case .lines: .lines
        case .none: .none
        }
    }
}

import ArgumentParser
import Foundation
import StepwiseTestSupport

/// `stepwise-samples`: writes the sample histories of StepwiseTestSupport as bundles. For
/// maintainers only, so it is not part of the shipped `stepwise` tool.
@main
struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stepwise-samples",
        abstract: "Write the sample model histories (Recipes, …) as .xcdatamodeld bundles.",
        discussion: "Maintainers regenerate Versions/ with `swift run stepwise-samples --write Versions`."
    )

    @Option(name: .long, help: ArgumentHelp("The folder to write the bundles into.", valueName: "directory"))
    var write: String

    func run() throws {
        let directory = URL(fileURLWithPath: write)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for bundle in try SampleHistories.write(to: directory) {
            print("Wrote \(bundle.path)")
        }
    }
}

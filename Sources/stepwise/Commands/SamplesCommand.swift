import ArgumentParser
import Foundation
import StepwiseTesting

struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Write the sample model histories (Recipes, …) as .xcdatamodeld bundles.",
        discussion: "Maintainers regenerate Versions/ with `swift run stepwise samples --write Versions`.",
        shouldDisplay: false
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

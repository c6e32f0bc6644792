import ArgumentParser
import Foundation
import StepwiseMapping
import StepwiseModel

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract:
            "Print an Xcode mapping model (.xcmappingmodel, or its compiled .cdm) as a Stepwise JSON mapping file.",
        discussion: """
            Reads the mapping model as `\(ToolName.current) upgrade` does: binds it to two versions of the bundle (by its \
            model paths, else its embedded model copies, else the one pair its entity mappings fit), checks every \
            entity and property it names, and decodes its archived value expressions. The JSON loads back to the \
            same mapping, so a team can review and diff its mapping models as text.

            A compiled mapping model (a .cdm file, as an app ships it; known by its content, whatever its name) \
            is bound by the entity version hashes it carries, and prints the same mapping as the .xcmappingmodel \
            it was compiled from.

            Stepwise reads .xcmappingmodel folders directly: converting is for reading, not required. If you keep \
            the JSON instead, remove the .xcmappingmodel, or the step would have two mappings of different \
            formats, which Stepwise refuses.

            Example: \(ToolName.current) convert Migration2to3.xcmappingmodel --models Model.xcdatamodeld > Migration2to3.json
            """
    )

    @Argument(
        help: ArgumentHelp("The .xcmappingmodel folder or .cdm file to convert.", valueName: "mapping-model"),
        completion: .file())
    var mappingModel: String

    @OptionGroup var bundleOptions: BundleOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the JSON to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let bundle = try bundleOptions.load()
        let url = URL(fileURLWithPath: mappingModel)
        // A compiled mapping model is known by its content: projects rename them
        // (`Model.cdm_precompiled`) to keep them out of Xcode's build.
        let model =
            CompiledMappingModel.hasCompiledName(url) || CompiledMappingModel.isCompiledMappingModel(at: url)
            ? try CompiledMappingModel.load(url, history: bundle.history)
            : try XcodeMappingModel.load(url, history: bundle.history)
        let json = try MappingFile.encode(
            model, source: try bundle.version(named: model.sourceVersion),
            destination: try bundle.version(named: model.destinationVersion))
        if let output {
            try json.write(to: URL(fileURLWithPath: output))
        } else {
            FileHandle.standardOutput.write(json)
        }
        let binding = model.origin.map { " (bound by \($0.binding))" } ?? ""
        StandardError.print("\(mappingModel): '\(model.sourceVersion)' → '\(model.destinationVersion)'\(binding)")
    }
}

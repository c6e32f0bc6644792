import ArgumentParser
import StepwiseModel
import StepwiseStore

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the SQLite DDL Core Data uses for a model version.",
        discussion:
            "The statements create the Z<ENTITY> tables, indexes, Z_PRIMARYKEY and Z_METADATA, as `\(ToolName.current) create` runs them."
    )

    @OptionGroup var model: ModelOptions

    @OptionGroup var releaseOption: ReleaseOption

    func run() throws {
        // One version is printed, so one model file is read. A version named with --version is
        // read without listing the bundle (no order is needed); else the listing names the
        // current one without parsing the others, and lists them if --version names none.
        let url = try ModelBundleListing.modelURL(model.bundle.url)
        let version: ObjectModel
        if let name = model.version, let named = try ModelBundleListing.readVersion(named: name, inBundleAt: url) {
            version = named
        } else {
            let listing = try ModelBundleListing(contentsOf: url)
            version = try listing.readVersion(named: model.version ?? listing.currentName)
        }
        let layout = try StoreLayout(model: version, release: releaseOption.release)
        let forms =
            releaseOption.frameworkVersion.map { "as Core Data \($0) wrote it" } ?? "in Core Data's newest forms"
        print("-- Model version '\(version.name)' from \(url.lastPathComponent), \(forms)")
        for statement in layout.createStatements {
            print(statement + ";")
        }
    }
}

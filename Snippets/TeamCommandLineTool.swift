// snippet.hide
// CommandLineTool.md, "Your own tool": a team's `StepwiseTool` with its policies. Built by
// `swift build`, never run (Examples/notes-upgrade is the same tool, run by CustomToolTests).
// snippet.show
import StepwiseCommandLine

// snippet.hide
final class TitlePolicy: EntityMigrationPolicy {}
// snippet.show
@main struct NotesUpgrade: StepwiseTool {
    static var policies: PolicyRegistry {
        var registry = PolicyRegistry()
        registry.register("TitlePolicy") { TitlePolicy() }
        return registry
    }
}

import StepwiseCommandLine

@main struct NotesUpgrade: StepwiseTool {
    static var policies: PolicyRegistry {
        var registry = PolicyRegistry()
        registry.register("TitlePolicy") { TitlePolicy() }
        return registry
    }
}

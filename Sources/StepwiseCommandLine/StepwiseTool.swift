import ArgumentParser
import CSQLiteSettings
import StepwiseMapping

/// A command-line tool with Stepwise's commands (`inspect`, `plan`, `upgrade`, `matrix`, …)
/// that knows a team's own entity migration policies.
///
/// ArgumentParser instantiates commands from their types, so the policies travel as a type:
/// the commands that run mappings are generic over the tool (`UpgradeCommand<Self>`) and read
/// `Tool.policies`. A whole tool is a few lines:
///
/// ```swift
/// import StepwiseCommandLine
///
/// @main struct NotesUpgrade: StepwiseTool {
///     static var policies: PolicyRegistry {
///         var registry = PolicyRegistry()
///         registry.register("TitlePolicy") { TitlePolicy() }
///         return registry
///     }
/// }
/// ```
///
/// The stock `stepwise` executable is such a tool, with the demo's Recipes policies only.
public protocol StepwiseTool: ParsableCommand {
    /// The policies that mapping files may name, by name.
    static var policies: PolicyRegistry { get }

    /// Whether ``policies`` holds every policy the team's mappings name, so that `check`
    /// reports a mapping naming any other as an error. True unless a tool says otherwise; the
    /// stock `stepwise` knows only the demo's policies, and says false.
    static var checksPolicies: Bool { get }
}

extension StepwiseTool {
    public static var checksPolicies: Bool { true }

    /// The tool's name (the executable's file name), abstract and Stepwise's commands.
    /// Implement `configuration` yourself to add commands to ``stepwiseCommands``.
    ///
    /// It sets no `version`: ``main()`` answers `--version` (see there why).
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: toolName,
            abstract: "Inspect, create and upgrade Core Data-layout SQLite stores across model versions.",
            discussion: """
                Stepwise reads the models Xcode keeps in .xcdatamodeld bundles and the stores Core Data \
                writes (Z_METADATA, Z_PRIMARYKEY, Z<ENTITY> tables). It never writes to a store it inspects.

                Start with `\(toolName) demo`, then `\(toolName) inspect STORE --models BUNDLE`, \
                `\(toolName) plan` and `\(toolName) upgrade`.

                Errors go to standard error. With --json, standard output holds one JSON object: the result, or \
                {"error": {...}} naming the failed step, mapping, entity, property and row.

                Exit status: 0 success; 1 a check, comparison or matrix found problems (or an unexpected failure); \
                3 the store is newer than this build or of a version its models don't know; 64 usage; \
                65 a model, mapping, policy or history can't be used; 66 the store is missing, not a store, or \
                damaged; 74 an I/O error or a full disk; 75 the store is busy (another process holds it, or an \
                upgrade is running): retry later; 130 cancelled.

                `\(toolName) --version` prints the version.
                """,
            subcommands: stepwiseCommands
        )
    }

    /// Every Stepwise command, those that run mappings using ``policies``.
    public static var stepwiseCommands: [any ParsableCommand.Type] {
        [
            DemoCommand.self, InspectCommand.self, CreateCommand.self, SchemaCommand.self, DiffCommand.self,
            MigrateStepCommand<Self>.self, PlanCommand<Self>.self, UpgradeCommand<Self>.self, RollbackCommand.self,
            DiscardCommand.self,
            MatrixCommand<Self>.self, CheckCommand<Self>.self, ShipCommand.self, ConvertCommand.self,
        ]
    }

    /// The executable's file name (`stepwise`, `notes-upgrade`), as usage lines print it.
    static var toolName: String { ToolName.current }

    /// Runs the tool: `--version` alone prints ``StepwiseVersion/current``; anything else is
    /// parsed as ArgumentParser's `main()` parses it (help, usage errors and `validate()`'s
    /// errors are printed and exited as it does), then run. Whatever the command throws goes
    /// through the one route from an error to its output and exit status,
    /// ``exit(for:json:)``, which reads from the parsed command whether it was asked for JSON
    /// (``JSONReportingCommand``).
    ///
    /// The version is answered here rather than through `CommandConfiguration.version`, which
    /// would list a "--version  Show the version." flag in the help of every command, beside
    /// the model-version option `--version <name>` of `create`, `schema` and `ship`.
    ///
    /// Before anything opens a database, SQLite's memory statistics are turned off for the
    /// process: nothing reads them, and counting every allocation under one global mutex
    /// made the matrix's concurrent lanes wait on each other.
    public static func main() {
        _ = stepwise_sqlite_disable_memory_statistics()
        if Array(CommandLine.arguments.dropFirst()) == ["--version"] {
            print(StepwiseVersion.current)
            return
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(nil)
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            exit(for: error, json: (command as? any JSONReportingCommand)?.reportsJSON ?? false)
        }
    }
}

/// The version `--version` prints.
public enum StepwiseVersion {
    public static let current = "0.1.0"
}

// A tool's `@main` file imports only StepwiseCommandLine: `PolicyRegistry`,
// `EntityMigrationPolicy` and the rest of Stepwise come with it.
@_exported import Stepwise

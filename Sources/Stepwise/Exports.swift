// `import Stepwise` is all an app needs for `upgradeIfNeeded`: the model, store and mapping
// types its API takes and returns (ObjectModel, VersionHistory, PolicyRegistry,
// EntityMigrationPolicy, MappingModel, StoreError…) come with it.
@_exported import StepwiseMapping
@_exported import StepwiseModel
@_exported import StepwiseStore

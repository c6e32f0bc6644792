import Foundation
import Stepwise
import StepwiseMapping

/// What a command run with `--json` prints on standard output when it fails:
/// `{"error": {...}}`, so that a script reads the failing step, mapping, entity, property and
/// row without parsing the message. The message still goes to standard error as
/// `Error: <message>` (and `Hint: <hint>`), and the exit status is still 1
/// (``CommandFailureReporter``). `kind` and `path` are the error's
/// ``ReportableError/caseName`` and ``ReportableError/subjectPath``.
///
/// Keys without a value are left out:
///
/// ```json
/// {"error": {"message": "…", "type": "UpgradeError", "kind": "stepFailed", "path": "App.sqlite",
///            "step": {"index": 2, "count": 3, "from": "Recipes 2", "to": "Recipes 3"},
///            "mapping": {"mappingModel": "Recipes 2 → Recipes 3", "entityMapping": "IngredientToIngredient",
///                        "entity": "Ingredient", "property": "name", "sourceRow": 3}}}
/// ```
struct JSONFailure: Encodable {
    /// The step of an upgrade that failed, 1-based.
    struct Step: Encodable {
        var index: Int
        var count: Int
        var from: String
        var to: String
    }

    /// Where in a mapping a step failed (``MappingError``'s fields).
    struct Mapping: Encodable {
        var file: String?
        var mappingModel: String?
        var entityMapping: String?
        var entity: String?
        var property: String?
        /// The source row's primary key (`Z_PK`).
        var sourceRow: Int64?
    }

    /// The error's full message, as printed on standard error.
    var message: String
    /// What to try next with this tool's flags, as printed on standard error after `Hint:`.
    var hint: String?
    /// The error's type: `UpgradeError`, `MappingError`, `StoreError`, `UpgradeError`, …
    var type: String
    /// The error's case (``ReportableError/caseName``), such as `stepFailed` or `unknownVersion`.
    var kind: String?
    /// The file the error is about (``ReportableError/subjectPath``): a store, a model, a mapping file.
    var path: String?
    var step: Step?
    var mapping: Mapping?
    /// What a step would drop, when strict mode refused it (`kind` `dropsData`).
    var drops: [DroppedData]?
    /// The processes that kept the store open, when it was in use (`kind` `storeInUse`).
    var processIDs: [Int32]?

    init(_ error: any Error, hint: String? = nil) {
        message = ErrorText.describe(error)
        self.hint = hint
        type = String(describing: Swift.type(of: error))
        if let reportable = error as? any ReportableError {
            kind = reportable.caseName
            path = reportable.subjectPath
        }
        var mappingError = error as? MappingError
        if let upgradeError = error as? UpgradeError {
            if case .stepFailed(let index, let count, let from, let to, _) = upgradeError.kind {
                step = Step(index: index, count: count, from: from, to: to)
            }
            if case .storeInUse(let pids, _, _) = upgradeError.kind {
                processIDs = pids
            }
            if case .dropsData(let index, let count, let from, let to, let drops) = upgradeError.kind {
                step = Step(index: index, count: count, from: from, to: to)
                self.drops = drops
            }
            mappingError = upgradeError.mappingError
        }
        if let mappingError {
            mapping = Mapping(
                file: mappingError.file, mappingModel: mappingError.mappingModel,
                entityMapping: mappingError.entityMapping, entity: mappingError.entity,
                property: mappingError.property, sourceRow: mappingError.sourcePrimaryKey)
        }
    }
}

import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// Mapping files that are wrong. What a file says is checked when an upgrade will run (the
/// first `upgradeIfNeeded` or `needsUpgrade` that finds work reads the mapping folder, before
/// the lock); what only a run can find (a policy, a function, a row) fails its step, naming
/// the step, the entity mapping and the source row.
extension BadInputCatalogue {
    /// The sample mapping file most cases break: Recipes → Recipes 2.
    static let recipes1to2 = "Recipes to Recipes 2.json"

    /// A case that edits the Recipes 1 → 2 mapping file, then calls `act`.
    static func brokenMapping(
        _ name: String, replacing text: String, with replacement: String,
        act: @escaping @Sendable (BadInputWorkspace) throws -> (any Sendable)? = { try $0.upgradeStore() },
        expect expected: BadInputExpectation, leaves: Leftovers = .nothing,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> BadInputCase {
        BadInputCase(
            .mapping, name,
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try workspace.edit(workspace.mappingFile(recipes1to2), replacing: text, with: replacement)
            },
            act: act, expect: expected, leaves: leaves, sourceLocation: sourceLocation)
    }

    /// A ``MappingError`` from the Recipes 1 → 2 file of the workspace.
    static func fileError(
        _ kind: MappingError.Kind, entityMapping: String? = nil, entity: String? = nil, property: String? = nil
    ) -> BadInputExpectation {
        .error { workspace in
            MappingError(
                kind, file: workspace.mappingFile(recipes1to2).path, entityMapping: entityMapping, entity: entity,
                property: property)
        }
    }

    /// Step 1 of 3 (Recipes → Recipes 2) failed with `underlying`, from the mapping model
    /// "Recipes → Recipes 2".
    static func firstStepFailed(
        _ kind: MappingError.Kind, entityMapping: String, entity: String? = nil, property: String? = nil,
        sourcePrimaryKey: Int64? = nil
    ) -> BadInputExpectation {
        .upgradeError(storePath: "Store.sqlite", site: nil) { _ in
            .stepFailed(
                index: 1, count: 3, from: "Recipes", to: "Recipes 2",
                underlying: MappingError(
                    kind, mappingModel: "Recipes → Recipes 2", entityMapping: entityMapping, entity: entity,
                    property: property, sourcePrimaryKey: sourcePrimaryKey))
        }
    }

    static let mappings: [BadInputCase] = [
        brokenMapping(
            "an entity mapping whose source entity is missing",
            replacing: #""source": "Chef","#, with: #""source": "Cheff","#,
            expect: fileError(.unknownEntity("Cheff", version: "Recipes"), entityMapping: "ChefToChef", entity: "Chef")),
        brokenMapping(
            "an entity mapping whose destination entity is missing",
            replacing: #""destination": "Chef","#, with: #""destination": "Cook","#,
            expect: fileError(
                .unknownEntity("Cook", version: "Recipes 2"), entityMapping: "ChefToChef", entity: "Cook")),
        brokenMapping(
            "an expression reading a missing source property",
            replacing: #"\"firstNameOf:\", $source.name"#, with: #"\"firstNameOf:\", $source.fullName"#,
            expect: fileError(
                .unknownProperty(entity: "Chef", property: "fullName", version: "Recipes"), entityMapping: "ChefToChef",
                entity: "Chef", property: "firstName")),
        brokenMapping(
            "a mapping for a missing destination property",
            replacing: #""firstName":"#, with: #""givenName":"#,
            expect: fileError(
                .unknownProperty(entity: "Chef", property: "givenName", version: "Recipes 2"),
                entityMapping: "ChefToChef", entity: "Chef")),
        brokenMapping(
            "an expression syntax error (a missing comma)",
            replacing: #"\"firstNameOf:\", $source.name"#, with: #"\"firstNameOf:\" $source.name"#,
            expect: fileError(
                .syntax(
                    message: "expected ')' to close FUNCTION( opened at line 1, column 1, found '$source'", line: 1,
                    column: 40), entityMapping: "ChefToChef", entity: "Chef",
                property: "firstName")),
        brokenMapping(
            "a predicate syntax error on its second line",
            replacing: #""name": "IngredientToIngredient","#,
            with: #""name": "IngredientToIngredient", "filter": "name != nil AND\n  amount ==[c]","#,
            expect: fileError(
                .syntax(message: "expected an expression, found end of input", line: 2, column: 15),
                entityMapping: "IngredientToIngredient",
                entity: "Ingredient", property: "filter")),
        BadInputCase(
            .mapping, "a predicate using ANY, which Stepwise doesn't support",
            arrange: { _ in },
            act: { _ in try ExpressionParser.parsePredicate(#"ANY recipes.name ==[c] "mole""#) },
            expect: .error { _ in
                MappingError(
                    .syntax(
                        message:
                            "ANY is not supported: Stepwise predicates compare single values; use a FUNCTION of the entity policy for to-many conditions",
                        line: 1, column: 1))
            }
        ),
        BadInputCase(
            .mapping, "an expression using arithmetic, on its third line",
            arrange: { _ in },
            act: { _ in
                try ExpressionParser.parseExpression("FUNCTION($entityPolicy,\n  \"yearsOf:\",\n  $source.age + 1)")
            },
            expect: .error { _ in
                MappingError(
                    .syntax(
                        message:
                            "unexpected '+': arithmetic is not supported; compute the value in a FUNCTION of the entity policy",
                        line: 3, column: 15))
            }
        ),
        brokenMapping(
            "an entity mapping kind the format doesn't know",
            replacing: #""name": "ChefToChef","#, with: #""name": "ChefToChef", "kind": "rename","#,
            act: { try MappingDirectory(contentsOf: $0.path("Recipes.mappings"), history: RecipesHistory.history) },
            expect: .invalidMappingFile(
                at: "Recipes.mappings/\(recipes1to2)", reasonContains: "at .entityMappings[0].kind")),
        brokenMapping(
            "an attribute mapped to a number instead of an expression",
            replacing: #""lastName": "FUNCTION($entityPolicy, \"lastNameOf:\", $source.name)""#,
            with: #""lastName": 42"#,
            act: { workspace in
                try MappingFile.load(
                    workspace.mappingFile(recipes1to2), source: RecipesHistory.v1, destination: RecipesHistory.v2)
            },
            expect: .invalidMappingFile(
                at: "Recipes.mappings/\(recipes1to2)", reasonContains: "at .entityMappings[0].attributes.lastName")),
        BadInputCase(
            .mapping, "a mapping file that isn't JSON",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try Data("source: Recipes\ndestination: Recipes 2\n".utf8).write(to: workspace.mappingFile(recipes1to2))
            },
            act: { try $0.upgradeStore() },
            expect: .invalidMappingFile(at: "Recipes.mappings/\(recipes1to2)", reasonContains: "not valid JSON")
        ),
        brokenMapping(
            "a mapping file for a version the bundle doesn't have",
            replacing: #""destination": "Recipes 2","#, with: #""destination": "Recipes 5","#,
            expect: fileError(.invalidFile("no model version named 'Recipes 5'"))),
        brokenMapping(
            "a policy that isn't registered",
            replacing: #""policy": "ChefNamePolicy","#, with: #""policy": "ChefNamingPolicy","#,
            act: { try $0.upgradeStore() },
            expect: .unregisteredPolicy(
                name: "ChefNamingPolicy", mappingModel: "Recipes → Recipes 2", entityMapping: "ChefToChef"),
            // Found when planning, before any step runs: no work folder is left.
            leaves: .lockFile),
        brokenMapping(
            "a FUNCTION selector no policy implements",
            replacing: #"\"firstNameOf:\""#, with: #"\"middleNameOf:\""#,
            act: { try $0.upgradeStore() },
            expect: firstStepFailed(
                .unknownFunction("middleNameOf:"), entityMapping: "ChefToChef", entity: "Chef", property: "firstName",
                sourcePrimaryKey: 1),
            leaves: .lockFileAndFailedRun),
        brokenMapping(
            "a relationship mapping naming a missing entity mapping",
            replacing: #"\"ChefToChef\", $source.chef"#, with: #"\"ChefToCook\", $source.chef"#,
            act: { try $0.upgradeStore() },
            expect: firstStepFailed(
                .unknownEntityMapping("ChefToCook"), entityMapping: "RecipeToRecipe", entity: "Recipe",
                property: "chef",
                sourcePrimaryKey: 1),
            leaves: .lockFileAndFailedRun),
        BadInputCase(
            .mapping, "a policy that throws at source row 3",
            arrange: { try $0.writeRecipesStore() },
            act: { workspace in
                var policies = SamplePolicies.registry
                policies.register("ChefNamePolicy") { FailingChefNamePolicy() }
                return try workspace.upgradeStore(policies: policies)
            },
            expect: firstStepFailed(
                .policyFailed("this chef's name has no last name"), entityMapping: "ChefToChef", entity: "Chef",
                sourcePrimaryKey: 3),
            leaves: .lockFileAndFailedRun
        ),
        brokenMapping(
            "a required attribute mapped to nil (pass 3 validation)",
            replacing: #""name": "IngredientToIngredient","#,
            with: #""name": "IngredientToIngredient", "attributes": { "name": "nil" },"#,
            act: { try $0.upgradeStore() },
            expect: firstStepFailed(
                .validation("the required attribute has no value (destination Z_PK 1)"),
                entityMapping: "IngredientToIngredient", entity: "Ingredient", property: "name",
                sourcePrimaryKey: 1),
            leaves: .lockFileAndFailedRun),
    ]
}

/// The sample's chef-name policy, failing on source row 3 as an app's policy might on data
/// it didn't expect.
final class FailingChefNamePolicy: EntityMigrationPolicy, @unchecked Sendable {
    // @unchecked: no mutable state; the base class is not marked Sendable.

    /// What the app's policy throws: its own error type, not a `MappingError`.
    struct UnexpectedName: Error, CustomStringConvertible {
        var description: String { "this chef's name has no last name" }
    }

    static let failingRow: Int64 = 3
    private let names = ChefNamePolicy()

    required init() {}

    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        if source.id.primaryKey == Self.failingRow { throw UnexpectedName() }
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }

    override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        try names.function(named: selector, arguments: arguments, manager: manager)
    }
}

import Foundation
import StepwiseModel
import Testing

@testable import Stepwise

/// Model bundles that can't be read or ordered: each read is refused with the file, the
/// element and the fix, before any store is looked at.
extension BadInputCatalogue {
    static let models: [BadInputCase] = [
        BadInputCase(
            .model, "malformed XML in a version's contents",
            arrange: { workspace in
                try workspace.writeSamples()
                let contents = workspace.contents(of: "Recipes 2")
                let text = try Data(contentsOf: contents)
                try text.prefix(text.count / 2).write(to: contents)
            },
            act: { try ModelBundle(contentsOf: $0.bundle) },
            expect: .malformedModel(
                at: "Recipes.xcdatamodeld/Recipes 2.xcdatamodel/contents",
                reasonPrefix: "not well-formed XML (XML parser error")
        ),
        BadInputCase(
            .model, "an unknown attribute type",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try workspace.edit(
                    workspace.contents(of: "Recipes 2"),
                    replacing: #"name="directions" optional="YES" attributeType="String""#,
                    with: #"name="directions" optional="YES" attributeType="Text""#)
            },
            // An old version is read when an upgrade will run, not when the upgrader is made:
            // the store at Recipes needs one, and is refused before the lock is taken.
            act: { try $0.upgradeStore() },
            expect: .error { workspace in
                ModelError(
                    path: workspace.contents(of: "Recipes 2").path,
                    kind: .invalidValue(
                        element: "attribute 'Recipe.directions'", attribute: "attributeType", value: "Text"))
            }
        ),
        BadInputCase(
            .model, "a relationship without a destination entity",
            arrange: { workspace in
                try workspace.writeSamples()
                try workspace.edit(
                    workspace.contents(of: "Recipes 2"),
                    replacing: #"deletionRule="Nullify" destinationEntity="Chef" "#,
                    with: #"deletionRule="Nullify" "#)
            },
            act: { try ModelBundle(contentsOf: $0.bundle) },
            expect: .error { workspace in
                ModelError(
                    path: workspace.contents(of: "Recipes 2").path,
                    kind: .invalidValue(
                        element: "relationship 'Recipe.chef'", attribute: "destinationEntity", value: nil))
            }
        ),
        BadInputCase(
            .model, "an entity without a name",
            arrange: { workspace in
                try workspace.writeSamples()
                try workspace.edit(
                    workspace.contents(of: "Recipes 2"), replacing: #"<entity name="Cuisine" "#, with: #"<entity "#)
            },
            act: { try ModelBundle(contentsOf: $0.bundle) },
            expect: .error { workspace in
                ModelError(
                    path: workspace.contents(of: "Recipes 2").path,
                    kind: .invalidValue(element: "<entity>", attribute: "name", value: nil))
            }
        ),
        BadInputCase(
            .model, "a relationship to a missing entity",
            arrange: { workspace in
                try workspace.writeSamples()
                try workspace.edit(
                    workspace.contents(of: "Recipes 2"),
                    replacing: #"destinationEntity="Cuisine" inverseName="recipes" inverseEntity="Cuisine""#,
                    with: #"destinationEntity="Cuisines" inverseName="recipes" inverseEntity="Cuisines""#)
            },
            act: { try ModelBundle(contentsOf: $0.bundle) },
            expect: .error { workspace in
                ModelError(
                    version: "Recipes 2", file: workspace.contents(of: "Recipes 2").path,
                    problems: [
                        .inverseMismatch(
                            entity: "Cuisine", relationship: "recipes", inverseEntity: "Recipe", inverse: "cuisine"),
                        .unknownDestination(entity: "Recipe", relationship: "cuisine", destination: "Cuisines"),
                    ])
            }
        ),
        BadInputCase(
            .model, "an inheritance cycle",
            arrange: { workspace in
                let cycle = ObjectModel("Cycle") {
                    Entity("Animal", parent: "Pet") { Attribute("name", .string) }
                    Entity("Pet", parent: "Animal") { Attribute("owner", .string) }
                }
                // The writer refuses an invalid model; the reader's refusal is what is tested.
                try XcodeModelWriter.writeBundle(
                    [cycle], current: "Cycle", to: workspace.path("Cycle.xcdatamodeld"), validating: false)
            },
            act: { try ModelBundle(contentsOf: $0.path("Cycle.xcdatamodeld")) },
            expect: .error { workspace in
                ModelError(
                    version: "Cycle", file: workspace.path("Cycle.xcdatamodeld/Cycle.xcdatamodel/contents").path,
                    problems: [.inheritanceCycle(["Animal", "Pet", "Animal"])])
            }
        ),
        BadInputCase(
            .model, "a bundle with no versions",
            arrange: { workspace in
                try FileManager.default.createDirectory(
                    at: workspace.path("Empty.xcdatamodeld"), withIntermediateDirectories: false)
            },
            act: { try ModelBundle(contentsOf: $0.path("Empty.xcdatamodeld")) },
            expect: .error { ModelError(path: $0.path("Empty.xcdatamodeld").path, kind: .emptyBundle) }
        ),
        BadInputCase(
            .model, "a version in the pre-Xcode 4 binary format",
            arrange: { workspace in
                try workspace.writeSamples()
                let version = workspace.bundle.appendingPathComponent("Recipes 3.xcdatamodel")
                try FileManager.default.removeItem(at: version.appendingPathComponent("contents"))
                try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]).write(to: version.appendingPathComponent("elements"))
            },
            act: { try ModelBundle(contentsOf: $0.bundle) },
            expect: .error { workspace in
                ModelError(
                    path: workspace.bundle.appendingPathComponent("Recipes 3.xcdatamodel").path,
                    kind: .legacyBinaryFormat)
            }
        ),
        BadInputCase(
            .model, "versions whose names have three stems, without a history file",
            arrange: { workspace in
                try XcodeModelWriter.writeBundle(
                    [
                        ObjectModel("Foo 2", entities: []), ObjectModel("Bar 3", entities: []),
                        ObjectModel("Baz 4", entities: []),
                    ],
                    current: "Bar 3", to: workspace.path("Mixed.xcdatamodeld"))
            },
            // Making the upgrader reads and orders every version, even with a current one declared.
            // Two stems are ordered by the bundle's name and the current version; three can't be.
            act: { _ = try $0.upgrader(bundle: $0.path("Mixed.xcdatamodeld")) },
            expect: .error { _ in
                ModelError.ambiguousOrder(
                    ["Bar 3", "Baz 4", "Foo 2"], reason: "the names don't share a common stem ('Bar', 'Baz', 'Foo')")
            }
        ),
        BadInputCase(
            .model, "two versions with the same number ('Model 2' and 'Model 02')",
            arrange: { workspace in
                let versions = ["Model", "Model 2", "Model 02"].map { ObjectModel($0, entities: []) }
                try XcodeModelWriter.writeBundle(versions, current: "Model 2", to: workspace.path("Model.xcdatamodeld"))
            },
            act: { try ModelBundle(contentsOf: $0.path("Model.xcdatamodeld")) },
            expect: .error { _ in
                ModelError.ambiguousOrder(
                    ["Model 02", "Model 2"], reason: "'Model 02' and 'Model 2' name the same version number")
            }
        ),
        BadInputCase(
            .model, "a history file naming a version the bundle doesn't have",
            arrange: { workspace in
                try workspace.writeSamples()
                try workspace.edit(
                    workspace.path("Recipes.history"), replacing: "Recipes 4\n", with: "Recipes 4\nRecipes 5\n")
            },
            act: { try ModelBundle(contentsOf: $0.bundle) },
            expect: .error { workspace in
                ModelError.historyFileMismatch(
                    file: workspace.path("Recipes.history").path, unknown: ["Recipes 5"], missing: [])
            }
        ),
        BadInputCase(
            .model, "a current version the bundle doesn't have",
            arrange: { workspace in
                try workspace.writeSamples()
                try workspace.edit(
                    workspace.bundle.appendingPathComponent(".xccurrentversion"), replacing: "Recipes 4.xcdatamodel",
                    with: "Recipes 9.xcdatamodel")
            },
            act: { try ModelBundle(contentsOf: $0.bundle) },
            expect: .error { ModelError(path: $0.bundle.path, kind: .unknownCurrentVersion("Recipes 9")) }
        ),
    ]
}

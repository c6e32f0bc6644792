import Foundation
import StepwiseModel
import StepwiseStore
import Testing

@testable import Stepwise

/// Model bundles that can't be read or ordered: each read is refused with the file, the
/// element and the fix, before any store is looked at. An order that can't be told is refused
/// by what needs it, a plan between two versions, naming the versions that could go either way.
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
            .model, "an upgrade across versions whose order nothing in the bundle tells",
            arrange: { try $0.writeMixedStemsStore() },
            // The upgrader is made (identifying a store needs no order); the plan from 'Foo 2' to
            // 'Bar 3' does, and is refused before the run writes anything but its lock file.
            // 'Bar 3' is current, so last: only 'Foo 2' and 'Baz 4' could go either way.
            act: {
                try $0.upgrader(bundle: $0.path("Mixed.xcdatamodeld")).upgradeIfNeededSynchronously(storeAt: $0.store)
            },
            expect: .error { Self.mixedStemsAmbiguity(in: $0) },
            leaves: .lockFile
        ),
        BadInputCase(
            .model, "a plan across versions whose order nothing in the bundle tells",
            arrange: { try $0.writeMixedStemsStore() },
            act: { try $0.upgrader(bundle: $0.path("Mixed.xcdatamodeld")).plan(forStoreAt: $0.store) },
            expect: .error { Self.mixedStemsAmbiguity(in: $0) }
        ),
        BadInputCase(
            .model, "two versions with the same number ('Model 2' and 'Model 02')",
            arrange: { workspace in
                let versions = ["Model", "Model 2", "Model 02"].map {
                    ObjectModel(
                        $0,
                        entities: [Entity("Item", attributes: [Attribute("field" + $0.filter(\.isNumber), .string)])])
                }
                try XcodeModelWriter.writeBundle(versions, current: "Model 2", to: workspace.path("Model.xcdatamodeld"))
                try StoreCreator.createStore(at: workspace.store, model: versions[0])
            },
            act: { try $0.upgrader(bundle: $0.path("Model.xcdatamodeld")).plan(forStoreAt: $0.store) },
            expect: .error { workspace in
                ModelError(
                    path: workspace.path("Model.xcdatamodeld").path,
                    kind: .ambiguousOrder(
                        ["Model 02", "Model 2"], reason: "'Model 02' and 'Model 2' name the same version number"))
            }
        ),
        BadInputCase(
            .model, "a history file naming a version the bundle doesn't have",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try workspace.edit(
                    workspace.path("Recipes.history"), replacing: "Recipes 4\n", with: "Recipes 4\nRecipes 5\n")
            },
            // The order is what is wrong, so the plan, the first thing that needs it, is refused.
            act: { try $0.upgrader().plan(forStoreAt: $0.store) },
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
        BadInputCase(
            .model, "a composite element with no type",
            arrange: { workspace in
                try workspace.writeLibraryBundle()
                try workspace.edit(
                    workspace.libraryContents, replacing: #"name="person" optional="YES" attributeType="String""#,
                    with: #"name="person" optional="YES""#)
            },
            act: { try ModelBundle(contentsOf: $0.path("Library.xcdatamodeld")) },
            expect: .error { workspace in
                ModelError(
                    version: "Library 2", file: workspace.libraryContents.path,
                    problems: [
                        .invalidCompositeElement(
                            entity: "Book", attribute: "author.person",
                            reason: "a composite can't hold an element of type Undefined")
                    ])
            }
        ),
        BadInputCase(
            .model, "a composite attribute naming a missing definition",
            arrange: { workspace in
                try workspace.writeLibraryBundle()
                try workspace.edit(
                    workspace.libraryContents, replacing: #"composite="Author""#, with: #"composite="Writer""#)
            },
            act: { try ModelBundle(contentsOf: $0.path("Library.xcdatamodeld")) },
            expect: .error { workspace in
                ModelError(
                    path: workspace.libraryContents.path,
                    kind: .invalidValue(element: "attribute 'Book.author'", attribute: "composite", value: "Writer"))
            }
        ),
    ]

    /// The refusal of a plan from 'Foo 2' in `Mixed.xcdatamodeld` (``BadInputWorkspace/writeMixedStemsStore()``).
    static func mixedStemsAmbiguity(in workspace: BadInputWorkspace) -> ModelError {
        ModelError(
            path: workspace.path("Mixed.xcdatamodeld").path,
            kind: .ambiguousOrder(
                ["Baz 4", "Foo 2"],
                reason:
                    "the names have 3 stems ('Bar', 'Baz', 'Foo'), and nothing in the bundle tells which comes first: 'Baz 4' or 'Foo 2'"
            ))
    }
}

extension BadInputWorkspace {
    /// `Library.xcdatamodeld`: `Library`, then `Library 2`, whose `Book.author` is a composite
    /// of the model-level definition `Author { person, year }`.
    func writeLibraryBundle() throws {
        let first = ObjectModel("Library") { Entity("Book") { Attribute("title", .string) } }
        let second = ObjectModel("Library 2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute.composite(
                    "author", elements: [Attribute("person", .string), Attribute("year", .integer64)],
                    compositeName: "Author")
            }
        }
        try XcodeModelWriter.writeBundle([first, second], current: "Library 2", to: path("Library.xcdatamodeld"))
    }

    /// `Library 2`'s `contents` in ``writeLibraryBundle()``.
    var libraryContents: URL { path("Library.xcdatamodeld/Library 2.xcdatamodel/contents") }
}

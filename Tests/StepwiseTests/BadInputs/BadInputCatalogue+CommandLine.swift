import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// Bad inputs through the `stepwise` executable: the exit status of their kind
/// (`CommandExitStatus`), and standard error names the file at fault and says what to do next.
extension BadInputCatalogue {
    static let commandLine: [BadInputCase] = [
        BadInputCase(
            .commandLine, "stepwise upgrade of a file of random bytes",
            arrange: { workspace in
                try workspace.writeSamples()
                try randomBytes(count: 8192).write(to: workspace.store)
            },
            act: { try $0.runCommand(["upgrade", $0.store.path, "--models", $0.bundle.path]) },
            expect: .commandFails(status: 66) { workspace in
                [
                    "\(workspace.store.path) is not an SQLite database",
                    "Check that you passed the store file, not its -wal or -shm.",
                ]
            }
        ),
        BadInputCase(
            .commandLine, "stepwise inspect of a store cut off after its first page",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try Data(contentsOf: workspace.store).prefix(4096).write(to: workspace.store)
            },
            act: { try $0.runCommand(["inspect", $0.store.path, "--models", $0.bundle.path]) },
            expect: .commandFails(status: 66) { workspace in
                ["\(workspace.store.path) is truncated", "Restore it from a backup"]
            }
        ),
        BadInputCase(
            .commandLine, "stepwise upgrade of a store with garbage pages behind a valid header",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try workspace.overwritePagesAfterTheFirst()
            },
            act: { try $0.runCommand(["upgrade", $0.store.path, "--models", $0.bundle.path]) },
            expect: .commandFails(status: 66) { workspace in
                [
                    "\(workspace.store.path): SQLite error 11: database disk image is malformed",
                    "The store is damaged; restore it from a backup.",
                ]
            },
            leaves: .lockFile
        ),
        BadInputCase(
            .commandLine, "stepwise upgrade across versions whose order nothing in the bundle tells",
            arrange: { try $0.writeMixedStemsStore() },
            act: { try $0.runCommand(["upgrade", $0.store.path, "--models", $0.path("Mixed.xcdatamodeld").path]) },
            expect: .commandFails(status: 65) { workspace in
                [
                    "can't order the model versions 'Baz 4', 'Foo 2' (\(workspace.path("Mixed.xcdatamodeld").path))",
                    "nothing in the bundle tells which comes first: 'Baz 4' or 'Foo 2'",
                    "List them oldest first, one per line, in Mixed.history beside the bundle",
                ]
            },
            leaves: .lockFile
        ),
        BadInputCase(
            .commandLine, "stepwise upgrade of a missing store",
            arrange: { try $0.writeSamples() },
            act: { try $0.runCommand(["upgrade", $0.store.path, "--models", $0.bundle.path]) },
            expect: .commandFails(status: 66) { workspace in
                ["no store at \(workspace.store.path)", "create one with `stepwise create`"]
            }
        ),
        BadInputCase(
            .commandLine, "stepwise upgrade with a mapping file that isn't JSON",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try Data("source: Recipes\n".utf8).write(to: workspace.mappingFile(recipes1to2))
            },
            act: { try $0.runCommand(["upgrade", $0.store.path, "--models", $0.bundle.path]) },
            expect: .commandFails(status: 65) { workspace in
                ["\(workspace.mappingFile(recipes1to2).path): invalid mapping file: not valid JSON"]
            }
        ),
        BadInputCase(
            .commandLine, "stepwise upgrade with a malformed model",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                let contents = workspace.contents(of: "Recipes 3")
                try Data(contentsOf: contents).prefix(200).write(to: contents)
            },
            act: { try $0.runCommand(["upgrade", $0.store.path, "--models", $0.bundle.path]) },
            expect: .commandFails(status: 65) { workspace in
                [
                    "\(workspace.contents(of: "Recipes 3").path) is not a readable Core Data model",
                    "Restore the file from version control, or open the model in Xcode",
                ]
            }
        ),
        BadInputCase(
            .commandLine, "stepwise upgrade of a store newer than the bundle",
            arrange: { workspace in
                try workspace.writeSamples()
                try workspace.writeRecipesBundle(upTo: "Recipes 3")
                try StoreCreator.createStore(at: workspace.store, model: RecipesHistory.v4)
            },
            act: { try $0.runCommand(["upgrade", $0.store.path, "--models", $0.bundle.path]) },
            expect: .commandFails(status: 3) { workspace in
                [
                    "\(workspace.store.path) was written by a model version ('Recipes 4') newer than the latest known, 'Recipes 3'",
                    "Run the newer app build, or add that version to the model bundle.",
                ]
            },
            leaves: .lockFile
        ),
        BadInputCase(
            .commandLine, "stepwise upgrade of the inconsistent corpus store 2C", requires: .corpus,
            arrange: { try $0.copyCorpusStore(CorpusStore.corrupt) },
            act: { workspace in
                try workspace.runCommand([
                    "upgrade", workspace.path("ATDataModel.sqlite").path,
                    "--models", workspace.path("ATDataModel.xcdatamodeld").path,
                    "--mappings", workspace.path("ATDataModel.mappings").path,
                ])
            },
            expect: .commandFails(status: 66) { workspace in
                [
                    "\(workspace.path("ATDataModel.sqlite").path) is inconsistent",
                    "restore it from a backup or rebuild it",
                ]
            },
            leaves: .lockFile(store: "ATDataModel.sqlite")
        ),
    ]
}

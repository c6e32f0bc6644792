// swift-tools-version: 6.0
//
// Stepwise upgrades Core Data-layout SQLite stores across model versions.
// Modules depend one way: Model ← Store ← Mapping ← Stepwise ← Matrix ← CommandLine ← stepwise,
// with Demo (the Recipes sample) and CSQLiteSettings (a C shim for `sqlite3_config`) under
// CommandLine; Testing (the Matrix, for app teams' tests) and
// TestSupport (this repository's corpus, samples and CLI runners; not a product) are for tests
// only: the stepwise executable never links them.

import PackageDescription

#if os(Linux)
    let czlib = Target.systemLibrary(
        name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])])
#else
    let czlib = Target.systemLibrary(name: "CZlib", path: "Sources/CZlib")
#endif

let package = Package(
    name: "Stepwise",
    // GRDB 7 needs iOS 13, tvOS 13, watchOS 7; Stepwise's own floor is where `Duration`,
    // `Regex` and `ContinuousClock` are (macOS 13 and its siblings).
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        // Three products, one per audience: the app, its tests, its own tool. The modules
        // underneath (Model, Store, Mapping, Matrix) reach apps only through these; what they
        // share with the CLI, the bench and the tests alone is `package`.
        .library(name: "Stepwise", targets: ["Stepwise"]),
        .library(name: "StepwiseTesting", targets: ["StepwiseTesting"]),
        .library(name: "StepwiseCommandLine", targets: ["StepwiseCommandLine"]),
        .executable(name: "stepwise", targets: ["stepwise"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The object model: entities, properties, the .xcdatamodeld reader and writer,
        // the Swift builder, version histories and Core Data's entity version hashes, and the
        // binary property list and keyed archive readers that compiled models need.
        .target(
            name: "StepwiseModel",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // The system's zlib (in every Apple SDK and Linux distribution; no package added): it
        // inflates Core Data's Z_MODELCACHE, raw deflate, which Foundation on Linux can't.
        // The module map links `z`. pkg-config only where a distribution's zlib may live off the
        // default paths: on Apple platforms the SDK has it, and a host's pkg-config (Homebrew's
        // zlib) would add macOS paths to an iOS build.
        czlib,
        // Extended attributes, one C signature on Linux and Darwin (Glibc doesn't import
        // <sys/xattr.h>): an upgrade gives the new store the original's (FileAttributes).
        .systemLibrary(name: "CXattr", path: "Sources/CXattr"),
        // Core Data's on-disk SQLite layout: DDL, metadata, object access.
        .target(
            name: "StepwiseStore",
            dependencies: [
                "StepwiseModel", "CZlib", "CXattr",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The raw C API, for what GRDB doesn't express: opening a file `immutable=1`
                // so a read creates no -wal/-shm beside it, checking an attachment is
                // read-only, and binding a per-row statement's values in place.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Apple's privacy manifest: file sizes and timestamps (stat), free disk space.
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // Mapping models (explicit and inferred), expressions and predicates, entity
        // migration policies, and one three-pass migration step.
        .target(
            name: "StepwiseMapping",
            dependencies: [
                "StepwiseModel", "StepwiseStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Orchestration: the version registry, the planner and the step runner behind
        // upgradeIfNeeded (temp dirs, journal, swap, rollback, lock, progress).
        .target(
            name: "Stepwise",
            dependencies: [
                "StepwiseModel", "StepwiseStore", "StepwiseMapping",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SHA-256 checksums of each step's output, recorded in the journal.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Apple's privacy manifest: file timestamps (a store's fingerprint in the journal).
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // UpgradeMatrix (every upgrade path on seeded stores), the seeded stores themselves,
        // store consistency checks and temporary directories: for app teams' tests and for
        // `stepwise matrix`.
        .target(
            name: "StepwiseMatrix",
            dependencies: [
                "Stepwise", "StepwiseModel", "StepwiseStore", "StepwiseMapping",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Apple's privacy manifest: file timestamps (a seeded store checked for writes).
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // What SQLite sets only through `sqlite3_config`, which is variadic and which Swift
        // can't call: the CLI and the bench turn off its memory statistics at launch, before
        // any connection, so that threads (the matrix's lanes) don't wait on their mutex.
        .target(name: "CSQLiteSettings", dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")]),
        // What `stepwise demo` upgrades: the Recipes history, its mappings, seed and policies.
        // Not a product.
        .target(
            name: "StepwiseDemo",
            dependencies: [
                "StepwiseModel", "StepwiseStore", "StepwiseMapping",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // What app teams' tests need: it re-exports StepwiseMatrix (the matrix, seeded stores,
        // store checks, temporary directories).
        .target(name: "StepwiseTesting", dependencies: ["StepwiseMatrix"]),
        // This repository's own test fixtures: corpus access (`../shared/corpus`) and its
        // catalogue, the sample histories and policies beside the demo's (re-exported), the CLI
        // runners. Not a product: no app's tests should depend on this repository's layout.
        .target(
            name: "StepwiseTestSupport",
            dependencies: [
                "Stepwise", "StepwiseModel", "StepwiseStore", "StepwiseMapping", "StepwiseMatrix", "StepwiseDemo",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/StepwiseTestSupport"
        ),
        // Stepwise's commands as a library: a team's own tool is a `StepwiseTool` naming its
        // policies (Examples/notes-upgrade). Never depends on StepwiseTesting or StepwiseTestSupport.
        .target(
            name: "StepwiseCommandLine",
            dependencies: [
                "Stepwise", "StepwiseModel", "StepwiseStore", "StepwiseMapping", "StepwiseMatrix", "StepwiseDemo",
                "CSQLiteSettings",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The stock tool: StepwiseCommandLine with the demo's policies.
        .executableTarget(name: "stepwise", dependencies: ["StepwiseCommandLine", "StepwiseDemo"]),
        // Maintainers: `swift run stepwise-samples --write Versions` (Scripts/regenerate-versions.sh).
        .executableTarget(
            name: "stepwise-samples",
            dependencies: [
                "StepwiseTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Scripts/Samples"
        ),
        // A team's own tool in ten lines (CustomToolTests runs it). Not a product.
        .executableTarget(
            name: "notes-upgrade",
            dependencies: ["StepwiseCommandLine", "Stepwise"],
            path: "Examples/notes-upgrade"
        ),
        // Benchmarks: a step's throughput and peak memory on generated stores. Not a product:
        // `swift run stepwise-bench …` from a checkout, or Scripts/memory-check.
        .executableTarget(
            name: "stepwise-bench",
            dependencies: [
                // StepwiseTesting: temporary directories. StepwiseTestSupport: the Recipes history,
                // its sample mapping and policies (Scripts/bench), Core Data's private tables.
                "Stepwise", "StepwiseModel", "StepwiseStore", "StepwiseMapping", "StepwiseTesting",
                "StepwiseTestSupport", "CRecordingVFS", "CSQLiteSettings",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Scripts/Benchmarks"
        ),
        // Scripts/power-loss's recording VFS (issue 26): forwards to the real one and reports
        // every write, truncate, sync and delete SQLite makes. Not a product.
        .target(
            name: "CRecordingVFS", dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")],
            path: "Scripts/PowerLoss/CRecordingVFS"),
        // Fuzz targets (issue 5): `Scripts/fuzz TARGET` builds each with libFuzzer and
        // AddressSanitizer (`-sanitize=fuzzer,address -DFUZZING`, in .build-fuzz). A normal build
        // compiles them without instrumentation into replay tools (`fuzz-model FILE|DIR…` runs
        // each input once), so they are type-checked with the rest. Not products.
        // CLibFuzzer only declares libFuzzer's LLVMFuzzerRunDriver: nothing to link.
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(name: "FuzzDriver", dependencies: ["CLibFuzzer"], path: "Fuzz/Driver"),
        .executableTarget(name: "fuzz-model", dependencies: ["FuzzDriver", "StepwiseModel"], path: "Fuzz/Model"),
        .executableTarget(
            name: "fuzz-mapping", dependencies: ["FuzzDriver", "StepwiseModel", "StepwiseMapping"],
            path: "Fuzz/Mapping"),
        .executableTarget(
            name: "fuzz-expression", dependencies: ["FuzzDriver", "StepwiseMapping"], path: "Fuzz/Expression"),
        .executableTarget(
            name: "fuzz-metadata", dependencies: ["FuzzDriver", "StepwiseStore"], path: "Fuzz/Metadata"),
        .executableTarget(
            name: "fuzz-xcmapping", dependencies: ["FuzzDriver", "StepwiseModel", "StepwiseMapping"],
            path: "Fuzz/XcodeMapping"),
        .executableTarget(
            name: "fuzz-archive", dependencies: ["FuzzDriver", "StepwiseModel", "StepwiseMapping"],
            path: "Fuzz/Archive"),
        .executableTarget(
            name: "fuzz-modelcache", dependencies: ["FuzzDriver", "StepwiseStore"], path: "Fuzz/ModelCache"),
        .testTarget(
            name: "StepwiseModelTests",
            dependencies: [
                "StepwiseModel", "StepwiseTesting", "StepwiseTestSupport",
                // GRDB reads the corpus stores' metadata; Crypto checks the hash formulas.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "StepwiseStoreTests",
            dependencies: [
                "StepwiseStore", "StepwiseTesting", "StepwiseTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "StepwiseMappingTests",
            dependencies: [
                "StepwiseMapping", "StepwiseTesting", "StepwiseTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "StepwiseTests",
            dependencies: [
                "Stepwise", "StepwiseTesting", "StepwiseTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Tests of StepwiseMatrix (through StepwiseTesting, as an app imports it) and of
        // StepwiseTestSupport's sample histories: the matrix, seeded stores, the samples.
        .testTarget(
            name: "StepwiseTestingTests",
            dependencies: [
                "Stepwise", "StepwiseTesting", "StepwiseTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "StepwiseCommandLineTests",
            dependencies: [
                "stepwise", "stepwise-test-tool", "notes-upgrade", "stepwise-store-holder", "StepwiseTesting",
                "StepwiseTestSupport", "StepwiseCommandLine", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // `stepwise` with every sample and corpus policy, for the CLI tests that run them. Not a product.
        .executableTarget(
            name: "stepwise-test-tool",
            dependencies: ["StepwiseCommandLine", "StepwiseTestSupport"],
            path: "Tests/TestTool"
        ),
        // A child process for the shared-store tests: holds a store open, with or without
        // StoreAccess, writing rows. Not a product.
        .executableTarget(
            name: "stepwise-store-holder",
            dependencies: ["Stepwise", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/StoreHolder"
        ),
    ],
    swiftLanguageModes: [.v6]
)

import StepwiseModel
import StepwiseTestSupport
import Testing

@Suite("VersionHistory")
struct VersionHistoryTests {
    /// Every rotation of the list and of its reverse: deterministic "shuffles" that put each
    /// name first and last at least once.
    static func shuffles(of names: [String]) -> [[String]] {
        var result: [[String]] = []
        for list in [names, names.reversed()] {
            for offset in list.indices {
                result.append(Array(list[offset...] + list[..<offset]))
            }
        }
        return result
    }

    @Test(
        "Natural order sorts names oldest first, whatever the input order",
        arguments: [
            ["Model", "Model 2", "Model 10"],
            ["Model", "Model 2", "Model 3", "Model 9", "Model 10", "Model 11", "Model 100"],
            ["v1.1.2", "v1.2.0", "v2.0.0"],
            ["v1.9", "v1.10", "v1.10.1", "v2"],
            ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5", "Moody 6"],
            ["ATDataModel", "ATDataModel 2", "ATDataModel 3", "ATDataModel 4", "ATDataModel 5", "ATDataModel 6"],
            [
                "CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 3",
                "CoreDataMigration_Example 4",
            ],
            ["Recipes-1", "Recipes-2", "Recipes-12"],
            ["Store_v1", "Store_v2", "Store_v10"],
        ])
    func naturalOrderSortsShuffledNames(_ expected: [String]) throws {
        for input in Self.shuffles(of: expected) {
            #expect(try VersionHistory.naturalOrder(input) == expected, "input \(input)")
        }
    }

    @Test("Model sorts before Model 2, which sorts before Model 10")
    func unversionedNameComesFirstAndNumbersCompareAsNumbers() throws {
        #expect(try VersionHistory.naturalOrder(["Model 10", "Model", "Model 2"]) == ["Model", "Model 2", "Model 10"])
        // Plain string order would put "Model 10" before "Model 2".
        #expect(["Model 10", "Model 2"].sorted() == ["Model 10", "Model 2"])
    }

    @Test("Semantic-looking versions compare component by component")
    func semanticVersionsCompareByComponent() throws {
        #expect(try VersionHistory.naturalOrder(["v2.0.0", "v1.2.0", "v1.1.2"]) == ["v1.1.2", "v1.2.0", "v2.0.0"])
    }

    @Test("No names and one name are trivially ordered")
    func emptyAndSingleListsAreOrdered() throws {
        #expect(try VersionHistory.naturalOrder([]) == [])
        #expect(try VersionHistory.naturalOrder(["Only"]) == ["Only"])
    }

    @Test("Names without a common stem are ambiguous")
    func namesWithoutCommonStemAreAmbiguous() {
        let error = #expect(throws: ModelError.self) { try VersionHistory.naturalOrder(["Foo 2", "Bar 3"]) }
        #expect(
            error
                == .ambiguousOrder(
                    ["Bar 3", "Foo 2"], reason: "the names don't share a common stem ('Bar', 'Foo')"))
        #expect(error?.description.contains("List them oldest first") == true)
        #expect(error?.description.contains("<Bundle>.history") == true)
    }

    @Test("Names that compare equal are ambiguous")
    func equalKeysAreAmbiguous() throws {
        let error = try #require(
            #expect(throws: ModelError.self) { try VersionHistory.naturalOrder(["Model 2", "Model 02"]) })
        guard case .ambiguousOrder(let names, let reason) = error.kind else {
            Issue.record("expected ambiguousOrder, got \(error)")
            return
        }
        #expect(Set(names) == ["Model 2", "Model 02"])
        #expect(reason == "'\(names[0])' and '\(names[1])' name the same version number")
    }

    @Test("Equal keys are found among other versions")
    func equalKeysAmongOthersAreAmbiguous() throws {
        let error = try #require(
            #expect(throws: ModelError.self) {
                try VersionHistory.naturalOrder(["Model 3", "Model", "Model 03", "Model 2"])
            })
        guard case .ambiguousOrder(let names, _) = error.kind else {
            Issue.record("expected ambiguousOrder, got \(error)")
            return
        }
        #expect(Set(names) == ["Model 3", "Model 03"])
    }

    @Test("A history looks versions up by name and position")
    func historyLooksUpVersions() {
        let history = VersionHistory([ObjectModel("A", entities: []), ObjectModel("A 2", entities: [])])
        #expect(history.names == ["A", "A 2"])
        #expect(history.latest?.name == "A 2")
        #expect(history.index(of: "A 2") == 1)
        #expect(history.index(of: "A 3") == nil)
        #expect(history.version(named: "A") == ObjectModel("A", entities: []))
        #expect(history.version(named: "B") == nil)
        #expect(VersionHistory([]).latest == nil)
    }

    @Test("A history-file mismatch names the unknown and missing versions")
    func historyFileMismatchDescription() {
        let error = ModelError.historyFileMismatch(file: "/m/R.history", unknown: ["R 9"], missing: ["R 2"])
        #expect(
            error.description
                == "/m/R.history names unknown versions R 9 and leaves out R 2. List every version in the bundle, oldest first."
        )
    }
}

@Suite("Later version names")
struct LaterVersionNameTests {
    static let history = VersionHistory([ObjectModel("Recipes", entities: []), ObjectModel("Recipes 2", entities: [])])

    @Test(arguments: [
        ("Recipes 3", true), ("Recipes 10", true), ("Recipes 2", false), ("Recipes", false), ("Other", false),
        ("Other 9", false),
    ])
    func aNameIsLaterOnlyWithTheSameStemAndAHigherNumber(name: String, isLater: Bool) {
        #expect(Self.history.namesALaterVersion(name) == isLater)
    }
}

/// Names that change stem once, as real histories do, ordered by the bundle's own name and the
/// current version (``VersionHistory/naturalOrder(_:first:last:)``).
@Suite("Versions of two stems")
struct TwoStemOrderTests {
    static let artsy = [
        "ArtsyFolio v2.0", "ArtsyPartner 2", "ArtsyFolio v1.4", "ArtsyPartner", "ArtsyFolio v2.7.0", "ArtsyPartner 5",
    ]

    @Test func theBundlesNameComesFirstAndTheCurrentVersionLast() throws {
        let expected = [
            "ArtsyPartner", "ArtsyPartner 2", "ArtsyPartner 5", "ArtsyFolio v1.4", "ArtsyFolio v2.0",
            "ArtsyFolio v2.7.0",
        ]
        #expect(
            try VersionHistory.naturalOrder(Self.artsy, first: "ArtsyPartner", last: "ArtsyFolio v2.7.0") == expected)
        // Either hint alone is enough.
        #expect(try VersionHistory.naturalOrder(Self.artsy, first: "ArtsyPartner", last: nil) == expected)
        #expect(try VersionHistory.naturalOrder(Self.artsy, first: "Other", last: "ArtsyFolio v2.7.0") == expected)
        // A 13-version app: `CyfaceModel`, then `2` … `13`.
        #expect(
            try VersionHistory.naturalOrder(["13", "2", "CyfaceModel", "10"], first: "CyfaceModel", last: "13")
                == ["CyfaceModel", "2", "10", "13"])
    }

    @Test func withoutAHintTheOrderIsAskedNamingTheVersions() {
        #expect(
            throws: ModelError.ambiguousOrder(
                Self.artsy.sorted(),
                reason:
                    "the names have 2 stems ('ArtsyFolio', 'ArtsyPartner'), and nothing in the bundle tells which comes first: 'ArtsyFolio v1.4' … 'ArtsyFolio v2.7.0' or 'ArtsyPartner' … 'ArtsyPartner 5'"
            )
        ) {
            try VersionHistory.naturalOrder(Self.artsy, first: "Other", last: nil)
        }
    }

    @Test func threeStemsFramedByTheFirstAndTheLastAreOrdered() throws {
        // 'B 2' can only be between the first version and the last.
        #expect(try VersionHistory.naturalOrder(["C 3", "B 2", "A"], first: "A", last: "C 3") == ["A", "B 2", "C 3"])
        // With four, the two in the middle could go either way: only those are named.
        #expect(
            throws: ModelError.ambiguousOrder(
                ["B 2", "D 4"],
                reason:
                    "the names have 4 stems ('A', 'B', 'C', 'D'), and nothing in the bundle tells which comes first: 'B 2' or 'D 4'"
            )
        ) {
            try VersionHistory.naturalOrder(["C 3", "B 2", "A", "D 4"], first: "A", last: "C 3")
        }
    }

    /// Artsy's committed bundle, 19 versions, ordered with no history file.
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func artsysBundleIsOrderedWithoutAHistoryFile() throws {
        let bundle = try ModelBundle(
            contentsOf: Corpus.required().url(
                "app-histories/artsy-energy-legacy/Resources/CoreData/ArtsyPartner.xcdatamodeld"))
        let names = bundle.history.names
        #expect(names.count == 19)
        #expect(names.first == "ArtsyPartner")
        #expect(
            Array(names.prefix(6)) == [
                "ArtsyPartner", "ArtsyPartner 2", "ArtsyPartner 3", "ArtsyPartner 4", "ArtsyPartner 5",
                "ArtsyFolio v1.4",
            ])
        #expect(names.last == "ArtsyFolio v2.7.0")
        #expect(bundle.current.name == "ArtsyFolio v2.7.0")
        #expect(
            bundle.order.map(\.description)
                == .success(
                    "ArtsyPartner, …, ArtsyPartner 5, ArtsyFolio v1.4, …, ArtsyFolio v2.7.0 — natural order of the names within each stem; 'ArtsyPartner' first as the bundle's name; 'ArtsyFolio v2.7.0' last as the current version (.xccurrentversion)"
                ))
        // The inverse that doesn't point back is a warning, not a refusal.
        #expect(bundle.history.versions.filter { !$0.warnings().isEmpty }.count == 7)
    }
}

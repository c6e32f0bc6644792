import StepwiseModel
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

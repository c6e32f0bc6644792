import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Orders worked out from the history itself (``VersionOrdering``), on small bundles named
/// like the real histories of issue 42: names that share no stem need no history file when the
/// bundle's name, the current version, mapping models or renaming identifiers order them.
@Suite("Version order worked out from the history")
struct VersionOrderingTests {
    /// A version of one entity `Item` with the given attributes.
    static func version(_ name: String, _ attributes: [Attribute]) -> ObjectModel {
        ObjectModel(name, entities: [Entity("Item", attributes: attributes)])
    }

    /// A 13-version app's names: `CyfaceModel`, then `2` … `13`.
    static let cyface = ["CyfaceModel"] + (2...13).map(String.init)

    /// An SDK's compiled model: `SFMCModel`, then 14 versions named by release numbers.
    static let sfmc = [
        "SFMCModel", "214.00", "215.00", "216.00", "217.00", "218.00", "220.00", "222.00", "223.00", "230.00", "231.00",
        "240.00", "242.00", "244.00", "244.01",
    ]

    // MARK: The bundle's name and its current version

    @Test(
        "Bare numbers after the version named after the bundle: first by the bundle's name, with or without a current version",
        arguments: [true, false])
    func cyfacesNumbersComeAfterTheBundlesName(declaresCurrent: Bool) throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("CyfaceModel.xcdatamodeld")
        // Each version adds an attribute, so each reads as its own.
        let versions = Self.cyface.enumerated().map { index, name in
            Self.version(name, (0...index).map { Attribute("field\($0)", .string) })
        }
        try XcodeModelWriter.writeBundle(versions.reversed(), current: "13", to: url)
        if !declaresCurrent {
            try FileManager.default.removeItem(at: url.appendingPathComponent(".xccurrentversion"))
        }
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.history.names == Self.cyface)
        #expect(bundle.current.name == "13")
        let currentFile = url.standardizedFileURL.appendingPathComponent(".xccurrentversion").path
        let clues: [OrderClue] =
            [.naturalOrder(stems: ["", "CyfaceModel"]), .bundleName("CyfaceModel")]
            + (declaresCurrent ? [.currentVersion("13", file: currentFile)] : [])
        #expect(bundle.order == .success(VersionOrder(names: Self.cyface, source: .workedOut(clues))))
        let last = declaresCurrent ? "; '13' last as the current version (.xccurrentversion)" : ""
        #expect(
            bundle.order.map(\.description)
                == .success(
                    "CyfaceModel, 2, …, 13 — natural order of the names within each stem; 'CyfaceModel' first as the bundle's name\(last)"
                ))
    }

    /// A compiled folder is listed from its `VersionInfo.plist` without reading a `.mom`, so
    /// stand-in files do: the folder's name is a version's (`SFMCModel.momd`) or not.
    @Test(
        "Release numbers after a differently named first version: last by VersionInfo.plist's current version",
        arguments: ["SFMCModel.momd", "MarketingCloud.momd"])
    func sfmcsReleasesComeBeforeTheCurrentVersion(folderName: String) throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path(folderName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in Self.sfmc.reversed() {
            try Data("stand-in".utf8).write(to: folder.appendingPathComponent("\(name).mom"))
        }
        let info: [String: Any] = [
            "NSManagedObjectModel_CurrentVersionName": "244.01",
            "NSManagedObjectModel_VersionHashes": Dictionary(
                uniqueKeysWithValues: Self.sfmc.map { ($0, ["Event": Data(repeating: 1, count: 32)]) }),
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: folder.appendingPathComponent("VersionInfo.plist"))

        let listing = try ModelBundleListing(contentsOf: folder)
        #expect(listing.names == Self.sfmc)
        #expect(listing.currentName == "244.01")
        let plist = folder.standardizedFileURL.appendingPathComponent("VersionInfo.plist").path
        let first: [OrderClue] = folderName == "SFMCModel.momd" ? [.bundleName("SFMCModel")] : []
        #expect(
            listing.order.map(\.clues)
                == .success(
                    [.naturalOrder(stems: ["", "SFMCModel"])] + first + [.currentVersion("244.01", file: plist)]))
        #expect(
            listing.order.map(\.abbreviatedNames) == .success("SFMCModel, 214.00, …, 244.01"))
    }

    @Test func threeStemsBetweenTheFirstAndTheLastVersionAreOrdered() throws {
        let names = ["Shop", "Spring Sale 2", "Holiday 3"]
        let ordering = VersionOrdering(
            names: names.reversed(), bundleName: "Shop", current: .currentVersion("Holiday 3", file: "x"))
        #expect(try ordering.order().get().names == names)
    }

    // MARK: Renaming identifiers

    @Test(
        "A renaming identifier naming another version's entity or property puts that version first",
        arguments: [false, true])
    func aRenamingIdentifierOrdersTwoStems(renamesTheEntity: Bool) throws {
        let launch = Self.version("Launch", [Attribute("name", .string)])
        let springSale =
            renamesTheEntity
            ? ObjectModel(
                "Spring Sale",
                entities: [Entity("Product", attributes: [Attribute("name", .string)]).renamed(from: "Item")])
            : Self.version("Spring Sale", [Attribute("title", .string).renamed(from: "name")])
        let directory = try TemporaryDirectory()
        let url = directory.path("Shop.xcdatamodeld")
        // Neither is named after the bundle, and no current version is declared: the renaming
        // identifier alone orders them, and the newest is current.
        try XcodeModelWriter.writeBundle([springSale, launch], current: "Spring Sale", to: url)
        try FileManager.default.removeItem(at: url.appendingPathComponent(".xccurrentversion"))
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.history.names == ["Launch", "Spring Sale"])
        #expect(bundle.current.name == "Spring Sale")
        let clue: OrderClue =
            renamesTheEntity
            ? .renamingIdentifier(earlier: "Launch", later: "Spring Sale", element: "Product", renames: "Item")
            : .renamingIdentifier(earlier: "Launch", later: "Spring Sale", element: "Item.title", renames: "Item.name")
        #expect(try bundle.order.get().clues.contains(clue))
        #expect(
            clue.description
                == (renamesTheEntity
                    ? "'Launch' before 'Spring Sale' as the renaming identifier of Product in 'Spring Sale' names Item of 'Launch'"
                    : "'Launch' before 'Spring Sale' as the renaming identifier of Item.title in 'Spring Sale' names Item.name of 'Launch'")
        )
        // A listing reads no model, so it has no renaming identifiers: it can't tell the newest,
        // which is the current version of a bundle that declares none.
        let error = #expect(throws: ModelError.self) { try ModelBundleListing(contentsOf: url) }
        guard case .ambiguousOrder(let names, _)? = error?.kind else {
            Issue.record("expected an open order, got \(String(describing: error))")
            return
        }
        #expect(names == ["Launch", "Spring Sale"])
    }

    /// Core Data's renaming identifier names the element "in an earlier version"; one that
    /// names the element itself, or a name its own version still has, says nothing.
    @Test func aRenamingIdentifierThatNamesNothingElsewhereOrdersNothing() {
        let launch = Self.version("Launch", [Attribute("name", .string), Attribute("title", .string)])
        let same = Self.version("Spring Sale", [Attribute("name", .string).renamed(from: "name")])
        let both = Self.version(
            "Spring Sale", [Attribute("name", .string), Attribute("title", .string).renamed(from: "name")])
        for later in [same, both] {
            let ordering = VersionOrdering(
                names: ["Launch", "Spring Sale"], bundleName: "Shop",
                models: ["Launch": launch, "Spring Sale": later])
            #expect(throws: ModelError.self) { try ordering.order().get() }
        }
    }

    /// Clues of one kind that order two stems both ways are set aside, and so is one that
    /// contradicts a stronger kind: Wire's `zmessaging2.53.0` gives `isSilenced` the renaming
    /// identifier `mutedStatus`, the name of a later version's attribute.
    @Test func contradictoryRenamingIdentifiersAreSetAside() throws {
        // Used the wrong way round, as a stable identifier: the first version's 'text' carries
        // the renaming identifier 'entry', the name later versions give it.
        let blog = Self.version("Blog", [Attribute("text", .string).renamed(from: "entry")])
        let journal = Self.version("Journal 2", [Attribute("body", .string).renamed(from: "text")])
        let diary = Self.version("Diary 3", [Attribute("entry", .string).renamed(from: "body")])
        let notes = Self.version("Notes 4", [Attribute("entry", .string).renamed(from: "body")])
        let models = Dictionary(uniqueKeysWithValues: [blog, journal, diary, notes].map { ($0.name, $0) })
        let ordering = VersionOrdering(
            names: Array(models.keys), bundleName: "Blog", current: .currentVersion("Notes 4", file: "x"),
            models: models)
        let order = try ordering.order().get()
        // The bundle's name and the current version frame the history; only the renames
        // between 'Journal 2' and 'Diary 3' were needed, and those that put a later version
        // before 'Blog' contradict the bundle's name.
        #expect(order.names == ["Blog", "Journal 2", "Diary 3", "Notes 4"])
        #expect(
            order.clues.contains(
                .renamingIdentifier(earlier: "Journal 2", later: "Diary 3", element: "Item.entry", renames: "Item.body")
            ))
        #expect(
            !order.clues.contains { clue in
                if case .renamingIdentifier(_, "Blog", _, _) = clue { return true }
                return false
            })

        // Two renames the opposite way between two stems: neither is believed.
        let back = Self.version("Journal 2", [Attribute("entry", .string).renamed(from: "body")])
        let forth = Self.version("Diary 3", [Attribute("body", .string).renamed(from: "entry")])
        let plain = Self.version("Blog", [Attribute("text", .string)])
        let torn = VersionOrdering(
            names: ["Blog", "Journal 2", "Diary 3"], bundleName: "Blog",
            models: ["Blog": plain, "Journal 2": back, "Diary 3": forth], bundlePath: "/m/Blog.xcdatamodeld")
        #expect(
            torn.order()
                == .failure(
                    ModelError(
                        path: "/m/Blog.xcdatamodeld",
                        kind: .ambiguousOrder(
                            ["Diary 3", "Journal 2"],
                            reason:
                                "the names have 3 stems ('Blog', 'Diary', 'Journal'), and nothing in the bundle tells which comes first: 'Diary 3' or 'Journal 2' (set aside because other clues contradict them: 'Journal 2' before 'Diary 3' as the renaming identifier of Item.body in 'Diary 3' names Item.entry of 'Journal 2'; 'Diary 3' before 'Journal 2' as the renaming identifier of Item.entry in 'Journal 2' names Item.body of 'Diary 3')"
                        )))
        )
    }

    // MARK: Mapping models

    /// Mapping models' clues are weighed after what Xcode records and before renaming
    /// identifiers; the caller reads the mapping models (`ModelBundle.orderedByMappings`).
    @Test func aMappingModelOrdersItsSourceBeforeItsDestination() throws {
        let ordering = VersionOrdering(names: ["Launch", "Spring Sale", "Holiday"], bundleName: "Shop")
        #expect(!ordering.isSettledByNames)
        let clues: [OrderClue] = [
            .mappingModel(from: "Launch", to: "Spring Sale", file: "/m/Launch to Spring Sale.json"),
            .mappingModel(from: "Spring Sale", to: "Holiday", file: "/m/Sale.xcmappingmodel"),
        ]
        let order = try ordering.order(mappingClues: clues).get()
        #expect(order.names == ["Launch", "Spring Sale", "Holiday"])
        #expect(
            order.description
                == "Launch, Spring Sale, Holiday — natural order of the names within each stem; 'Launch' before 'Spring Sale' by the mapping model Launch to Spring Sale.json; 'Spring Sale' before 'Holiday' by the mapping model Sale.xcmappingmodel"
        )
        // A downgrade mapping beside the upgrade one says nothing of the order.
        let both = clues + [.mappingModel(from: "Holiday", to: "Spring Sale", file: "/m/Back.json")]
        #expect(throws: ModelError.self) { try ordering.order(mappingClues: both).get() }
    }

    // MARK: What is reported

    @Test func anOrderEncodesEveryKeyAndReadsBack() throws {
        let order = VersionOrder(
            names: ["CyfaceModel", "2"],
            source: .workedOut([
                .naturalOrder(stems: ["", "CyfaceModel"]), .bundleName("CyfaceModel"),
                .currentVersion("2", file: "/m/CyfaceModel.xcdatamodeld/.xccurrentversion"),
                .mappingModel(from: "CyfaceModel", to: "2", file: "/m/A.json"),
                .renamingIdentifier(earlier: "CyfaceModel", later: "2", element: "Item.b", renames: "Item.a"),
            ]))
        let data = try JSONEncoder().encode(order)
        #expect(try JSONDecoder().decode(VersionOrder.self, from: data) == order)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["versions", "foundBy", "file", "clues", "description"])
        #expect(object["foundBy"] as? String == "workedOut")
        let clues = try #require(object["clues"] as? [[String: Any]])
        #expect(
            clues.map { $0["kind"] as? String } == [
                "naturalOrder", "bundleName", "currentVersion", "mappingModel", "renamingIdentifier",
            ])
        for clue in clues {
            #expect(
                Set(clue.keys) == [
                    "kind", "version", "earlier", "later", "file", "element", "renames", "stems", "description",
                ])
        }
        let listed = VersionOrder(names: ["A", "B"], source: .historyFile("/m/Model.history"))
        #expect(try JSONDecoder().decode(VersionOrder.self, from: JSONEncoder().encode(listed)) == listed)
        #expect(listed.description == "A, B — from Model.history")
    }

    @Test func runsOfOneStemAreShortenedToTheirEnds() {
        let names =
            ["ArtsyPartner", "ArtsyPartner 2", "ArtsyPartner 3", "ArtsyFolio v1.4", "ArtsyFolio v2.0"]
        #expect(
            VersionOrder(names: names, source: .givenInCode).abbreviatedNames
                == "ArtsyPartner, …, ArtsyPartner 3, ArtsyFolio v1.4, ArtsyFolio v2.0")
    }
}

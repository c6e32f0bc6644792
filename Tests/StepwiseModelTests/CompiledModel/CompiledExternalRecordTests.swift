import Foundation
import StepwiseModel
import StepwiseTesting
import Testing

/// Issue 42's `DerivedParent`: a subentity of `Parent`, with a to-many of its own, where
/// `Parent` has an optional Binary attribute stored in Spotlight's external record file
/// (`storedInTruthFile="YES"`, archived as `NSIsStoredInTruth`). The `.mom` must read to the
/// hashes its source gives, which are the ones Xcode records in `VersionInfo.plist`.
///
/// The archives are built as Core Data writes them (`-[NSPropertyDescription encodeWithCoder:]`
/// and `-[NSAttributeDescription encodeWithCoder:]`, decompiled Core Data 26.1): each flag both as
/// its key and as its bit of `_P`, external storage as bit 4 of `NSFlagsKey` only, and the
/// subentity's inherited properties as copies naming it or as proxies to the parent's own.
@Suite("CompiledModel: a subentity of an entity with an external record attribute")
struct CompiledExternalRecordTests {
    typealias Value = BinaryPropertyList.Value

    /// How the subentity's archived properties hold the ones it inherits.
    enum Inheritance: String, CaseIterable, Sendable {
        /// Copies naming the subentity, as Xcode's model compiler writes them.
        case copies
        /// `_NSPropertyDescriptionProxy`s whose `NSUnderlyingProperty` is the parent's object, as
        /// in the model cache of knowledgeC (macOS 10.13).
        case proxies
    }

    /// What `Parent.data` is stored as.
    struct Storage: Sendable, CustomStringConvertible {
        /// `storedInTruthFile="YES"`: Spotlight's external record file.
        var isStoredInTruthFile: Bool
        /// `allowsExternalBinaryDataStorage="YES"`.
        var allowsExternalStorage: Bool

        var description: String {
            "truth file \(isStoredInTruthFile ? "yes" : "no"), external storage \(allowsExternalStorage ? "yes" : "no")"
        }

        static let all = [
            Storage(isStoredInTruthFile: true, allowsExternalStorage: false),
            Storage(isStoredInTruthFile: false, allowsExternalStorage: true),
            Storage(isStoredInTruthFile: true, allowsExternalStorage: true),
            Storage(isStoredInTruthFile: false, allowsExternalStorage: false),
        ]
    }

    /// The model's source: `Parent(data, name)`, its subentity `DerivedParent` with the to-many
    /// `derivedChildren`, and `Child` with the inverse to-one.
    static func source(_ storage: Storage) -> String {
        var data = #"<attribute name="data" optional="YES" attributeType="Binary""#
        if storage.allowsExternalStorage { data += #" allowsExternalBinaryDataStorage="YES""# }
        if storage.isStoredInTruthFile { data += #" storedInTruthFile="YES""# }
        data += #" syncable="YES"/>"#
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model userDefinedModelVersionIdentifier="" type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="6751" systemVersion="14C1514" minimumToolsVersion="Xcode 4.3" macOSVersion="Automatic" iOSVersion="Automatic">
                <entity name="Child" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String" syncable="YES"/>
                    <relationship name="derivedParent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="DerivedParent" inverseName="derivedChildren" inverseEntity="DerivedParent" syncable="YES"/>
                </entity>
                <entity name="DerivedParent" parentEntity="Parent" syncable="YES">
                    <relationship name="derivedChildren" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Child" inverseName="derivedParent" inverseEntity="Child" syncable="YES"/>
                </entity>
                <entity name="Parent" syncable="YES">
                    \(data)
                    <attribute name="name" optional="YES" attributeType="String" syncable="YES"/>
                </entity>
            </model>
            """
    }

    /// The `.mom` archive of ``source(_:)``.
    static func archive(_ storage: Storage, inheritance: Inheritance) -> Data {
        var archive = CompiledModelTests.ArchiveBuilder()
        let model = archive.reserve()
        let parent = archive.reserve()
        let derived = archive.reserve()
        let child = archive.reserve()
        let derivedChildren = archive.reserve()
        let derivedParent = archive.reserve()

        // `_P` as `-[NSPropertyDescription encodeWithCoder:]` computes it: 1, optional 2, no
        // validation predicates 0x10, no warnings 0x20, no user info 0x40, no modifier 0x80,
        // stored in the external record (truth) file 0x200.
        func propertyFields(_ name: String, entity: Int, truthFile: Bool = false) -> [String: Value] {
            var fields: [String: Value] = [
                "NSPropertyName": archive.add(.string(name)), "NSEntity": .uid(entity),
                "NSRenamingIdentifier": archive.add(.string(name)), "NSIsOptional": .bool(true),
                "_P": .integer(0xF3 | (truthFile ? 0x200 : 0)),
            ]
            if truthFile { fields["NSIsStoredInTruth"] = .bool(true) }
            return fields
        }
        func attribute(_ name: String, _ type: Int, _ className: String, entity: Int) -> Value {
            let isData = name == "data"
            var fields = propertyFields(name, entity: entity, truthFile: isData && storage.isStoredInTruthFile)
            fields["NSAttributeType"] = .integer(Int64(type))
            fields["NSAttributeValueClassName"] = archive.add(.string(className))
            fields["NSFlagsKey"] = .integer(isData && storage.allowsExternalStorage ? 4 : 0)
            return archive.object("NSAttributeDescription", fields)
        }
        let parentData = attribute("data", 1000, "NSData", entity: parent)
        let parentName = attribute("name", 700, "NSString", entity: parent)
        let inherited: [(String, Value)]
        switch inheritance {
        case .copies:
            inherited = [
                ("data", attribute("data", 1000, "NSData", entity: derived)),
                ("name", attribute("name", 700, "NSString", entity: derived)),
            ]
        case .proxies:
            inherited = [("data", parentData), ("name", parentName)].enumerated().map { index, property in
                (
                    property.0,
                    archive.object(
                        "_NSPropertyDescriptionProxy",
                        [
                            "NSUnderlyingProperty": property.1, "NSEntityDescription": .uid(derived),
                            "NSReferenceID": .integer(Int64(index + 1)),
                        ])
                )
            }
        }
        var toMany = propertyFields("derivedChildren", entity: derived)
        toMany.merge(
            [
                "NSDestinationEntity": .uid(child), "NSInverseRelationship": .uid(derivedParent),
                "_NSDestinationEntityName": archive.add(.string("Child")),
                "_NSInverseRelationshipName": archive.add(.string("derivedParent")),
                "NSMinCount": .integer(0), "NSMaxCount": .integer(0), "NSDeleteRule": .integer(1),
            ]
        ) { $1 }
        archive.fill(derivedChildren, "NSRelationshipDescription", toMany)
        var toOne = propertyFields("derivedParent", entity: child)
        toOne.merge(
            [
                "NSDestinationEntity": .uid(derived), "NSInverseRelationship": .uid(derivedChildren),
                "_NSDestinationEntityName": archive.add(.string("DerivedParent")),
                "_NSInverseRelationshipName": archive.add(.string("derivedChildren")),
                "NSMinCount": .integer(0), "NSMaxCount": .integer(1), "NSDeleteRule": .integer(1),
            ]
        ) { $1 }
        archive.fill(derivedParent, "NSRelationshipDescription", toOne)

        func entity(_ name: String, _ properties: [(String, Value)], _ extra: [String: Value] = [:]) -> [String: Value]
        {
            [
                "NSEntityName": archive.add(.string(name)),
                "NSClassNameForEntity": archive.add(.string("NSManagedObject")),
                "NSProperties": archive.dictionary(properties), "NSRenamingIdentifier": archive.add(.string(name)),
                "NSManagedObjectModel": .uid(model),
            ].merging(extra) { $1 }
        }
        archive.fill(
            parent, "NSEntityDescription",
            entity(
                "Parent", [("data", parentData), ("name", parentName)],
                ["NSSubentities": archive.dictionary([("DerivedParent", .uid(derived))])]))
        archive.fill(
            derived, "NSEntityDescription",
            entity(
                "DerivedParent", inherited + [("derivedChildren", .uid(derivedChildren))],
                ["NSSuperentity": .uid(parent)]))
        archive.fill(
            child, "NSEntityDescription",
            entity(
                "Child",
                [("name", attribute("name", 700, "NSString", entity: child)), ("derivedParent", .uid(derivedParent))]))
        archive.fill(
            model, "NSManagedObjectModel",
            [
                "NSEntities": archive.dictionary([
                    ("Child", .uid(child)), ("DerivedParent", .uid(derived)), ("Parent", .uid(parent)),
                ]),
                "NSVersionIdentifiers": archive.object("NSSet", ["NS.objects": .array([archive.add(.string(""))])]),
            ])
        return archive.data(root: .uid(model))
    }

    static func sourceModel(_ storage: Storage) throws -> ObjectModel {
        try XcodeModelReader.parse(Data(source(storage).utf8), versionName: "Model")
    }

    @Test(
        "The .mom reads as its source: the same model and the same hashes",
        arguments: Storage.all, Inheritance.allCases)
    func readsAsItsSource(_ storage: Storage, _ inheritance: Inheritance) throws {
        let source = try Self.sourceModel(storage)
        let compiled = try CompiledModel.read(
            archive: Self.archive(storage, inheritance: inheritance), name: "Model", origin: "Model.mom")
        #expect(compiled == CompiledModelCorpusTests.comparable(source))
        #expect(VersionHasher.entityHashes(of: compiled) == VersionHasher.entityHashes(of: source))
        let data = try #require(compiled[entity: "Parent"]?.attributes.first { $0.name == "data" })
        #expect(data.allowsExternalBinaryDataStorage == storage.allowsExternalStorage)
        #expect(data.isOptional)
        #expect(compiled[entity: "DerivedParent"]?.parentName == "Parent")
        #expect(compiled[entity: "DerivedParent"]?.attributes.isEmpty == true)
        #expect(compiled[entity: "DerivedParent"]?.relationships.map(\.name) == ["derivedChildren"])
        #expect(compiled[entity: "DerivedParent"]?.relationships.first?.isToMany == true)
        try compiled.validate()
    }

    @Test("The external record file changes no hash; external storage changes Parent's and DerivedParent's")
    func onlyExternalStorageIsHashed() throws {
        func hashes(_ storage: Storage) throws -> [String: String] {
            let compiled = try CompiledModel.read(
                archive: Self.archive(storage, inheritance: .copies), name: "Model", origin: "Model.mom")
            return VersionHasher.entityHashes(of: compiled).mapValues(VersionHasher.hex)
        }
        let plain = try hashes(Storage(isStoredInTruthFile: false, allowsExternalStorage: false))
        let truthFile = try hashes(Storage(isStoredInTruthFile: true, allowsExternalStorage: false))
        let external = try hashes(Storage(isStoredInTruthFile: false, allowsExternalStorage: true))
        let both = try hashes(Storage(isStoredInTruthFile: true, allowsExternalStorage: true))
        #expect(plain.keys.sorted() == ["Child", "DerivedParent", "Parent"])
        #expect(truthFile == plain)
        #expect(both == external)
        #expect(external["Child"] == plain["Child"])
        #expect(external["Parent"] != plain["Parent"])
        #expect(external["DerivedParent"] != plain["DerivedParent"])
    }

    @Test(
        "A .momd whose VersionInfo.plist holds the source's hashes loads",
        arguments: Storage.all, Inheritance.allCases)
    func momdLoads(_ storage: Storage, _ inheritance: Inheritance) throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("Model.momd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.archive(storage, inheritance: inheritance).write(to: folder.appendingPathComponent("Model.mom"))
        let recorded = VersionHasher.entityHashes(of: try Self.sourceModel(storage))
        try BinaryPropertyList.encode(
            .dictionary([
                "NSManagedObjectModel_CurrentVersionName": .string("Model"),
                "NSManagedObjectModel_VersionHashes": .dictionary([
                    "Model": .dictionary(recorded.mapValues { .data($0) })
                ]),
            ])
        ).write(to: folder.appendingPathComponent("VersionInfo.plist"))
        let bundle = try ModelBundle(contentsOf: folder)
        #expect(bundle.current.name == "Model")
        #expect(VersionHasher.entityHashes(of: bundle.current) == recorded)
    }
}

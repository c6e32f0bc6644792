import Foundation
import StepwiseModel
import Testing

/// ``CompiledModel`` on archives written here, for what the corpus's compiled models don't have
/// (inheritance, abstract entities, transient and ordered properties, external storage, user
/// info, uniqueness constraints, renames), and on malformed input.
@Suite("CompiledModel")
struct CompiledModelTests {
    typealias Value = BinaryPropertyList.Value

    /// Builds a keyed archive: objects are appended and referred to by UID.
    struct ArchiveBuilder {
        var objects: [Value] = [.string("$null")]
        var classes: [String: Int] = [:]

        mutating func add(_ value: Value) -> Value {
            objects.append(value)
            return .uid(objects.count - 1)
        }

        mutating func object(_ className: String, _ fields: [String: Value]) -> Value {
            let classUID: Int
            if let known = classes[className] {
                classUID = known
            } else {
                objects.append(
                    .dictionary(["$classname": .string(className), "$classes": .array([.string(className)])]))
                classUID = objects.count - 1
                classes[className] = classUID
            }
            var fields = fields
            fields["$class"] = .uid(classUID)
            return add(.dictionary(fields))
        }

        /// Reserves a slot for an object whose fields refer to objects made later.
        mutating func reserve() -> Int {
            objects.append(.string("$null"))
            return objects.count - 1
        }

        mutating func fill(_ slot: Int, _ className: String, _ fields: [String: Value]) {
            guard case .uid(let uid) = object(className, fields) else { return }
            objects[slot] = objects[uid]
        }

        mutating func dictionary(_ entries: [(String, Value)]) -> Value {
            object(
                "NSMutableDictionary",
                ["NS.keys": .array(entries.map { add(.string($0.0)) }), "NS.objects": .array(entries.map(\.1))])
        }

        mutating func array(_ elements: [Value]) -> Value {
            object("NSMutableArray", ["NS.objects": .array(elements)])
        }

        func data(root: Value) -> Data {
            BinaryPropertyList.encode(
                .dictionary([
                    "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100000),
                    "$top": .dictionary(["root": root]), "$objects": .array(objects),
                ]))
        }
    }

    /// A model of two entities, `Item` (abstract) and its subentity `Book`, whose archived
    /// properties repeat `Item`'s, as Core Data writes them.
    static func inheritanceArchive() -> Data {
        var archive = ArchiveBuilder()
        let model = archive.reserve()
        let item = archive.reserve()
        let book = archive.reserve()
        let shelf = archive.reserve()
        func attribute(_ name: String, _ type: Int, entity: Int, _ extra: [String: Value] = [:]) -> Value {
            archive.object(
                "NSAttributeDescription",
                [
                    "NSPropertyName": archive.add(.string(name)), "NSAttributeType": .integer(Int64(type)),
                    "NSEntity": .uid(entity), "NSRenamingIdentifier": archive.add(.string(name)),
                    "NSFlagsKey": .integer(0),
                ].merging(extra) { $1 })
        }
        let title = attribute("title", 700, entity: item, ["NSIsOptional": .bool(true)])
        let bookTitle = attribute("title", 700, entity: book, ["NSIsOptional": .bool(true)])
        let cover = attribute(
            "cover", 1000, entity: book,
            ["NSFlagsKey": .integer(4), "NSRenamingIdentifier": archive.add(.string("image"))])
        let pages = attribute(
            "pages", 200, entity: book,
            ["NSDefaultValue": .integer(12), "NSVersionHashModifier": archive.add(.string("2"))])
        let cached = attribute(
            "cached", 800, entity: book, ["NSIsTransient": .bool(true), "NSIsOptional": .bool(true)])
        let books = archive.reserve()
        let bookShelf = archive.object(
            "NSRelationshipDescription",
            [
                "NSPropertyName": archive.add(.string("shelf")), "NSEntity": .uid(book),
                "NSDestinationEntity": .uid(shelf), "NSInverseRelationship": .uid(books),
                "_NSDestinationEntityName": archive.add(.string("Shelf")),
                "_NSInverseRelationshipName": archive.add(.string("books")),
                "NSMinCount": .integer(1), "NSMaxCount": .integer(1), "NSDeleteRule": .integer(3),
                "NSRenamingIdentifier": archive.add(.string("shelf")),
            ])
        archive.fill(
            books, "NSRelationshipDescription",
            [
                "NSPropertyName": archive.add(.string("books")), "NSEntity": .uid(shelf),
                "NSDestinationEntity": .uid(book), "NSInverseRelationship": bookShelf,
                "NSMinCount": .integer(0), "NSMaxCount": .integer(0), "NSDeleteRule": .integer(2),
                "NSIsOptional": .bool(true), "NSIsOrdered": .bool(true),
                "NSRenamingIdentifier": archive.add(.string("books")),
                "NSUserInfo": archive.dictionary([("sync", archive.add(.string("YES")))]),
            ])
        let noFetchIndexes: Value = .uid(0)
        archive.fill(
            item, "NSEntityDescription",
            [
                "NSEntityName": archive.add(.string("Item")), "NSIsAbstract": .bool(true),
                "NSClassNameForEntity": archive.add(.string("NSManagedObject")),
                "NSProperties": archive.dictionary([("title", title)]), "NSSuperentity": .uid(0),
                "NSRenamingIdentifier": archive.add(.string("Item")), "NSManagedObjectModel": .uid(model),
                "NSUniqueTuples": archive.array([archive.array([archive.add(.string("title"))])]),
                "NSFetchIndexDescriptions": noFetchIndexes,
            ])
        archive.fill(
            book, "NSEntityDescription",
            [
                "NSEntityName": archive.add(.string("Book")), "NSClassNameForEntity": archive.add(.string("Book")),
                "NSProperties": archive.dictionary([
                    ("title", bookTitle), ("cover", cover), ("pages", pages), ("cached", cached), ("shelf", bookShelf),
                ]),
                "NSSuperentity": .uid(item), "NSRenamingIdentifier": archive.add(.string("Book")),
                "NSUserInfo": archive.dictionary([("note", archive.add(.string("kept")))]),
                "NSVersionHashModifier": archive.add(.string("v2")),
            ])
        archive.fill(
            shelf, "NSEntityDescription",
            [
                "NSEntityName": archive.add(.string("Shelf")),
                "NSProperties": archive.dictionary([("books", .uid(books))]),
                "NSRenamingIdentifier": archive.add(.string("Case")),
                "NSCompoundIndexes": archive.array([archive.array([archive.add(.string("books"))])]),
            ])
        archive.fill(
            model, "NSManagedObjectModel",
            [
                "NSEntities": archive.dictionary([("Book", .uid(book)), ("Item", .uid(item)), ("Shelf", .uid(shelf))]),
                "NSVersionIdentifiers": archive.object("NSSet", ["NS.objects": .array([archive.add(.string("7"))])]),
            ])
        return archive.data(root: .uid(model))
    }

    @Test("Reads inheritance, flags, counts, rules, user info, constraints and renames")
    func readsEveryModelFeature() throws {
        let model = try CompiledModel.read(archive: Self.inheritanceArchive(), name: "Library 2", origin: "Library.mom")
        let expected = ObjectModel(
            "Library 2", versionIdentifiers: ["7"],
            entities: [
                Entity(
                    "Book", parentName: "Item", className: "Book",
                    attributes: [
                        Attribute("cached", .boolean, isTransient: true),
                        Attribute(
                            "cover", .binary, isOptional: false, renamingIdentifier: "image",
                            allowsExternalBinaryDataStorage: true),
                        Attribute("pages", .integer32, isOptional: false, defaultValue: "12", versionHashModifier: "2"),
                    ],
                    relationships: [
                        Relationship(
                            "shelf", destination: "Shelf", inverse: "books", minCount: 1, deletionRule: .deny,
                            isOptional: false)
                    ],
                    userInfo: ["note": "kept"], versionHashModifier: "v2"),
                Entity(
                    "Item", isAbstract: true, attributes: [Attribute("title", .string)],
                    uniquenessConstraints: [["title"]]),
                Entity(
                    "Shelf",
                    relationships: [
                        Relationship(
                            "books", destination: "Book", inverse: "shelf", isToMany: true, isOrdered: true,
                            deletionRule: .cascade, userInfo: ["sync": "YES"])
                    ],
                    renamingIdentifier: "Case", compoundIndexes: [["books"]]),
            ])
        #expect(model == expected)
        try model.validate()
    }

    @Test(
        "Bytes that are not a model archive are refused with an error naming the origin",
        arguments: [
            Data(), Data("bplist00".utf8), Data(repeating: 0xFF, count: 64),
            BinaryPropertyList.encode(.dictionary(["$objects": .array([]), "$top": .dictionary([:])])),
        ])
    func refusesNonArchives(_ data: Data) {
        let error = #expect(throws: ModelError.self) {
            try CompiledModel.read(archive: data, name: "Model", origin: "Model.momd/Model.mom")
        }
        #expect(error?.path == "Model.momd/Model.mom")
        #expect(error?.caseName == "unreadableCompiledModel")
    }

    @Test("Every truncation of a model archive is an error, never a crash")
    func refusesTruncatedArchives() {
        let archive = Self.inheritanceArchive()
        for length in stride(from: 0, to: archive.count, by: 7) {
            #expect(throws: ModelError.self) {
                try CompiledModel.read(archive: archive.prefix(length), name: "Model", origin: "Model.mom")
            }
        }
    }

    @Test("Every single-byte change of a model archive reads or throws a typed error")
    func survivesByteFlips() {
        let archive = Self.inheritanceArchive()
        for offset in archive.indices {
            var damaged = archive
            damaged[offset] ^= 0x5A
            do {
                _ = try CompiledModel.read(archive: damaged, name: "Model", origin: "Model.mom")
            } catch {
                #expect(error.path == "Model.mom")
            }
        }
    }

    @Test("A root that is not a model, or an unknown attribute type, is named")
    func namesWhatIsWrong() throws {
        var notAModel = ArchiveBuilder()
        let root = notAModel.object("NSDictionary", ["NS.keys": .array([]), "NS.objects": .array([])])
        let error = #expect(throws: ModelError.self) {
            try CompiledModel.read(archive: notAModel.data(root: root), name: "Model", origin: "Model.mom")
        }
        #expect(
            error?.kind == .unreadableCompiledModel("its root object is an NSDictionary, not an NSManagedObjectModel"))

        var composite = ArchiveBuilder()
        let entity = composite.reserve()
        let attribute = composite.object(
            "NSAttributeDescription",
            ["NSPropertyName": composite.add(.string("size")), "NSAttributeType": .integer(2200)])
        composite.fill(
            entity, "NSEntityDescription",
            [
                "NSEntityName": composite.add(.string("Box")),
                "NSProperties": composite.dictionary([("size", attribute)]),
            ])
        let model = composite.object(
            "NSManagedObjectModel", ["NSEntities": composite.dictionary([("Box", .uid(entity))])])
        let typeError = #expect(throws: ModelError.self) {
            try CompiledModel.read(archive: composite.data(root: model), name: "Model", origin: "Model.mom")
        }
        #expect(
            typeError?.kind
                == .invalidValue(element: "attribute 'Box.size'", attribute: "NSAttributeType", value: "2200"))
    }
}

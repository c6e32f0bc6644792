import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// The readers of outside input on a thread with 512 KB of stack (``SmallStack``), the least an
/// app's thread has on Apple platforms: the deepest input each accepts is read, and anything
/// deeper is refused with the reader's own error, never a crash. The test runs in a debug
/// build, whose frames are larger than release's, so passing here leaves a margin on a device.
@Suite("Readers on a 512 KB stack")
struct SmallStackReaderTests {
    typealias Value = BinaryPropertyList.Value

    /// What a reader did with one input.
    enum Outcome: Equatable, Sendable {
        case read
        /// Refused with the reader's own error type.
        case refused
        /// Failed with an error of another type: the description, to show.
        case failed(String)
    }

    @Test("Binary property lists nested to the limit are read, deeper ones refused")
    func binaryPropertyLists() async {
        let limit = BinaryPropertyList.maximumNesting
        #expect(await Self.outcome(ofPlist: Self.nestedPlist(limit)) == .read)
        for depth in [limit + 1, 100_000] {
            #expect(await Self.outcome(ofPlist: Self.nestedPlist(depth)) == .refused)
        }
    }

    @Test("Keyed archives of transformable values nested to the limit are read, deeper ones refused")
    func keyedArchives() async {
        let limit = TransformableArchive.maximumNesting
        let read: @Sendable (Data) throws -> Void = { _ = try TransformableArchive.value(ofArchive: $0) }
        #expect(await Self.outcome(Self.nestedArchive(limit), read, { $0 is BinaryPropertyList.FormatError }) == .read)
        for depth in [limit + 1, 100_000] {
            #expect(
                await Self.outcome(Self.nestedArchive(depth), read, { $0 is BinaryPropertyList.FormatError })
                    == .refused)
        }
    }

    @Test("Composite attributes nested to the limit are read, validated and hashed; a cycle is refused")
    func compositeAttributes() async {
        let limit = CompiledModel.compositeNestingLimit
        let readValidateAndHash: @Sendable (Data) throws -> Void = { archive in
            let model = try CompiledModel.read(archive: archive, name: "Deep", origin: "Deep.mom")
            try model.validate(file: "Deep.mom")
            _ = model.entityVersionHashes
        }
        let deepest = await Self.outcome(Self.nestedComposites(limit), readValidateAndHash, { $0 is ModelError })
        #expect(deepest == .read)
        for archive in [Self.nestedComposites(limit + 1), Self.selfContainingComposite()] {
            #expect(await Self.outcome(archive, readValidateAndHash, { $0 is ModelError }) == .refused)
        }
    }

    @Test("Expressions and predicates nested to the limit are parsed, deeper ones refused")
    func expressions() async {
        let limit = ExpressionParser.maximumNesting
        let parseExpression: @Sendable (Data) throws -> Void = { data in
            _ = try ExpressionParser.parseExpression(String(decoding: data, as: UTF8.self))
        }
        let parsePredicate: @Sendable (Data) throws -> Void = { data in
            _ = try ExpressionParser.parsePredicate(String(decoding: data, as: UTF8.self))
        }
        /// Lists in lists, `{{{1}}}`, which an expression nests.
        func lists(_ depth: Int) -> Data {
            Data((String(repeating: "{", count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
        }
        /// Parentheses and NOTs, which a predicate nests.
        func groups(_ depth: Int) -> Data {
            Data(
                (String(repeating: "(NOT ", count: depth / 2) + "a == 1" + String(repeating: ")", count: depth / 2))
                    .utf8)
        }
        let isRefusal: @Sendable (any Error) -> Bool = { $0 is MappingError }
        // The deepest each parser accepts: the limit counts every level opened, the outermost included.
        #expect(await Self.outcome(lists(limit - 1), parseExpression, isRefusal) == .read)
        #expect(await Self.outcome(groups(limit - 2), parsePredicate, isRefusal) == .read)
        for depth in [limit + 2, 100_000] {
            #expect(await Self.outcome(lists(depth), parseExpression, isRefusal) == .refused)
            #expect(await Self.outcome(groups(depth), parsePredicate, isRefusal) == .refused)
        }
    }

    @Test("Deeply nested XML is refused by the model reader")
    func xml() async {
        let depth = 100_000
        let xml = Data(
            (#"<?xml version="1.0"?><model>"# + String(repeating: "<a>", count: depth)
                + String(repeating: "</a>", count: depth) + "</model>").utf8)
        let parseModel: @Sendable (Data) throws -> Void = { _ = try XcodeModelReader.parse($0, versionName: "Deep") }
        #expect(await Self.outcome(xml, parseModel, { $0 is ModelError }) == .refused)
        func elements(_ depth: Int) -> Data {
            Data((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8)
        }
        let parseTree: @Sendable (Data) throws -> Void = {
            _ = try XMLElementTree.parse($0, allowsDocumentType: false)
        }
        let limit = XMLElementTree.maximumDepth
        #expect(await Self.outcome(elements(limit), parseTree, { $0 is XMLElementTree.FormatError }) == .read)
        #expect(await Self.outcome(elements(limit + 1), parseTree, { $0 is XMLElementTree.FormatError }) == .refused)
    }

    @Test("Deeply nested JSON is refused by the mapping reader")
    func json() async {
        let depth = 100_000

        let json = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let empty = ObjectModel("Empty", entities: [])
        let decodeMapping: @Sendable (Data) throws -> Void = {
            _ = try MappingFile.decode($0, source: empty, destination: empty)
        }
        #expect(await Self.outcome(json, decodeMapping, { $0 is MappingError }) == .refused)
    }

    // MARK: Running

    /// What `read` did with `input` on a 512 KB stack: read, refused with an error `isRefusal`
    /// accepts (the reader's own type), or failed otherwise.
    static func outcome(
        _ input: Data, _ read: @escaping @Sendable (Data) throws -> Void,
        _ isRefusal: @escaping @Sendable (any Error) -> Bool
    ) async -> Outcome {
        await SmallStack.run {
            do {
                try read(input)
                return .read
            } catch {
                return isRefusal(error) ? .refused : .failed("\(type(of: error)): \(error)")
            }
        }
    }

    /// ``outcome(_:_:_:)`` of decoding `input` as a binary property list.
    static func outcome(ofPlist input: Data) async -> Outcome {
        await outcome(input, { _ = try BinaryPropertyList.decode($0) }, { $0 is BinaryPropertyList.FormatError })
    }

    // MARK: Inputs

    /// A binary property list of `depth` arrays, each holding the next, written without
    /// recursion so that any depth can be built: objects numbered outside in, 4-byte offsets
    /// and references.
    static func nestedPlist(_ depth: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        func append32(_ value: Int, to bytes: inout [UInt8]) {
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        for number in 0..<depth {
            offsets.append(bytes.count)
            if number < depth - 1 {
                bytes.append(0xA1)
                append32(number + 1, to: &bytes)
            } else {
                bytes.append(0xA0)
            }
        }
        let table = bytes.count
        for offset in offsets { append32(offset, to: &bytes) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4]
        for value in [depth, 0, table] {
            bytes += [0, 0, 0, 0]
            append32(value, to: &bytes)
        }
        return Data(bytes)
    }

    /// A keyed archive of `depth` `NSArray`s, each holding the next: `$objects` is flat, so the
    /// property list itself is shallow and only the archive's references nest.
    static func nestedArchive(_ depth: Int) -> Data {
        let classUID = depth + 1
        var objects: [Value] = [.string("$null")]
        for level in 1...depth {
            let elements: [Value] = level < depth ? [.uid(level + 1)] : []
            objects.append(.dictionary(["NS.objects": .array(elements), "$class": .uid(classUID)]))
        }
        objects.append(
            .dictionary([
                "$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")]),
            ]))
        return archive(objects, root: 1)
    }

    /// A compiled model whose entity `Box` has `depth` composite attributes, each the only
    /// element of the one outside it; the innermost holds a string.
    static func nestedComposites(_ depth: Int) -> Data {
        // 0 $null, 1 the model, 2 the entity, 3 its name, then each composite and its name, the
        // string and its name, then the dictionaries and the classes.
        var objects: [Value] = [.string("$null"), .null, .null, .string("Box")]
        var composites: [Int] = []
        for level in 0..<depth {
            composites.append(objects.count)
            objects.append(.null)
            objects.append(.string("c\(level)"))
        }
        let leaf = objects.count
        objects.append(.null)
        objects.append(.string("text"))
        let classes = objects.count
        let names = [
            "NSManagedObjectModel", "NSEntityDescription", "NSAttributeDescription", "NSMutableArray",
            "NSMutableDictionary",
        ]
        for name in names {
            objects.append(.dictionary(["$classname": .string(name), "$classes": .array([.string(name)])]))
        }
        func classUID(_ name: String) -> Value { .uid(classes + (names.firstIndex(of: name) ?? 0)) }
        for (level, uid) in composites.enumerated() {
            let element = level + 1 < depth ? composites[level + 1] : leaf
            let array = objects.count
            objects.append(.dictionary(["NS.objects": .array([.uid(element)]), "$class": classUID("NSMutableArray")]))
            objects[uid] = .dictionary([
                "NSPropertyName": .uid(uid + 1), "NSAttributeType": .integer(2100), "NSCompositeElements": .uid(array),
                "$class": classUID("NSAttributeDescription"),
            ])
        }
        objects[leaf] = .dictionary([
            "NSPropertyName": .uid(leaf + 1), "NSAttributeType": .integer(700),
            "$class": classUID("NSAttributeDescription"),
        ])
        return model(&objects, entityProperty: composites.first ?? leaf, classUID: classUID)
    }

    /// A compiled model whose composite attribute is its own element: a cycle the reader must
    /// stop at its nesting limit.
    static func selfContainingComposite() -> Data {
        var objects: [Value] = [.string("$null"), .null, .null, .string("Box"), .null, .string("loop")]
        let classes = objects.count
        let names = [
            "NSManagedObjectModel", "NSEntityDescription", "NSAttributeDescription", "NSMutableArray",
            "NSMutableDictionary",
        ]
        for name in names {
            objects.append(.dictionary(["$classname": .string(name), "$classes": .array([.string(name)])]))
        }
        func classUID(_ name: String) -> Value { .uid(classes + (names.firstIndex(of: name) ?? 0)) }
        let array = objects.count
        objects.append(.dictionary(["NS.objects": .array([.uid(4)]), "$class": classUID("NSMutableArray")]))
        objects[4] = .dictionary([
            "NSPropertyName": .uid(5), "NSAttributeType": .integer(2100), "NSCompositeElements": .uid(array),
            "$class": classUID("NSAttributeDescription"),
        ])
        return model(&objects, entityProperty: 4, classUID: classUID)
    }

    /// Fills objects 1 (the model) and 2 (its entity `Box`, named by object 3, with the one
    /// property `property`) and archives `objects`.
    private static func model(_ objects: inout [Value], entityProperty property: Int, classUID: (String) -> Value)
        -> Data
    {
        guard case .dictionary(let fields) = objects[property], case .uid(let nameUID)? = fields["NSPropertyName"]
        else { return Data() }
        let properties = objects.count
        objects.append(
            .dictionary([
                "NS.keys": .array([.uid(nameUID)]), "NS.objects": .array([.uid(property)]),
                "$class": classUID("NSMutableDictionary"),
            ]))
        let entities = objects.count
        objects.append(
            .dictionary([
                "NS.keys": .array([.uid(3)]), "NS.objects": .array([.uid(2)]),
                "$class": classUID("NSMutableDictionary"),
            ]))
        objects[2] = .dictionary([
            "NSEntityName": .uid(3), "NSProperties": .uid(properties), "$class": classUID("NSEntityDescription"),
        ])
        objects[1] = .dictionary(["NSEntities": .uid(entities), "$class": classUID("NSManagedObjectModel")])
        return archive(objects, root: 1)
    }

    private static func archive(_ objects: [Value], root: Int) -> Data {
        BinaryPropertyList.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
                "$top": .dictionary(["root": .uid(root)]), "$objects": .array(objects),
            ]))
    }
}

import Foundation

/// A reader of XML property lists into ``BinaryPropertyList/Value``s, on ``XMLElementTree``:
/// safe on malformed input, unlike swift-corelibs-foundation's `PropertyListSerialization`.
/// For the small files Xcode writes (`VersionInfo.plist` when it is XML).
enum PropertyListXML {
    static func decode(_ data: Data) throws(BinaryPropertyList.FormatError) -> BinaryPropertyList.Value {
        let root: XMLElementTree.Element
        do {
            root = try XMLElementTree.parse(data, allowsDocumentType: true)
        } catch {
            throw BinaryPropertyList.FormatError(error.reason)
        }
        guard root.name == "plist", root.children.count == 1 else {
            throw BinaryPropertyList.FormatError("not an XML property list (no <plist> with one value)")
        }
        return try value(root.children[0], depth: 0)
    }

    private static func value(_ element: XMLElementTree.Element, depth: Int) throws(BinaryPropertyList.FormatError)
        -> BinaryPropertyList.Value
    {
        guard depth < 64 else { throw BinaryPropertyList.FormatError("values nested deeper than 64 levels") }
        let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch element.name {
        case "string": return .string(element.text)
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "integer":
            guard let number = Int64(text) else { throw BinaryPropertyList.FormatError("the integer '\(text)'") }
            return .integer(number)
        case "real":
            guard let number = Double(text) else { throw BinaryPropertyList.FormatError("the real '\(text)'") }
            return .real(number)
        case "data":
            guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw BinaryPropertyList.FormatError("data that is not base64")
            }
            return .data(bytes)
        case "array":
            var values: [BinaryPropertyList.Value] = []
            for child in element.children { values.append(try value(child, depth: depth + 1)) }
            return .array(values)
        case "dict":
            guard element.children.count % 2 == 0 else {
                throw BinaryPropertyList.FormatError("a <dict> whose keys and values don't pair up")
            }
            var dictionary: [String: BinaryPropertyList.Value] = [:]
            for index in stride(from: 0, to: element.children.count, by: 2) {
                let key = element.children[index]
                guard key.name == "key" else { throw BinaryPropertyList.FormatError("a <dict> entry without a <key>") }
                dictionary[key.text] = try value(element.children[index + 1], depth: depth + 1)
            }
            return .dictionary(dictionary)
        default:
            throw BinaryPropertyList.FormatError("the element <\(element.name)>")
        }
    }
}

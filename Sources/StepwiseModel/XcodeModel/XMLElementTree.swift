import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The element tree of an XML file Xcode wrote: a model version's `contents` or a mapping
/// model's `xcmapping.xml`. One home for reading outside XML safely on Linux.
package enum XMLElementTree {
    /// An element: its name, attributes, child elements and text.
    package struct Element: Sendable {
        package var name: String
        package var attributes: [String: String]
        package var children: [Element] = []
        /// The character data directly inside the element, concatenated.
        package var text: String = ""

        /// The child elements named `name`, in document order.
        package func elements(forName name: String) -> [Element] {
            children.filter { $0.name == name }
        }

        /// The attribute's value, nil when the attribute is absent.
        ///
        /// An element of a model file has a handful of attributes, and the reader asks each
        /// attribute element for some sixteen names, most of them absent: comparing the name with
        /// each key costs less than hashing it (String equality is the dictionary's own).
        package func string(_ name: String) -> String? {
            guard attributes.count <= 8 else { return attributes[name] }
            for (key, value) in attributes where key == name { return value }
            return nil
        }
    }

    /// The deepest nesting of elements read; a file nesting deeper is refused.
    ///
    /// Xcode's files nest a handful of levels (`model`, `entity`, `attribute`, `userInfo`,
    /// `entry`). The tree is built without recursion, but releasing it and reading it recurse
    /// once per level, and libxml2 on Linux accepted 100,000 levels, which then overflowed even
    /// an 8 MB stack. 64 levels cost little of a 512 KB one (`SmallStackReaderTests`).
    package static let maximumDepth = 64

    /// Why a file is not XML Stepwise reads.
    package struct FormatError: Error, Sendable {
        package var reason: String
    }

    /// Parses `data` into its root element.
    ///
    /// - parameter allowsDocumentType: Whether one document type declaration without an internal
    ///   subset may precede the root element, as in `xcmapping.xml`
    ///   (`<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">`). It is blanked
    ///   out before parsing, so the DTD it names is never loaded.
    package static func parse(_ data: Data, allowsDocumentType: Bool) throws(FormatError) -> Element {
        // One pass of XMLParser builds the element tree. XMLDocument is not used: on Linux
        // (swift-corelibs-foundation) every node it makes from parsed data retains itself and
        // its document, so each document read leaked whole; it parses in libxml2's recovery
        // mode, accepting truncated files and mismatched tags; and it crashes instead of
        // throwing on a file with no element (empty, or a NUL byte). XMLParser reports those
        // errors, and "no root element" is checked below.
        //
        // XMLParser itself traps (a force-unwrap in swift-corelibs-foundation) when libxml2
        // hands it a name that is not UTF-8, which libxml2 does after falling back to Latin-1
        // on a byte that is not UTF-8 (`<\u{FF}…`). Xcode writes these files in UTF-8, so
        // anything else is refused before parsing.
        if let offset = firstNonUTF8Offset(in: data) {
            throw FormatError(reason: "not UTF-8 at byte offset \(offset) (Xcode writes model files in UTF-8)")
        }
        //
        // With a delegate set, XMLParser also crashes on a processing instruction without data
        // (`<?x?>`: it takes the length of libxml2's NULL), and its DTD callbacks force-unwrap
        // what libxml2 hands them. Xcode writes neither in a model; a mapping model's one
        // external document type declaration is blanked instead of parsed.
        var bytes = [UInt8](data)
        var parsed = data
        switch scanMarkup(bytes, allowsDocumentType: allowsDocumentType) {
        case .refused(let offset, let what):
            throw FormatError(reason: "\(what) at byte offset \(offset) (Xcode writes none in a model file)")
        case .accepted(let blanked) where !blanked.isEmpty:
            for index in blanked where bytes[index] != 0x0A { bytes[index] = 0x20 }
            parsed = Data(bytes)
        case .accepted:
            break
        }
        let parser = XMLParser(data: parsed)
        let builder = ElementTreeBuilder()
        parser.delegate = builder
        let isWellFormed = parser.parse() && parser.parserError == nil
        if builder.isTooDeep {
            throw FormatError(reason: "elements nested deeper than \(maximumDepth) levels (Xcode nests a handful)")
        }
        if !isWellFormed {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw FormatError(
                reason:
                    "not well-formed XML (XML parser error \(code) at line \(parser.lineNumber), column \(parser.columnNumber))"
            )
        }
        guard let root = builder.root else {
            throw FormatError(reason: "not well-formed XML (no root element)")
        }
        return root
    }

    private enum MarkupScan {
        case refused(offset: Int, what: String)
        /// The byte range of an accepted document type declaration, to blank out.
        case accepted(blanked: Range<Int>)
    }

    /// Finds the first processing instruction (other than the XML declaration that may open the
    /// file) or document type declaration, outside comments and CDATA sections.
    ///
    /// `<` can't appear in an attribute value, so outside comments and CDATA every `<` opens
    /// markup. An unterminated comment or section ends the scan; XMLParser reports it.
    private static func scanMarkup(_ bytes: [UInt8], allowsDocumentType: Bool) -> MarkupScan {
        func starts(_ text: [UInt8], at index: Int) -> Bool {
            bytes[index...].starts(with: text)
        }
        func end(of terminator: [UInt8], from index: Int) -> Int {
            var index = index
            while index < bytes.count, !starts(terminator, at: index) { index += 1 }
            return min(index + terminator.count, bytes.count)
        }
        let declaration = Array("<?xml".utf8)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // `<?xml` then white space: the declaration, not a processing instruction `<?xml-…?>`.
        let afterDeclaration = index + declaration.count
        if starts(declaration, at: index), afterDeclaration < bytes.count,
            [0x20, 0x09, 0x0D, 0x0A].contains(bytes[afterDeclaration])
        {
            index = end(of: Array("?>".utf8), from: afterDeclaration)
        }
        let comment = Array("<!--".utf8)
        let cdata = Array("<![CDATA[".utf8)
        let documentType = Array("<!DOCTYPE".utf8)
        var blanked: Range<Int> = 0..<0
        var seenElement = false
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            if starts(comment, at: index) {
                index = end(of: Array("-->".utf8), from: index + comment.count)
            } else if starts(cdata, at: index) {
                index = end(of: Array("]]>".utf8), from: index + cdata.count)
            } else if bytes[index + 1] == UInt8(ascii: "?") {
                return .refused(offset: index, what: "a processing instruction")
            } else if bytes[index + 1] == UInt8(ascii: "!") {
                guard allowsDocumentType, !seenElement, blanked.isEmpty, starts(documentType, at: index),
                    let close = externalDocumentTypeEnd(bytes, from: index + documentType.count)
                else {
                    return .refused(offset: index, what: "a document type declaration")
                }
                blanked = index..<close
                index = close
            } else {
                seenElement = true
                index += 1
            }
        }
        return .accepted(blanked: blanked)
    }

    /// The end (after `>`) of a document type declaration with no internal subset, skipping
    /// quoted literals; nil when it has an internal subset (`[`) or doesn't end.
    private static func externalDocumentTypeEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var quote: UInt8?
        for index in start..<bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "<") {
                return nil
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            }
        }
        return nil
    }

    /// The offset of the first byte that doesn't start a valid UTF-8 sequence, nil when all of
    /// `data` is UTF-8.
    ///
    /// Runs over the file's bytes in place: `Data`'s own iterator costs as much as the rest of
    /// the parse, and a bundle's every version is read when an upgrader is made. Model files are
    /// ASCII but for the odd name or comment, so the decoder starts at the first byte that isn't.
    private static func firstNonUTF8Offset(in data: Data) -> Int? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int? in
            guard let start = buffer.firstIndex(where: { $0 >= 0x80 }) else { return nil }
            var decoder = UTF8()
            var bytes = buffer[start...].makeIterator()
            var offset = start
            while true {
                switch decoder.decode(&bytes) {
                case .scalarValue(let scalar): offset += UTF8.width(scalar)
                case .emptyInput: return nil
                case .error: return offset
                }
            }
        }
    }
}

/// Builds the ``XMLElementTree/Element`` tree from XMLParser's events.
private final class ElementTreeBuilder: NSObject, XMLParserDelegate {
    /// The document's element once parsing ends; nil when it has none.
    private(set) var root: XMLElementTree.Element?
    /// The open elements, outermost first.
    private var open: [XMLElementTree.Element] = []
    /// Whether an element opened past ``XMLElementTree/maximumDepth``, which stopped the parse.
    private(set) var isTooDeep = false

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard open.count < XMLElementTree.maximumDepth else {
            isTooDeep = true
            parser.abortParsing()
            return
        }
        open.append(XMLElementTree.Element(name: elementName, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !open.isEmpty else { return }
        open[open.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = open.popLast() else { return }
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
    }
}

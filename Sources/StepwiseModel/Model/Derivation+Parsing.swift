extension Derivation {
    /// The shapes Stepwise reads, as a sentence for error messages.
    public static let supportedShapes =
        "a key path ('name', or 'toOne.attribute'), 'toMany.@count' or 'count:(toMany)', "
        + "'lowercase:(keyPath)', 'uppercase:(keyPath)', 'canonical:(keyPath)', 'now()', "
        + "or an aggregate of a to-many's attribute ('toMany.attribute.@sum', 'sum:(toMany.attribute)', "
        + "'min:(toMany.attribute)', 'max:(toMany.attribute)')"

    /// Reads a `derivationExpression` as a model file spells it; nil for any expression that
    /// isn't one of the shapes Core Data maintains with triggers (``supportedShapes``).
    ///
    /// Both spellings of a count and a sum are read: the key-path operator the model editor takes
    /// (`items.@count`, `items.price.@sum`) and the function NSExpression prints
    /// (`count:(items)`, `sum:(items.price)`). `-[NSDerivedAttributeDescription
    /// setDerivationExpression:]` turns `.@count`, `.@sum` and `.@total` into those functions
    /// (decompiled Core Data; no corpus store has a count or an aggregate). The aggregates are
    /// `sum:`, `min:` and `max:` only: the trigger generator (`NSSQLDerivedAttributeSQLGenerator`,
    /// decompiled) refuses every other function, `average:` included.
    public init?(parsing expression: String) {
        let text = expression.trimmingSpaces
        guard let kind = Self.kind(of: text) else { return nil }
        self.init(expression: expression, kind: kind)
    }

    /// The expression as `-[NSExpression predicateFormat]` prints it, which Core Data mixes into
    /// the attribute's version hash (`VersionHasher`): a key path as written, a function as
    /// `name:(arguments)`, `now()`.
    public var predicateFormat: String {
        switch kind {
        case .keyPath(let path): return path.joined(separator: ".")
        case .count(let relationship): return "count:(\(relationship.joined(separator: ".")))"
        case .string(let function, let path): return "\(function.rawValue):(\(path.joined(separator: ".")))"
        case .now: return "now()"
        case .aggregate(let function, let relationship, let attribute):
            let path = (relationship + [attribute]).joined(separator: ".")
            // `setDerivationExpression:` rewrites only `.@sum` (and `.@total`) into a function;
            // a key path ending in `.@min` or `.@max` keeps its text (decompiled Core Data).
            let written = expression.trimmingSpaces
            if function != .sum, written.hasSuffix(".@\(function.rawValue)") { return written }
            return "\(function.rawValue):(\(path))"
        }
    }

    private static func kind(of text: String) -> Kind? {
        if text == "now()" { return .now }
        if let (name, argument) = functionCall(text) {
            guard let path = keyPath(argument) else { return nil }
            if let function = StringFunction(rawValue: name) { return .string(function, keyPath: path) }
            if name == "count" { return .count(relationship: path) }
            if let function = AggregateFunction(rawValue: name), path.count >= 2 {
                return .aggregate(function, relationship: Array(path.dropLast()), attribute: path[path.count - 1])
            }
            return nil
        }
        var components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = components.last, last.hasPrefix("@") else {
            return keyPath(text).map { .keyPath($0) }
        }
        components.removeLast()
        guard components.allSatisfy(isIdentifier), !components.isEmpty else { return nil }
        switch last {
        case "@count": return .count(relationship: components)
        case "@sum", "@total", "@min", "@max":
            guard components.count >= 2 else { return nil }
            let function: AggregateFunction =
                last == "@min" ? .min : last == "@max" ? .max : .sum
            return .aggregate(
                function, relationship: Array(components.dropLast()), attribute: components[components.count - 1])
        default: return nil
        }
    }

    /// `name:(argument)` split in two; nil for anything else.
    private static func functionCall(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":"), text.hasSuffix(")") else { return nil }
        let name = String(text[..<colon])
        let rest = text[text.index(after: colon)...].trimmingSpaces
        guard isIdentifier(name), rest.hasPrefix("("), rest.hasSuffix(")") else { return nil }
        return (name, String(rest.dropFirst().dropLast()).trimmingSpaces)
    }

    /// The components of a plain key path (`a.b`); nil when one isn't a name.
    private static func keyPath(_ text: String) -> [String]? {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return components.allSatisfy(isIdentifier) ? components : nil
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else {
            return false
        }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

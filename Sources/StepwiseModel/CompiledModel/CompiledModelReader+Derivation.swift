extension CompiledModelReader {
    /// The text of an archived `NSDerivedAttributeDescription`'s `NSDerivationExpression`, as
    /// `predicateFormat` prints it; nil when the attribute archives none.
    ///
    /// A key path is an `NSKeyPathExpression` (type 3) whose `NSArguments` hold one
    /// `NSKeyPathSpecifierExpression` with the `NSKeyPath` text: Photos' `Z_MODELCACHE`
    /// (`Asset.derivedCameraCaptureDevice`, `GraphNode.primaryLabelCode`, corpus
    /// `Test-PhotoScript-13.0.1` and `-15.7.1.photoslibrary`). A function is an
    /// `NSFunctionExpression` (type 4) with `NSSelectorName` (`count:`, `now`) and
    /// `NSArguments`: from Foundation's archiving of NSExpression, not shown by a corpus store.
    /// Any other expression reads as a description naming its class, which validation refuses.
    func derivationText(_ object: KeyedArchive.Object, what: String) throws(ModelError) -> String? {
        guard let expression = try access.object(object.fields["NSDerivationExpression"], "the derivation of \(what)")
        else { return nil }
        return try text(of: expression, what: "the derivation of \(what)", depth: 0)
    }

    private func text(of expression: KeyedArchive.Object, what: String, depth: Int) throws(ModelError) -> String {
        // Real derivations nest one level (a function of a key path); this bounds a self-referring archive.
        guard depth < 8 else { throw access.unreadable("\(what) nests expressions more than 8 deep") }
        switch expression.className {
        case "NSKeyPathExpression":
            let arguments = try access.elements(expression.fields["NSArguments"], "the key path of \(what)")
            guard arguments.count == 1, let specifier = try access.object(arguments[0], "the key path of \(what)")
            else {
                throw access.unreadable("\(what) is a key path expression without one key path")
            }
            guard let keyPath = try access.string(specifier.fields["NSKeyPath"], "the key path of \(what)") else {
                throw access.unreadable("\(what) is a key path expression without a key path")
            }
            return keyPath
        case "NSFunctionExpression":
            guard let selector = try access.string(expression.fields["NSSelectorName"], "the function of \(what)")
            else {
                throw access.unreadable("\(what) is a function expression without a function")
            }
            var arguments: [String] = []
            for value in try access.elements(expression.fields["NSArguments"], "the arguments of \(what)") {
                guard let argument = try access.object(value, "an argument of \(what)") else {
                    throw access.unreadable("\(what) has a nil argument")
                }
                arguments.append(try text(of: argument, what: what, depth: depth + 1))
            }
            // `now` takes no argument and prints as `now()`; `count:` prints as `count:(items)`.
            return "\(selector)(\(arguments.joined(separator: ", ")))"
        default:
            return "<\(expression.className)>"
        }
    }
}

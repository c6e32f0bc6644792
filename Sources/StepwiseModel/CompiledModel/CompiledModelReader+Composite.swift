extension CompiledModelReader {
    /// The most levels of nested composites read (``CompiledModel/compositeNestingLimit``).
    static let compositeDepthLimit = CompiledModel.compositeNestingLimit

    /// The elements of an archived `NSCompositeAttributeDescription` (type 2100), in order.
    ///
    /// Core Data archives them as an array of attribute descriptions under
    /// `NSCompositeElements` (`-[NSCompositeAttributeDescription encodeWithCoder:]` and
    /// `initWithCoder:`, decompiled Core Data 17.0); an element may be a composite itself. A
    /// compiled model keeps no name for the definition, so ``Attribute/compositeName`` stays nil.
    ///
    /// - parameters:
    ///   - object: The composite attribute's archived object.
    ///   - entity: The entity (or enclosing composite, `Book.author`) it belongs to.
    ///   - name: The attribute's name.
    ///   - depth: How many composites enclose it.
    func compositeElements(_ object: KeyedArchive.Object, entity: String, name: String, depth: Int)
        throws(ModelError) -> [Attribute]
    {
        let what = "the elements of attribute '\(entity).\(name)'"
        guard depth < Self.compositeDepthLimit else {
            throw access.unreadable("\(what) nest more than \(Self.compositeDepthLimit) composites deep")
        }
        var elements: [Attribute] = []
        for value in try access.elements(object.fields["NSCompositeElements"], what) {
            guard let element = try access.object(value, what) else {
                throw access.unreadable("\(what) include one that is not an attribute")
            }
            elements.append(try attribute(element, entity: "\(entity).\(name)", depth: depth + 1))
        }
        return elements
    }
}

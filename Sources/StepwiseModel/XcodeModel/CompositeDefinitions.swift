/// The model-level composite definitions of a `contents` file, by name.
///
/// Xcode's model editor (15 and later) keeps a composite's elements once, at model level, and
/// an entity attribute of type Composite names the definition it uses:
///
/// ```xml
/// <entity name="Book" …>
///     <attribute name="author" optional="YES" attributeType="Composite" composite="Author"/>
/// </entity>
/// <composite name="Author">
///     <attribute name="person" optional="YES" attributeType="String"/>
/// </composite>
/// ```
///
/// `<composite name="…">` beside the entities, holding `<attribute>` elements, is how MomXML
/// reads Xcode's files (phimage/MomXML, `MomCompositeAttribute+XMLObject.swift` and
/// `MomModel+XMLObject.swift`, June 2023); one other reader spells the element
/// `<compositeAttribute>`, which is read too. The `composite` attribute that links the two is
/// not shown by either and is unconfirmed; a composite attribute without it is refused by name.
/// An element may itself be a composite naming another definition; a definition that contains
/// itself is refused.
struct CompositeDefinitions {
    /// The element names a definition may have.
    static let elementNames = ["composite", "compositeAttribute"]

    private var definitions: [String: XMLElementTree.Element] = [:]

    /// No definitions.
    init() {}

    /// The definitions directly under `model`, the first of each name.
    init(model: XMLElementTree.Element) {
        for name in Self.elementNames {
            for element in model.elements(forName: name) {
                guard let definition = element.string("name"), definitions[definition] == nil else { continue }
                definitions[definition] = element
            }
        }
    }

    /// The elements of the composite attribute `attribute` of `entity`, read with `read`.
    ///
    /// - parameters:
    ///   - attribute: The composite attribute's element.
    ///   - what: The attribute as errors name it (`attribute 'Book.author'`).
    ///   - enclosing: The definitions being read around this one, outermost first.
    ///   - path: The file named in errors.
    ///   - read: Reads one element's `<attribute>` within the definition `name`.
    /// - throws: ``ModelError/Kind/invalidValue(element:attribute:value:)`` for a missing or
    ///   unknown definition, or one that contains itself.
    func elements(
        of attribute: XMLElementTree.Element, what: String, enclosing: [String], path: String,
        read: (_ element: XMLElementTree.Element, _ definition: String) throws(ModelError) -> Attribute
    ) throws(ModelError) -> (name: String, elements: [Attribute]) {
        let name = attribute.string("composite")
        guard let name, let definition = definitions[name], !enclosing.contains(name) else {
            throw ModelError(path: path, kind: .invalidValue(element: what, attribute: "composite", value: name))
        }
        var elements: [Attribute] = []
        for child in definition.elements(forName: "attribute") {
            elements.append(try read(child, name))
        }
        return (name, elements)
    }
}

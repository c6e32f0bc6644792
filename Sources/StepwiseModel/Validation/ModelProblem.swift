/// One thing wrong with a model, precise enough to fix without searching.
public enum ModelProblem: Sendable, Hashable, CustomStringConvertible {
    /// An entity or property has an empty name.
    case emptyName(entity: String?)
    /// Two entities share a name.
    case duplicateEntity(String)
    /// Two properties of one entity (own or inherited) share a name.
    case duplicateProperty(entity: String, property: String)
    /// `parentEntity` names an entity the model does not have.
    case unknownParent(entity: String, parent: String)
    /// An entity is its own ancestor; the cycle lists the entities in order.
    case inheritanceCycle([String])
    /// A relationship's destination is not in the model.
    case unknownDestination(entity: String, relationship: String, destination: String)
    /// A relationship names an inverse that its destination does not have.
    case unknownInverse(entity: String, relationship: String, destination: String, inverse: String)
    /// A relationship's inverse points to some other relationship or entity.
    case inverseMismatch(entity: String, relationship: String, inverseEntity: String, inverse: String)
    /// A to-one relationship's inverse is a to-one that points to some other relationship: a
    /// warning (``isWarning``), since each to-one keeps its own foreign key whatever its inverse.
    case oneToOneInverseMismatch(entity: String, relationship: String, inverseEntity: String, inverse: String)
    /// A uniqueness constraint, compound index or fetch index names a missing property.
    case unknownIndexedProperty(entity: String, property: String, in: String)
    /// A stored (non-transient) attribute has Xcode's *Undefined* type, which Core Data allows
    /// on transient attributes only.
    case undefinedTypeStored(entity: String, attribute: String)
    /// An element of a composite attribute that Core Data refuses; `attribute` is the
    /// element's key path (`author.id`).
    case invalidCompositeElement(entity: String, attribute: String, reason: String)
    /// A derived attribute's expression is none of the shapes Core Data maintains with
    /// triggers (``Derivation/supportedShapes``).
    case unsupportedDerivation(entity: String, attribute: String, expression: String)
    /// A derived attribute's expression names a property the model doesn't have, or one of
    /// the wrong kind: `reason` says which.
    case unresolvedDerivation(entity: String, attribute: String, expression: String, reason: String)

    /// Whether Core Data loads a model with this problem, so that it is a warning (as Xcode
    /// gives one) rather than a reason to refuse the model.
    ///
    /// Refused: empty or duplicate names, unknown parents, inheritance cycles, destinations and
    /// inverses the model doesn't have, and what the other cases name, which Core Data refuses
    /// or which leave a store's layout unknown. Warned about: a to-one whose inverse is a to-one
    /// that doesn't point back. Xcode's model compiler warns ("inverse relationship does not
    /// point back") and compiles it; Core Data loads it and migrates its stores: seven versions
    /// of Artsy's `ArtsyPartner` model have `Image.artist` with the inverse `Artist.thumbnail`,
    /// whose own inverse is `Image.thumbnail`, and Artsy's shipped app opened its stores with
    /// them. Each to-one keeps its own foreign key, so the layout is the same as with no
    /// mismatch (Artsy's four stores, 419 and 479, have it). A to-many with such an inverse is
    /// still refused: which table holds its links depends on Core Data's reading of the
    /// mismatch, and no store shows it.
    public var isWarning: Bool {
        if case .oneToOneInverseMismatch = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .emptyName(let entity):
            if let entity { return "entity '\(entity)' has a property with an empty name" }
            return "an entity has an empty name"
        case .duplicateEntity(let name):
            return "two entities are named '\(name)'; rename one"
        case .duplicateProperty(let entity, let property):
            return "entity '\(entity)' has two properties named '\(property)' (own or inherited); rename one"
        case .unknownParent(let entity, let parent):
            return "entity '\(entity)' has parent '\(parent)', which is not in the model"
        case .inheritanceCycle(let names):
            return "inheritance cycle: \(names.joined(separator: " → "))"
        case .unknownDestination(let entity, let relationship, let destination):
            return "relationship '\(entity).\(relationship)' points to '\(destination)', which is not in the model"
        case .unknownInverse(let entity, let relationship, let destination, let inverse):
            return
                "relationship '\(entity).\(relationship)' has inverse '\(inverse)', but '\(destination)' has no such relationship"
        case .inverseMismatch(let entity, let relationship, let inverseEntity, let inverse),
            .oneToOneInverseMismatch(let entity, let relationship, let inverseEntity, let inverse):
            return
                "relationship '\(entity).\(relationship)' has inverse '\(inverseEntity).\(inverse)', which does not point back to it"
        case .unknownIndexedProperty(let entity, let property, let place):
            return "\(place) of entity '\(entity)' names '\(property)', which the entity does not have"
        case .undefinedTypeStored(let entity, let attribute):
            return
                "attribute '\(entity).\(attribute)' has type Undefined but is not transient; Core Data allows Undefined on transient attributes only: give it a type or mark it transient"
        case .invalidCompositeElement(let entity, let attribute, let reason):
            return "composite element '\(entity).\(attribute)' is refused by Core Data: \(reason); change the element"
        case .unsupportedDerivation(let entity, let attribute, let expression):
            return
                "derived attribute '\(entity).\(attribute)' has the expression '\(expression)', which Core Data can't keep current with triggers; use \(Derivation.supportedShapes), or make it a plain attribute"
        case .unresolvedDerivation(let entity, let attribute, let expression, let reason):
            return
                "derived attribute '\(entity).\(attribute)' has the expression '\(expression)', but \(reason); fix the key path in the model"
        }
    }
}

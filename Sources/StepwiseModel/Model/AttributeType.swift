/// The type of an attribute, one case per Core Data attribute type.
///
/// The raw value is the name Xcode writes in a model file's `attributeType`
/// (`"Integer 16"`, `"Binary"`, …).
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case transformable = "Transformable"
    case uuid = "UUID"
    case uri = "URI"
    case objectID = "ObjectID"
    /// Xcode's *Undefined* type, which Core Data allows on transient attributes only: such an
    /// attribute has no column and no part in the version hash. Validation refuses it on a
    /// stored attribute (``ModelProblem``).
    case undefined = "Undefined"
    /// A composite attribute (iOS 17, `NSCompositeAttributeDescription`): a group of
    /// ``Attribute/elements`` stored as one column each, as SwiftData stores a Codable struct.
    case composite = "Composite"

    /// The code Core Data mixes into an attribute's version hash
    /// (`NSAttributeType`'s raw value; corpus README §4.3).
    public var versionHashCode: UInt32 {
        switch self {
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        case .undefined: 0
        case .composite: 2100
        }
    }

    /// Whether values of this type are integers (Boolean included, as Core Data stores it).
    public var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: true
        default: false
        }
    }
}

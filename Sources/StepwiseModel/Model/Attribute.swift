/// A stored or transient value of an entity: Core Data's `NSAttributeDescription`.
///
/// Only `name`, `type`, `isOptional`, `isTransient`, `versionHashModifier`,
/// `allowsExternalBinaryDataStorage` and `preservesValueInHistoryOnDeletion` take part in the
/// version hash (`VersionHasher`); a derived attribute is hashed by its ``derivation``'s
/// expression alone. The rest (defaults, indexes, min/max, user info) can
/// change freely between model versions without making a store incompatible.
public struct Attribute: Sendable, Hashable {
    /// The property's name, unique within its entity and ancestors.
    public var name: String
    /// The value type.
    public var type: AttributeType
    /// Whether the value may be nil. Xcode's default for a new attribute is `true`.
    public var isOptional: Bool
    /// A transient attribute is not stored, so it has no column and no part in the hash.
    public var isTransient: Bool
    /// Whether Core Data creates a `<TABLE>_<COLUMN>_INDEX` index for it.
    public var isIndexed: Bool
    /// The default value exactly as the model file spells it (`defaultValueString`).
    public var defaultValue: String?
    /// The minimum value or length, as the model file spells it.
    public var minValue: String?
    /// The maximum value or length, as the model file spells it.
    public var maxValue: String?
    /// The property's name in an earlier version (`elementID` in Xcode's model files).
    public var renamingIdentifier: String?
    /// A string mixed into the version hash to force a new version.
    public var versionHashModifier: String?
    /// Binary data may live outside the store file (`allowsExternalBinaryDataStorage`).
    public var allowsExternalBinaryDataStorage: Bool
    /// The value is kept in the persistent history's tombstone when the object is deleted
    /// (Xcode's `preserveAfterDeletion`, `NSAttributeDescription.preservesValueInHistoryOnDeletion`).
    public var preservesValueInHistoryOnDeletion: Bool
    /// The value transformer of a Transformable attribute.
    public var valueTransformerName: String?
    /// The class a Transformable attribute holds (`customClassName`).
    public var customClassName: String?
    /// Xcode's `usesScalarValueType`, kept so models round-trip; no schema effect.
    public var usesScalarValueType: Bool?
    /// Free-form key/value pairs.
    public var userInfo: [String: String]
    /// The elements of a ``AttributeType/composite`` attribute, in declared order; each may be a
    /// composite itself. Empty for every other type (see `Attribute+Composite.swift`).
    public var elements: [Attribute] = []
    /// The name of the model-level `<composite>` definition a source model's composite attribute
    /// uses (`composite="Address"`); nil for other types and for compiled models, which keep none.
    public var compositeName: String? = nil
    /// How the value is computed when the attribute is derived (`NSDerivedAttributeDescription`);
    /// nil for a plain attribute. A derived value is stored in its column like any other and
    /// kept current by Core Data's `Z_DA_…` triggers (see ``Derivation``).
    public var derivation: Derivation? = nil
    /// A derivation expression read or built that is none of the shapes Core Data maintains
    /// (``Derivation/supportedShapes``), kept as written so validation can refuse it by name
    /// (``ModelProblem/unsupportedDerivation(entity:attribute:expression:)``) and a model
    /// round-trips; nil otherwise. At most one of it and ``derivation`` is set.
    public var unsupportedDerivationExpression: String? = nil

    /// Creates an attribute. New attributes are optional, as in Xcode.
    public init(
        _ name: String,
        _ type: AttributeType,
        isOptional: Bool = true,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        defaultValue: String? = nil,
        minValue: String? = nil,
        maxValue: String? = nil,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false,
        valueTransformerName: String? = nil,
        customClassName: String? = nil,
        usesScalarValueType: Bool? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.usesScalarValueType = usesScalarValueType
        self.userInfo = userInfo
    }
}

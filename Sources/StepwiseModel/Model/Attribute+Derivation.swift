extension Attribute {
    /// A derived attribute (`NSDerivedAttributeDescription`): `expression` as a model file
    /// spells it, `additionalAttributes.cameraCaptureDevice` or `count:(items)`.
    ///
    /// Doesn't throw: an expression Stepwise can't read is kept as written and refused by
    /// `ObjectModel/validate(file:)` with ``ModelProblem/unsupportedDerivation(entity:attribute:expression:)``,
    /// as when it is read from a model file; validation also checks the key path resolves.
    public static func derived(_ name: String, _ type: AttributeType, _ expression: String, isOptional: Bool = true)
        -> Attribute
    {
        var attribute = Attribute(name, type, isOptional: isOptional)
        attribute.derivationExpression = expression
        return attribute
    }

    /// The derivation's expression as written, readable or not; nil for a plain attribute.
    /// Setting it parses the text into ``derivation`` or, when it is none of the supported
    /// shapes, keeps it in ``unsupportedDerivationExpression``.
    public var derivationExpression: String? {
        get { derivation?.expression ?? unsupportedDerivationExpression }
        set {
            derivation = newValue.flatMap { Derivation(parsing: $0) }
            unsupportedDerivationExpression = derivation == nil ? newValue : nil
        }
    }

    /// Whether the attribute is derived (Xcode's `derived="YES"`).
    public var isDerived: Bool { derivationExpression != nil }
}

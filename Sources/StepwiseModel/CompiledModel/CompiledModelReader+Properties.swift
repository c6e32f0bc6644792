import Foundation

extension CompiledModelReader {
    /// An `NSAttributeDescription`, a derived one (`NSDerivedAttributeDescription`, with its
    /// expression) or a composite one.
    func attribute(_ object: KeyedArchive.Object, entity: String, depth: Int = 0) throws(ModelError) -> Attribute {
        let name = try requiredString(object, "NSPropertyName", "an attribute of entity '\(entity)'")
        let what = "attribute '\(entity).\(name)'"
        let code = try access.integer(object.fields["NSAttributeType"], "the type of \(what)") ?? 0
        guard let type = Self.attributeTypes[code] else {
            throw ModelError(
                path: access.origin, kind: .invalidValue(element: what, attribute: "NSAttributeType", value: "\(code)"))
        }
        // `NSFlagsKey` is the only place external storage is archived: bit 2 (4) external
        // storage, bit 4 (16) preserved after deletion (`-[NSAttributeDescription
        // encodeWithCoder:]` and `initWithCoder:`, decompiled Core Data 26.1, which map them to
        // `_storeBinaryDataExternally` and `_preserveValueOnDelete`), as the hashes of Screen
        // Time's and Photos' stores confirm (``VersionHasher``; Photos' `ProjectAlbum.projectData`
        // has 4). Bits 0 and 1 say a max or min value follows (`NSMaxValueName`,
        // `NSMinValueName`), bit 5 a file-backed future; none is hashed.
        //
        // `NSIsStoredInTruth` is not external storage, and is not read: it is
        // `isStoredInExternalRecord` (`-[NSPropertyDescription encodeWithCoder:]` writes it, with
        // bit 0x200 of `_P`, exactly when that is true; `initWithCoder:` sets
        // `_isStoredInExternalRecord`, a bit of its own beside `_storeBinaryDataExternally`), the
        // Spotlight external record file that Xcode's source spells `storedInTruthFile="YES"`
        // (the selectors `isStoredInTruthFile` and `setStoredInTruthFile:` alias it). Core Data's
        // `-[NSAttributeDescription _versionHash:inStyle:]` hashes `allowsExternalBinaryDataStorage`
        // only, and the source reader ignores `storedInTruthFile`. Taking it for external storage
        // gave an entity with such an attribute, and every subentity, a hash that isn't Xcode's
        // (issue 42: `Parent.data` and its subentity `DerivedParent`, whose name sorts first).
        let flags = try access.integer(object.fields["NSFlagsKey"], "the flags of \(what)") ?? 0
        let className = try access.string(object.fields["NSAttributeValueClassName"], "the value class of \(what)")
        var attribute = Attribute(
            name, type,
            isOptional: try access.flag(object.fields["NSIsOptional"]),
            isTransient: try access.flag(object.fields["NSIsTransient"]),
            isIndexed: try access.flag(object.fields["NSIsIndexed"]),
            defaultValue: try ArchivedDefaultValue(access: access, what: what)
                .text(object.fields["NSDefaultValue"], type: type),
            renamingIdentifier: try renamingIdentifier(object, name: name, what: what),
            versionHashModifier: try access.string(
                object.fields["NSVersionHashModifier"], "the version hash modifier of \(what)"),
            allowsExternalBinaryDataStorage: flags & 4 != 0,
            preservesValueInHistoryOnDeletion: flags & 16 != 0,
            valueTransformerName: try access.string(
                object.fields["NSValueTransformerName"], "the value transformer of \(what)"),
            // Every attribute archives its value class (`NSString`, `NSNumber`); the source names
            // one only for a Transformable's custom class.
            customClassName: type == .transformable ? className : nil,
            userInfo: try access.strings(object.fields["NSUserInfo"], "the user info of \(what)"))
        if type == .composite {
            attribute.elements = try compositeElements(object, entity: entity, name: name, depth: depth)
        }
        if object.className == "NSDerivedAttributeDescription" {
            attribute.derivationExpression = try derivationText(object, what: what) ?? ""
        }
        return attribute
    }

    /// An `NSRelationshipDescription`.
    func relationship(_ object: KeyedArchive.Object, entity: String) throws(ModelError) -> Relationship {
        let name = try requiredString(object, "NSPropertyName", "a relationship of entity '\(entity)'")
        let what = "relationship '\(entity).\(name)'"
        // The destination and the inverse are archived both as objects and as names; the object
        // wins, the name stands in where the object is absent.
        var destination = try access.string(object.fields["_NSDestinationEntityName"], "the destination of \(what)")
        if let entity = try access.object(object.fields["NSDestinationEntity"], "the destination of \(what)") {
            destination = try requiredString(entity, "NSEntityName", "the destination of \(what)")
        }
        guard let destination, !destination.isEmpty else {
            throw ModelError(
                path: access.origin, kind: .invalidValue(element: what, attribute: "NSDestinationEntity", value: nil))
        }
        var inverse = try access.string(object.fields["_NSInverseRelationshipName"], "the inverse of \(what)")
        if let relationship = try access.object(object.fields["NSInverseRelationship"], "the inverse of \(what)") {
            inverse = try requiredString(relationship, "NSPropertyName", "the inverse of \(what)")
        }
        let ruleCode = try access.integer(object.fields["NSDeleteRule"], "the delete rule of \(what)") ?? 1
        guard let rule = Self.deletionRules[ruleCode] else {
            throw ModelError(
                path: access.origin, kind: .invalidValue(element: what, attribute: "NSDeleteRule", value: "\(ruleCode)")
            )
        }
        let minCount = try access.integer(object.fields["NSMinCount"], "the minimum count of \(what)") ?? 0
        let maxCount = try access.integer(object.fields["NSMaxCount"], "the maximum count of \(what)") ?? 0
        guard minCount >= 0, maxCount >= 0 else {
            throw ModelError(
                path: access.origin,
                kind: .invalidValue(
                    element: what, attribute: minCount < 0 ? "NSMinCount" : "NSMaxCount",
                    value: "\(min(minCount, maxCount))"))
        }
        return Relationship(
            name, destination: destination,
            inverse: inverse,
            // Core Data's rule: a relationship is to-one exactly when its maximum count is 1
            // (0 means unbounded).
            isToMany: maxCount != 1,
            isOrdered: try access.flag(object.fields["NSIsOrdered"]),
            minCount: minCount,
            maxCount: maxCount,
            deletionRule: rule,
            isOptional: try access.flag(object.fields["NSIsOptional"]),
            isTransient: try access.flag(object.fields["NSIsTransient"]),
            renamingIdentifier: try renamingIdentifier(object, name: name, what: what),
            versionHashModifier: try access.string(
                object.fields["NSVersionHashModifier"], "the version hash modifier of \(what)"),
            userInfo: try access.strings(object.fields["NSUserInfo"], "the user info of \(what)"))
    }

    /// Core Data's `NSAttributeType` codes (``AttributeType/versionHashCode``).
    static let attributeTypes: [Int: AttributeType] = Dictionary(
        uniqueKeysWithValues: AttributeType.allCases.map { (Int($0.versionHashCode), $0) })

    /// Core Data's `NSDeleteRule` codes.
    static let deletionRules: [Int: DeletionRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]
}

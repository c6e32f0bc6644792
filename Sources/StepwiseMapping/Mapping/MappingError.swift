import Foundation
import StepwiseModel
import StepwiseStore

/// A mapping that can't be read, inferred or run, naming the file, mapping, entity,
/// property and source row concerned.
///
/// Switch on ``kind`` to tell the cases apart; ``description`` is the sentence to show.
public struct MappingError: Error, Sendable, Hashable, LocalizedError, ReportableError {
    public enum Kind: Sendable, Hashable {
        /// Expression or predicate syntax error at a 1-based line and column.
        case syntax(message: String, line: Int, column: Int)
        /// The mapping file is not valid JSON of the documented shape.
        case invalidFile(String)
        /// An Xcode mapping model's archived value (`valueexpressiondata`, `userinfodata`) is not
        /// a keyed archive Stepwise can read.
        case unreadableArchive(String)
        /// An Xcode mapping model holds an archived class or expression Stepwise can't run;
        /// `className` is the archive's class name.
        case unsupportedExpression(className: String, reason: String)
        /// A mapping file fits no pair of the history's versions, or several.
        case noMatchingVersions(String)
        /// The mapping names an entity its model version doesn't have.
        case unknownEntity(String, version: String)
        /// The mapping names a property its entity doesn't have.
        case unknownProperty(entity: String, property: String, version: String)
        /// `FUNCTION` names a selector no policy or manager function handles.
        case unknownFunction(String)
        /// An entity mapping names a policy that isn't registered.
        case unknownPolicy(String)
        /// A relationship mapping names an entity mapping that doesn't exist.
        case unknownEntityMapping(String)
        /// An expression's value doesn't fit the destination property.
        case invalidValue(String)
        /// A value for a destination attribute (an expression's, a policy's, or one a policy
        /// wrote itself) doesn't have the attribute's form: a date given as text, bytes that are
        /// not an archive for a Transformable. `given` says what it was, never its content.
        case wrongValueForm(expected: AttributeValueForm, given: String)
        /// A composite attribute's whole value (``MappingValue/composite(_:)``, from an expression
        /// or a policy) has an element its composite in `version` doesn't have; `element` is
        /// its key path inside the composite (`born.era`).
        case unknownCompositeElement(entity: String, attribute: String, element: String, version: String)
        /// A composite attribute was given a value that is not a composite
        /// (``MappingValue/composite(_:)``) nor nil; `given` says what it was, never its content.
        case notACompositeValue(entity: String, attribute: String, given: String)
        /// A destination object breaks a rule of its model (pass 3).
        case validation(String)
        /// A policy threw.
        case policyFailed(String)
        /// When the step ended, two destination objects held the same values of a uniqueness
        /// constraint (the error's entity and property name it). Core Data checks uniqueness
        /// when the migration saves, so this is checked when the step ends, never statement by
        /// statement. `value` spells the shared values (`"swift"`, or `("swift", 2)` for
        /// several properties); `rows` says where each of the two objects came from.
        case notUnique(value: String, rows: [RowOrigin])
        /// The mapping can't be inferred; each reason names an entity or property and a fix.
        case notInferable([InferenceProblem])
        /// Two different mapping models of the step `from` → `to` both map `sourceEntity` to
        /// `destinationEntity`: run in sequence, they would create those instances twice.
        /// ``MappingError/file`` is one file and `otherFile` the other; `difference` is the first
        /// thing their entity mappings of that pair say differently, when they do.
        case overlappingMappingModels(
            from: String, to: String, sourceEntity: String, destinationEntity: String, otherFile: String,
            difference: String?)
        /// Anything else the step reports.
        case failed(String)
        /// `MappingComposition` won't merge two inferred steps into one pass; the error's
        /// entity and property name where. Not a failure of the upgrade: the planner runs the
        /// two steps one after the other.
        case notComposable(CompositionReason)
    }

    public var kind: Kind
    /// The mapping file, when the mapping came from one.
    public var file: String?
    /// The mapping model's name ("A → B").
    public var mappingModel: String?
    /// The entity mapping's name.
    public var entityMapping: String?
    /// The entity concerned.
    public var entity: String?
    /// The property concerned.
    public var property: String?
    /// The source row's `Z_PK`, when one row is at fault.
    public var sourcePrimaryKey: Int64?

    public init(
        _ kind: Kind, file: String? = nil, mappingModel: String? = nil, entityMapping: String? = nil,
        entity: String? = nil, property: String? = nil, sourcePrimaryKey: Int64? = nil
    ) {
        self.kind = kind
        self.file = file
        self.mappingModel = mappingModel
        self.entityMapping = entityMapping
        self.entity = entity
        self.property = property
        self.sourcePrimaryKey = sourcePrimaryKey
    }

    /// A copy with more context filled in where it is still missing.
    public func adding(
        file: String? = nil, mappingModel: String? = nil, entityMapping: String? = nil, entity: String? = nil,
        property: String? = nil, sourcePrimaryKey: Int64? = nil
    ) -> MappingError {
        var copy = self
        copy.file = copy.file ?? file
        copy.mappingModel = copy.mappingModel ?? mappingModel
        copy.entityMapping = copy.entityMapping ?? entityMapping
        copy.entity = copy.entity ?? entity
        copy.property = copy.property ?? property
        copy.sourcePrimaryKey = copy.sourcePrimaryKey ?? sourcePrimaryKey
        return copy
    }

    public var description: String {
        var place: [String] = []
        if let file { place.append(file) }
        if let mappingModel { place.append("mapping \(mappingModel)") }
        if let entityMapping { place.append("entity mapping \(entityMapping)") }
        if let entity { place.append(property.map { "\(entity).\($0)" } ?? entity) }
        if let sourcePrimaryKey { place.append("source row Z_PK \(sourcePrimaryKey)") }
        let prefix = place.isEmpty ? "" : place.joined(separator: ", ") + ": "
        switch kind {
        case .syntax(let message, let line, let column):
            return "\(prefix)syntax error at line \(line), column \(column): \(message)"
        case .invalidFile(let reason):
            return "\(prefix)invalid mapping file: \(reason)"
        case .unreadableArchive(let reason):
            return
                "\(prefix)the archived value can't be read: \(reason). Open the mapping model in Xcode and set the value again, or convert the mapping model to a JSON mapping file (MappingFile) and write the value there"
        case .unsupportedExpression(let className, let reason):
            return
                "\(prefix)Stepwise can't run an archived \(className): \(reason). Rewrite the value with $source key paths, constants or FUNCTION on $manager or $entityPolicy, or convert the mapping model to a JSON mapping file (MappingFile) and edit that"
        case .noMatchingVersions(let reason):
            return "\(prefix)\(reason)"
        case .unknownEntity(let name, let version):
            return "\(prefix)model version '\(version)' has no entity '\(name)'"
        case .unknownProperty(let entity, let property, let version):
            return "\(prefix)entity '\(entity)' of '\(version)' has no property '\(property)'"
        case .unknownFunction(let selector):
            return
                "\(prefix)no function registered for \"\(selector)\"; implement it in the entity's policy (function(named:arguments:)) or register it on the manager"
        case .unknownPolicy(let name):
            return
                "\(prefix)no policy registered as '\(name)'; register it with PolicyRegistry.register(\"\(name)\") { … }"
        case .unknownEntityMapping(let name):
            return "\(prefix)no entity mapping named '\(name)' in this step"
        case .invalidValue(let reason):
            return "\(prefix)invalid value: \(reason)"
        case .wrongValueForm(let expected, let given):
            return
                "\(prefix)the value is \(given), but the attribute takes \(expected). Return the value in the attribute's form (see the value forms in \"Porting a Core Data policy\")"
        case .unknownCompositeElement(let entity, let attribute, let element, let version):
            return
                "\(prefix)the composite '\(entity).\(attribute)' of '\(version)' has no element '\(element)'; give the composite's value its elements by their names in that version"
        case .notACompositeValue(let entity, let attribute, let given):
            return
                "\(prefix)'\(entity).\(attribute)' is a composite attribute: it takes a composite value (MappingValue.composite, its elements by name) or nil, not \(given)"
        case .validation(let reason):
            return "\(prefix)validation failed: \(reason)"
        case .policyFailed(let reason):
            return "\(prefix)the policy failed: \(reason)"
        case .notUnique(let value, let rows):
            let what = property.map { "\($0) = \(value)" } ?? value
            return
                "\(prefix)the uniqueness constraint fails when the step ends: two \(entity ?? "destination") objects have \(what), "
                + "made from \(rows.map(\.description).joined(separator: " and ")). Change "
                + "the mapping or policy so that each object gets its own value, or fix the data in the source store"
        case .notInferable(let problems):
            return "\(prefix)the mapping can't be inferred:\n"
                + problems.map { "  - \($0)" }.joined(separator: "\n")
                + "\nWrite an explicit mapping model for this step."
        case .overlappingMappingModels(
            let from, let to, let sourceEntity, let destinationEntity, let other, let difference):
            let differs = difference.map { " (they differ in: \($0))" } ?? ""
            return """
                \(prefix)the step '\(from)' → '\(to)' has another, different mapping model that also maps \
                \(sourceEntity) to \(destinationEntity): \(other)\(differs). Run one after the other, they would \
                create every \(destinationEntity) twice. Keep one of the two files (an identical copy is run once), \
                or, for a migration split into passes, map each entity in one of them only.
                """
        case .failed(let reason):
            return "\(prefix)\(reason)"
        case .notComposable(let reason):
            return "\(prefix)\(reason.explanation)"
        }
    }

    public var errorDescription: String? { description }
}

extension MappingError {
    /// Where a destination object of a step came from: the source row an entity mapping made
    /// it from, or none when a policy or an `add` mapping created it.
    public struct RowOrigin: Sendable, Hashable, CustomStringConvertible {
        /// The destination object's entity (from its `Z_ENT`).
        public var destinationEntity: String
        /// The destination object's `Z_PK`.
        public var destinationPrimaryKey: Int64
        /// The entity mapping that made it, when one associated it with a source row.
        public var entityMapping: String?
        /// The source row's entity, when there is a source row.
        public var sourceEntity: String?
        /// The source row's `Z_PK`; nil when no source row made the object.
        public var sourcePrimaryKey: Int64?

        /// An origin; leave the source nil for an object no source row made.
        ///
        /// - Parameters:
        ///   - destinationEntity: The destination object's entity.
        ///   - destinationPrimaryKey: The destination object's `Z_PK`.
        ///   - entityMapping: The entity mapping that associated it with a source row, if any.
        ///   - sourceEntity: The source row's entity, if any.
        ///   - sourcePrimaryKey: The source row's `Z_PK`, if any.
        public init(
            destinationEntity: String, destinationPrimaryKey: Int64, entityMapping: String? = nil,
            sourceEntity: String? = nil, sourcePrimaryKey: Int64? = nil
        ) {
            self.destinationEntity = destinationEntity
            self.destinationPrimaryKey = destinationPrimaryKey
            self.entityMapping = entityMapping
            self.sourceEntity = sourceEntity
            self.sourcePrimaryKey = sourcePrimaryKey
        }

        public var description: String {
            guard let sourcePrimaryKey else {
                return
                    "destination \(destinationEntity) Z_PK \(destinationPrimaryKey) (no source row: created by a policy or by the mapping itself)"
            }
            let mapping = entityMapping.map { ", entity mapping \($0)" } ?? ""
            return
                "source \(sourceEntity ?? destinationEntity) Z_PK \(sourcePrimaryKey) (destination Z_PK \(destinationPrimaryKey)\(mapping))"
        }
    }
}

extension MappingError {
    /// The kind's case name (`syntax`), for tools: `{"kind": …}` in the CLI's JSON.
    package var caseName: String {
        switch kind {
        case .syntax: "syntax"
        case .invalidFile: "invalidFile"
        case .unreadableArchive: "unreadableArchive"
        case .unsupportedExpression: "unsupportedExpression"
        case .noMatchingVersions: "noMatchingVersions"
        case .unknownEntity: "unknownEntity"
        case .unknownProperty: "unknownProperty"
        case .unknownFunction: "unknownFunction"
        case .unknownPolicy: "unknownPolicy"
        case .unknownEntityMapping: "unknownEntityMapping"
        case .invalidValue: "invalidValue"
        case .wrongValueForm: "wrongValueForm"
        case .unknownCompositeElement: "unknownCompositeElement"
        case .notACompositeValue: "notACompositeValue"
        case .validation: "validation"
        case .policyFailed: "policyFailed"
        case .notUnique: "notUnique"
        case .notInferable: "notInferable"
        case .overlappingMappingModels: "overlappingMappingModels"
        case .failed: "failed"
        case .notComposable: "notComposable"
        }
    }

    /// The file the error is about.
    package var subjectPath: String? { file }
}

extension MappingError {
    /// A store error from a policy's own write (``/StepwiseStore/ObjectContext/insert(_:_:)``…)
    /// as a mapping error: a value of the wrong form keeps its kind and names its attribute;
    /// anything else becomes `otherwise`, ``Kind/failed(_:)`` by default.
    init(
        _ error: StoreError, otherwise: Kind? = nil, mappingModel: String? = nil, entityMapping: String,
        entity: String?, property: String? = nil, sourcePrimaryKey: Int64?
    ) {
        if case .wrongValueForm(let writtenEntity, let writtenProperty, let expected, let given) = error.kind {
            self.init(
                .wrongValueForm(expected: expected, given: given), mappingModel: mappingModel,
                entityMapping: entityMapping, entity: writtenEntity, property: writtenProperty,
                sourcePrimaryKey: sourcePrimaryKey)
        } else {
            self.init(
                otherwise ?? .failed(error.description), mappingModel: mappingModel, entityMapping: entityMapping,
                entity: entity, property: property, sourcePrimaryKey: sourcePrimaryKey)
        }
    }
}

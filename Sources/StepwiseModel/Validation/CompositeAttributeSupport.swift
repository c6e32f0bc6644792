/// Whether Stepwise works on models with composite attributes: the one switch, and the one
/// place that refuses them.
///
/// Reading (source and compiled), layout (``Attribute/flattenedElements``) and hashing
/// (`VersionHasher.compositeHash`) are implemented and tested. What is missing is evidence:
/// the hash rule comes from decompiled Core Data, not from a store, and a wrong hash would make
/// Stepwise misidentify a store's version. So a model with a composite attribute is refused
/// wherever a model enters (``ModelBundleListing`` for files, `StoreLayout` for models built
/// in code) until a real store confirms the hash; then ``isEnabled`` becomes `true`.
package enum CompositeAttributeSupport {
    /// Whether models with composite attributes are accepted. `false` until a real store
    /// confirms `VersionHasher.compositeHash`.
    package static let isEnabled = false

    /// Accepts composites within ``withAcceptedForTesting(_:)``: for tests that run whole steps
    /// and upgrades on them while ``isEnabled`` is `false`.
    @TaskLocal private static var isAcceptedForTesting = false

    /// Whether models with composite attributes are accepted here: ``isEnabled``, or within
    /// ``withAcceptedForTesting(_:)``.
    package static var isAccepted: Bool { isEnabled || isAcceptedForTesting }

    /// Runs `body` with composite attributes accepted, as they will be once ``isEnabled`` is
    /// `true`: for tests.
    package static func withAcceptedForTesting<T>(_ body: () throws -> T) rethrows -> T {
        try $isAcceptedForTesting.withValue(true, operation: body)
    }

    /// Throws when `model` has a composite attribute and support isn't enabled.
    ///
    /// - parameters:
    ///   - model: The model version.
    ///   - file: The file it was read from, named in the error.
    /// - throws: ``ModelError`` naming the version and the first composite
    ///   attribute, in model order.
    package static func check(_ model: ObjectModel, file: String? = nil) throws(ModelError) {
        try check(model, file: file, isEnabled: isAccepted)
    }

    /// ``check(_:file:)`` with the switch given: for tests of both sides of it.
    package static func check(_ model: ObjectModel, file: String?, isEnabled: Bool) throws(ModelError) {
        guard !isEnabled else { return }
        for entity in model.entities {
            if let attribute = entity.attributes.first(where: { $0.type == .composite }) {
                throw ModelError(
                    .compositeAttributes, version: model.name, file: file, entity: entity.name,
                    property: attribute.name)
            }
        }
    }
}

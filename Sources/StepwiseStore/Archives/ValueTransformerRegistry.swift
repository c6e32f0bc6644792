import Foundation

/// The value transformers of Transformable attributes: how the object a policy or an app gives
/// for such an attribute becomes the bytes Core Data stores.
///
/// - The default transformers, no name, `NSSecureUnarchiveFromData` (and its class name
///   `NSSecureUnarchiveFromDataTransformer`) and `NSKeyedUnarchiveFromData`: Core Data stores an
///   `NSKeyedArchiver` archive, which Stepwise writes itself, the same bytes every run
///   (``TransformableValue/keyedArchive()``).
/// - A transformer registered here by name: its closure gets the value and returns the bytes,
///   as the Objective-C transformer's `transformedValue(_:)` did.
/// - Any other name, on Apple platforms: the `ValueTransformer` Foundation finds by that name
///   (`ValueTransformer(forName:)`), given the value's ``TransformableValue/foundationObject``.
///   Its result must be `Data`. Linux's Foundation has no `ValueTransformer`: register the
///   transformer here.
///
/// Names may be module-qualified (`MyApp.ColorTransformer`): a lookup tries the full name, then
/// the part after the last dot. Register them with the policies,
/// `PolicyRegistry.registerValueTransformer(_:_:)`.
public struct ValueTransformerRegistry: Sendable {
    /// Turns the object into the bytes stored, as `transformedValue(_:)` does.
    public typealias Transform = @Sendable (TransformableValue) throws -> Data

    private var transforms: [String: Transform] = [:]

    public init() {}

    /// Registers `transform` as the transformer named `name`.
    ///
    /// - parameters:
    ///   - name: The transformer's name in the model (`valueTransformerName`).
    ///   - transform: Turns an object into the bytes stored; throw when it can't.
    public mutating func register(_ name: String, _ transform: @escaping Transform) {
        transforms[name] = transform
    }

    /// The registered names.
    public var names: [String] { transforms.keys.sorted() }

    /// Whether a Transformable attribute with this transformer stores an `NSKeyedArchiver` archive.
    ///
    /// - parameter transformerName: The attribute's `valueTransformerName`; nil or empty for none.
    public static func storesKeyedArchive(transformerName: String?) -> Bool {
        guard let transformerName, !transformerName.isEmpty else { return true }
        return keyedArchiveTransformers.contains(transformerName)
    }

    /// Core Data's transformers that store keyed archives, by name and by class name.
    private static let keyedArchiveTransformers: Set<String> = [
        "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData",
        "NSKeyedUnarchiveFromDataTransformerName", "NSSecureUnarchiveFromDataTransformerName",
    ]

    /// The bytes `value` is stored as, by the transformer `transformerName`.
    ///
    /// - parameters:
    ///   - value: The object; ``TransformableValue/null`` is stored as NULL by the callers.
    ///   - transformerName: The attribute's `valueTransformerName`; nil or empty for none.
    /// - throws: ``Failure`` when no transformer has that name, or it fails.
    package func data(for value: TransformableValue, transformerName: String?) throws(Failure) -> Data {
        guard let transformerName, !Self.storesKeyedArchive(transformerName: transformerName) else {
            return value.keyedArchive()
        }
        if let transform = registeredTransform(transformerName) {
            do {
                return try transform(value)
            } catch {
                throw Failure("the value transformer '\(transformerName)' failed: \(error)")
            }
        }
        #if canImport(ObjectiveC)
            if let transformer = ValueTransformer(forName: NSValueTransformerName(transformerName)) {
                guard let data = transformer.transformedValue(value.foundationObject) as? Data else {
                    throw Failure("the value transformer '\(transformerName)' returned no Data")
                }
                return data
            }
        #endif
        throw Failure(
            "no value transformer named '\(transformerName)': register it with "
                + "PolicyRegistry.registerValueTransformer(\"\(transformerName)\") { value in … }, "
                + "or return the bytes it writes as .data")
    }

    private func registeredTransform(_ name: String) -> Transform? {
        if let transform = transforms[name] { return transform }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return transforms[String(name[name.index(after: dot)...])]
    }

    /// Why a value could not be transformed. Thrown only by the package's own
    /// ``data(for:transformerName:)``, whose callers report it as a `StoreError` or a
    /// `MappingError` naming the attribute.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong and what to do.
        package var reason: String
        init(_ reason: String) { self.reason = reason }
        package var description: String { reason }
    }
}

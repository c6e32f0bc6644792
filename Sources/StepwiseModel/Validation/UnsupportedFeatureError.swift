/// A valid model that uses a Core Data feature Stepwise can't yet handle safely.
///
/// Unlike ``ModelValidationError``, the model file is fine: nothing in it needs fixing. The
/// error names the feature, where the model uses it and what to do meanwhile.
public struct UnsupportedFeatureError: Error, Sendable, Hashable, ReportableError {
    /// A Core Data feature Stepwise refuses for now.
    public enum Feature: String, Sendable, Hashable {
        /// Composite attributes (`attributeType="Composite"`, `NSCompositeAttributeDescription`).
        case compositeAttributes
    }

    /// The feature.
    public var feature: Feature
    /// The model version's name.
    public var version: String
    /// The file the model came from, if it was read from disk.
    public var file: String?
    /// The entity that uses the feature.
    public var entity: String
    /// The property that uses it.
    public var property: String

    /// An error naming the first place `version` uses `feature`.
    ///
    /// - parameters:
    ///   - feature: The refused feature.
    ///   - version: The model version's name.
    ///   - file: The model file, if any.
    ///   - entity: The entity that uses the feature.
    ///   - property: The property that uses it.
    public init(_ feature: Feature, version: String, file: String? = nil, entity: String, property: String) {
        self.feature = feature
        self.version = version
        self.file = file
        self.entity = entity
        self.property = property
    }

    public var description: String {
        let place = file.map { " (\($0))" } ?? ""
        switch feature {
        case .compositeAttributes:
            return
                "model version '\(version)'\(place) uses composite attributes, which Stepwise doesn't support yet: "
                + "attribute '\(entity).\(property)' is a composite. The model is valid, but how Core Data hashes "
                + "a composite attribute hasn't been confirmed against a real store, so Stepwise can't tell which "
                + "version such a store is. Meanwhile keep the value as a Transformable attribute or as separate "
                + "attributes, or open an issue and attach a store written with the composite (its .sqlite file "
                + "and the compiled .momd) so support can be confirmed."
        }
    }

    public var caseName: String { "unsupportedFeature" }

    public var subjectPath: String? { file }
}

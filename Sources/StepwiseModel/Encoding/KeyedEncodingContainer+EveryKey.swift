extension KeyedEncodingContainer {
    /// Encodes each value under its key, in the order given, writing a nil value as `null`
    /// rather than leaving its key out.
    ///
    /// Stepwise's JSON (`--json` of every command, `MappingDiff`, the reports)
    /// gives every object of a type the same keys, so a script can test `.property == null`
    /// instead of asking whether the key is there. Synthesized `Encodable` conformance leaves a
    /// nil optional out (`encodeIfPresent`); a type that wants every key lists them here:
    ///
    /// ```swift
    /// public func encode(to encoder: any Encoder) throws {
    ///     var container = encoder.container(keyedBy: CodingKeys.self)
    ///     try container.encodeEveryKey([.entity: entity, .property: property, .count: count])
    /// }
    /// ```
    ///
    /// gives `{"count": null, "entity": "Post", "property": null}` for a post without a property
    /// or a count. Each value is encoded as `encode(_:forKey:)` would encode it, so a type's
    /// JSON is the same as with one such call per key.
    ///
    /// - parameter fields: The keys and their values; an optional's nil is written as `null`.
    package mutating func encodeEveryKey(_ fields: KeyValuePairs<Key, any Encodable>) throws {
        for (key, value) in fields {
            try encode(value, forKey: key)
        }
    }
}

import Foundation

/// Reads a compiled model: the `NSKeyedArchiver` archive of an `NSManagedObjectModel` that
/// Xcode's model compiler writes as a `.mom` file (one per version inside a `.momd` folder), and
/// that Core Data keeps, compressed, in a store's `Z_MODELCACHE`.
///
/// The archive is read as data (``KeyedArchive``), never instantiated with `NSKeyedUnarchiver`:
/// on Linux that aborts the process on a missing key, and these files are outside input.
///
/// What the archive holds, from the corpus's compiled models (`shared/corpus/compiled/`) and the
/// model caches of its real stores (Screen Time, Notes, knowledgeC, Photos, CartKit):
/// - the root `NSManagedObjectModel`: `NSEntities` (a dictionary by name, sometimes an
///   `NSKnownKeysDictionary1`) and `NSVersionIdentifiers` (a set; `""` when none was set);
/// - an `NSEntityDescription`: `NSEntityName`, `NSClassNameForEntity`, `NSIsAbstract` (written
///   only when true), `NSSuperentity`, `NSProperties` (by name), `NSUserInfo`,
///   `NSVersionHashModifier`, `NSRenamingIdentifier` (always written: the name unless renamed),
///   `NSUniqueTuples`, `NSFetchIndexDescriptions` and `NSCompoundIndexes`;
/// - properties: `NSPropertyName`, `NSIsOptional`/`NSIsTransient` (written only when true),
///   `NSUserInfo`, `NSVersionHashModifier`, `NSRenamingIdentifier`; an attribute's
///   `NSAttributeType` (100…1800, Core Data's `NSAttributeType`), `NSAttributeValueClassName`,
///   `NSDefaultValue` (an archived value), `NSValueTransformerName`, `NSIsIndexed` and
///   `NSFlagsKey` (external storage, preserved after deletion); a relationship's
///   `NSDestinationEntity`/`_NSDestinationEntityName`,
///   `NSInverseRelationship`/`_NSInverseRelationshipName`, `NSMinCount`, `NSMaxCount` (1 for a
///   to-one), `NSIsOrdered` and `NSDeleteRule`.
///
/// Spotlight's flags, `NSIndexedBySpotlight` and `NSIsStoredInTruth` (a source's
/// `spotlightIndexingEnabled` and `storedInTruthFile`, the external record file), are left out,
/// as the source reader leaves them out: they take no part in a store's schema or hashes.
/// `NSIsStoredInTruth` is not external storage, which only `NSFlagsKey` holds.
///
/// The model read is the one ``XcodeModelReader`` reads from the version's source, with these
/// differences the archive forces: entities and properties are in name order (the archive keeps
/// them in dictionaries), `usesScalarValueType` is nil (code generation only), and an
/// attribute's min and max (archived as validation predicates) are not read.
package enum CompiledModel {
    /// The most levels of nested composite attributes read; an archive nesting deeper (one
    /// whose composite contains itself, say) is refused.
    ///
    /// Core Data refuses a composite graph of more than 1000 attributes
    /// (`-[NSCompositeAttributeDescription setElements:]`), and real models nest composites a
    /// level or two. Sized for a 512 KB stack, what an app's secondary thread has on Apple
    /// platforms: at 1000 a composite that contains itself exhausted it; reading, validating
    /// and hashing 32 levels needed more than 256 KB in a debug build, 16 levels fit in 256 KB,
    /// half of 512 KB (`SmallStackReaderTests`, with `STEPWISE_SMALL_STACK_BYTES`).
    package static let compositeNestingLimit = 16

    /// Reads the model archived in `archive`.
    ///
    /// The model is not validated: call ``ObjectModel/validate(file:)`` before relying on its
    /// relationships and inheritance being consistent.
    ///
    /// - parameters:
    ///   - archive: The archive's bytes: a `.mom` file, or a model cache once inflated.
    ///   - name: The version name to give the model, such as the `.mom` file's base name.
    ///   - origin: What to name in errors ("Model.momd/Model 2.mom", "Z_MODELCACHE of Notes.sqlite").
    /// - throws: ``ModelError`` naming `origin`, with
    ///   ``ModelError/Kind/unreadableCompiledModel(_:)`` when the bytes are not a model
    ///   archive, or ``ModelError/Kind/invalidValue(element:attribute:value:)`` for a value
    ///   Stepwise doesn't know (an attribute type code, a delete rule).
    package static func read(archive: Data, name: String, origin: String) throws(ModelError) -> ObjectModel {
        let keyedArchive: KeyedArchive
        do {
            keyedArchive = try KeyedArchive(archive)
        } catch {
            throw ModelError(path: origin, kind: .unreadableCompiledModel(error.reason))
        }
        return try CompiledModelReader(archive: keyedArchive, origin: origin).model(named: name)
    }
}

import Crypto
import Foundation

extension VersionHasher {
    /// The hash of a composite attribute: SHA-256 of the hashes of its non-transient leaves
    /// (nested composites expanded in place), each an ordinary ``attributeHash(_:)`` under the
    /// leaf's own name and flags, sorted by that name, concatenated.
    ///
    /// The composite's own name, optionality, type and modifier take no part: Core Data hashes
    /// them into a buffer that the elements' hashes then overwrite, and only the elements are
    /// fed to the digest (`-[NSCompositeAttributeDescription _versionHash:inStyle:]`, identical
    /// in four decompiled Core Data builds of iOS 17 to 18 and macOS 14 to 15, which call
    /// `_flattenElements:`, sort with `_comparePropertiesByName` and skip transient elements).
    ///
    /// Confirmed by Apple's own hashes (issue 43): a real SwiftData store (Core Data 1327) whose
    /// model cache holds `SDFolder.folderType`, a Codable enum stored as a composite of four
    /// optional Strings, records an `SDFolder` hash this rule reproduces (elements in declared
    /// order don't, nor does a plain attribute), and so do 9 entity hashes read back from fresh
    /// SwiftData stores across six schema versions: struct composites with Float, Bool, Double
    /// and Transformable elements, optional and required, enum composites nested in a struct
    /// one, and a raw-value enum (one optional String element named after the property).
    /// `SwiftDataCompositeHashTests` pins `SDFolder`'s.
    static func compositeHash(_ attribute: Attribute) -> Data {
        var digest = SHA256()
        let leaves = leaves(of: attribute.elements).filter { !$0.isTransient }.sorted { $0.name < $1.name }
        for leaf in leaves {
            digest.update(data: attributeHash(leaf))
        }
        return Data(digest.finalize())
    }

    /// The non-composite elements, nested composites expanded in place, under their own names.
    private static func leaves(of elements: [Attribute]) -> [Attribute] {
        elements.flatMap { $0.type == .composite ? leaves(of: $0.elements) : [$0] }
    }
}

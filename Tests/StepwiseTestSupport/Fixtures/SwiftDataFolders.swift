import StepwiseModel

/// The `SDFolder` entity of a real SwiftData store (Core Data 1327, issue 43), as its model
/// cache holds it: a Codable enum without raw values, `folderType`, stored as a composite of
/// four optional Strings, one per case.
///
/// SwiftData writes a to-many (`[SDFolder] = []`) as a required relationship and
/// `@Attribute(.unique) var id` as a uniqueness constraint: with either left out, or any other
/// flag changed, the entity doesn't hash as the store records (all 256 combinations of those
/// flags were tried; one reproduces ``folderHash``).
package enum SwiftDataFolders {
    /// The composite's elements, in declared order.
    package static let folderTypeElements = ["systemAll", "systemStandard", "systemRecentlyDeleted", "user"]

    /// The hash the store's metadata records for `SDFolder`.
    package static let folderHash = "jyYLES2D0M7bSKm/zPLVS2ubTGHkT6xKZPfHV+aWlxQ="

    /// `SDFolder` and the one relationship of `SDRecipe` that points at it (`SDFolder`'s hash
    /// takes only the destination's name).
    ///
    /// - parameter elements: The composite's elements, in the order given.
    package static func model(elements: [String] = folderTypeElements) -> ObjectModel {
        ObjectModel("Recipes") {
            Entity("SDFolder") {
                Attribute.composite("folderType", elements: elements.map { Attribute($0, .string) })
                Attribute("id", .uuid).required()
                Attribute("imageData", .binary)
                Attribute("name", .string).required()
                Relationship("folders", to: "SDFolder", inverse: "parentFolder").toMany().required()
                    .deletionRule(.cascade)
                Relationship("parentFolder", to: "SDFolder", inverse: "folders")
                Relationship("recipes", to: "SDRecipe", inverse: "parentFolder").toMany().required()
                    .deletionRule(.cascade)
                Unique("id")
            }
            Entity("SDRecipe") {
                Attribute("title", .string)
                Relationship("parentFolder", to: "SDFolder", inverse: "recipes")
            }
        }
    }
}

import Foundation
import StepwiseModel
import StepwiseTesting
import Testing

/// Two versions with equal entity hashes (Wire's 2.11 and 2.15.0, say) are interchangeable for
/// stores: a store of the older one may be taken for the newer one. The matrix must pass over
/// such a history, whichever of the two the registry takes a store for.
@Suite("UpgradeMatrix over versions with equal hashes")
struct UpgradeMatrixEqualHashesTests {
    /// `Blog`; `Blog 2`, which only indexes `title` (no hash changes); `Blog 3`, which adds
    /// `summary`. With `identifiers`, each version has its own `versionIdentifiers`.
    static func history(identifiers: Bool) -> VersionHistory {
        var blog = ObjectModel("Blog") {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("color", .string)
                Relationship("tags", to: "Tag", inverse: "posts").toMany()
            }
            Entity("Tag") {
                Attribute("name", .string).required()
                Relationship("posts", to: "Post", inverse: "tags").toMany()
            }
        }
        var blog2 = blog
        blog2.name = "Blog 2"
        blog2.entities[0].attributes[0] = Attribute("title", .string).indexed()
        var blog3 = blog2
        blog3.name = "Blog 3"
        blog3.entities[0].attributes.append(Attribute("summary", .string))
        if identifiers {
            blog.versionIdentifiers = ["1.0"]
            blog2.versionIdentifiers = ["1.1"]
            blog3.versionIdentifiers = ["2.0"]
        }
        return VersionHistory([blog, blog2, blog3])
    }

    @Test func theTwoVersionsHaveEqualHashes() {
        let versions = Self.history(identifiers: false).versions
        #expect(versions[0].entityVersionHashes == versions[1].entityVersionHashes)
        #expect(versions[1].entityVersionHashes != versions[2].entityVersionHashes)
    }

    @Test(arguments: [false, true])
    func everyPairPasses(identifiers: Bool) throws {
        let matrix = try UpgradeMatrix(history: Self.history(identifiers: identifiers))
        #expect(
            matrix.cases.map(\.description) == ["Blog → Blog 2", "Blog → Blog 3", "Blog 2 → Blog 3"])
        #expect(matrix.unreachable.isEmpty)
        for pair in matrix.cases {
            let result = try matrix.check(pair)
            #expect(result.pair == pair)
            #expect(result.seededRows > 0)
        }
    }
}

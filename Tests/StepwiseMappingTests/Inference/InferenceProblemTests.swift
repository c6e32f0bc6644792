import Foundation
import StepwiseMapping
import Testing

/// A problem and exactly how it reads.
struct ProblemText: Sendable, CustomTestStringConvertible {
    var problem: InferenceProblem
    var description: String

    var testDescription: String { description }

    init(_ problem: InferenceProblem, _ description: String) {
        self.problem = problem
        self.description = description
    }

    static let all: [ProblemText] = [
        ProblemText(
            InferenceProblem(entity: "Mood", property: "rating", reason: .newRequiredAttribute),
            "Mood.rating: is a new required attribute without a default value, which existing Mood rows can't fill. Give 'rating' a default value or make it optional."
        ),
        ProblemText(
            InferenceProblem(entity: "Post", property: "title", reason: .attributeBecomesRequired),
            "Post.title: becomes required without a default value for the Post rows that have none. Give 'title' a default value (rows holding NULL get it) or keep it optional."
        ),
        ProblemText(
            InferenceProblem(
                entity: "Post", property: "hexColor", reason: .lossyTypeChange(from: .string, to: .integer32)),
            "Post.hexColor: changes type from String to Integer 32, which can lose or reject values. Keep 'hexColor' a String, or write an explicit mapping for Post.hexColor that converts its values."
        ),
        ProblemText(
            InferenceProblem(
                entity: "Post", property: "views", reason: .lossyTypeChange(from: .integer64, to: .integer16)),
            "Post.views: changes type from Integer 64 to Integer 16, which can lose or reject values. Keep 'views' an Integer 64 (or make it Double or String, which inference widens it to), or write an explicit mapping for Post.views that converts its values."
        ),
        // The reverse of the inferred Boolean → integer widening: which numbers are true is the app's call.
        ProblemText(
            InferenceProblem(
                entity: "Conversation", property: "isSilenced",
                reason: .lossyTypeChange(from: .integer32, to: .boolean)),
            "Conversation.isSilenced: changes type from Integer 32 to Boolean, which stores 0 and 1 only, and inference can't tell which numbers mean true. Keep 'isSilenced' an Integer 32 (or make it Integer 64, Double or String, which inference widens it to), or write an explicit mapping for Conversation.isSilenced that decides which numbers are true: an entity migration policy, or `$source.isSilenced` if every stored value is already 0 or 1."
        ),
        ProblemText(
            InferenceProblem(entity: "Post", property: "pinned", reason: .lossyTypeChange(from: .boolean, to: .date)),
            "Post.pinned: changes type from Boolean to Date, which can lose or reject values. Keep 'pinned' a Boolean (or make it Integer 16, Integer 32, Integer 64 or String, which inference widens it to), or write an explicit mapping for Post.pinned that converts its values."
        ),
        ProblemText(
            InferenceProblem(entity: "Post", property: "color", reason: .newRequiredRelationship(destination: "Color")),
            "Post.color: is a new required relationship to Color, which existing Post rows can't fill. Make 'color' optional, or write an explicit mapping for Post.color (a policy that finds or creates the Color)."
        ),
        ProblemText(
            InferenceProblem(
                entity: "Vehicle",
                reason: .mergedHierarchies(
                    entities: ["Car", "Truck"], sourceRoots: ["Car", "Truck"], destinationRoot: "Vehicle")),
            "Vehicle: Car and Truck come from separate hierarchies (rooted at Car and Truck) but share the hierarchy of Vehicle; Core Data keeps a hierarchy in one table and can't infer a merge. Keep these entities in separate hierarchies, or write an explicit mapping model for this step."
        ),
        ProblemText(
            InferenceProblem(
                entity: "Article", reason: .ambiguousRename(source: "Post", claimants: ["Article", "Post"])),
            "Article: Article and Post claim the same source entity 'Post' (by name or renaming identifier). Let only one of Article and Post take over 'Post': change the others' names or renaming identifiers."
        ),
        ProblemText(
            InferenceProblem(entity: "Content", reason: .entityBecomesAbstract),
            "Content: becomes abstract, so its existing rows can't be kept. Keep 'Content' concrete, or write an explicit mapping that moves its rows to a concrete entity."
        ),
    ]
}

@Suite("InferenceProblem")
struct InferenceProblemTests {
    @Test(arguments: ProblemText.all)
    func readsAsThePlaceTheReasonAndAFix(_ text: ProblemText) {
        #expect(text.problem.description == text.description)
        #expect(text.problem.description == "\(text.problem.place): \(text.problem.message). \(text.problem.fix)")
    }

    @Test(arguments: ProblemText.all)
    func encodesItsMessageAndFixAndDecodesBack(_ text: ProblemText) throws {
        let data = try JSONEncoder().encode(text.problem)
        #expect(try JSONDecoder().decode(InferenceProblem.self, from: data) == text.problem)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(json.keys) == ["entity", "property", "reason", "message", "fix"])
        #expect(json["message"] as? String == text.problem.message)
        #expect(json["fix"] as? String == text.problem.fix)
        #expect(text.problem.property == nil ? json["property"] is NSNull : json["property"] is String)
    }
}

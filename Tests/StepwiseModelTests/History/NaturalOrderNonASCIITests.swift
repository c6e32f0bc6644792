import StepwiseModel
import Testing

/// Natural order reads ASCII names byte by byte and other names character by character; both
/// give the same order, and names that differ only by separators or case collide either way.
@Suite("Natural order: ASCII and other names")
struct NaturalOrderNonASCIITests {
    @Test("names with accents sort by their numbers, like ASCII names")
    func accentedNames() throws {
        #expect(
            try VersionHistory.naturalOrder(["Modèle 10", "Modèle", "Modèle 2"]) == ["Modèle", "Modèle 2", "Modèle 10"])
        #expect(try VersionHistory.naturalOrder(["Model 10", "Model", "Model 2"]) == ["Model", "Model 2", "Model 10"])
    }

    @Test(
        "separators and case don't tell versions apart, in ASCII or not",
        arguments: [
            ["Model_2", "Model.2"], ["Modèle_2", "Modèle-2"], ["Model 2", "MODEL 2"],
        ])
    func separatorsCollide(_ names: [String]) throws {
        do {
            let order = try VersionHistory.naturalOrder(names)
            // "Model 2" and "MODEL 2": ambiguous too, their stems differing only by case.
            Issue.record("expected an ambiguous order, got \(order)")
        } catch {
            guard case .ambiguousOrder = error.kind else {
                Issue.record("expected an ambiguous order, got \(error)")
                return
            }
        }
    }

    @Test("a stem with a trailing 'v' and separators is the same in ASCII and not")
    func stems() throws {
        #expect(try VersionHistory.naturalOrder(["Store_v10", "Store_v2"]) == ["Store_v2", "Store_v10"])
        #expect(try VersionHistory.naturalOrder(["Störe_v10", "Störe_v2"]) == ["Störe_v2", "Störe_v10"])
        #expect(throws: ModelError.self) { try VersionHistory.naturalOrder(["Störe 2", "Store 3"]) }
    }
}

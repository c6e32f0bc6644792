import StepwiseModel
import StepwiseTestSupport
import Testing

@testable import StepwiseMapping

/// The checks every composed mapping passes before ``MappingComposition`` returns it.
@Suite("Composition check")
struct CompositionCheckTests {
    static let source = RenameChainHistory.v1
    static let destination = RenameChainHistory.v3

    /// The composed mapping of the rename chain, which passes.
    static func composed() throws -> MappingModel {
        try MappingComposition.compose(
            MappingInference.inferMapping(from: RenameChainHistory.v1, to: RenameChainHistory.v2),
            MappingInference.inferMapping(from: RenameChainHistory.v2, to: RenameChainHistory.v3),
            source: RenameChainHistory.v1, intermediate: RenameChainHistory.v2, destination: RenameChainHistory.v3)
    }

    /// The kind of the mapping error a check refuses with.
    static func refusal(of mapping: MappingModel) -> CompositionRefusal? {
        do {
            try CompositionCheck.validate(mapping, source: source, destination: destination)
            return nil
        } catch {
            return error
        }
    }

    @Test func theComposedRenameChainPasses() throws {
        #expect(Self.refusal(of: try Self.composed()) == nil)
    }

    @Test func aRelationshipNamingAnIntermediateMappingIsRefused() throws {
        var mapping = try Self.composed()
        let keeper = try #require(mapping.entityMappings.firstIndex { $0.name == "PersonToKeeper" })
        mapping.entityMappings[keeper].relationshipMappings[0].valueExpression =
            MappingInference.relationshipExpression(mappingNamed: "AnimalToCreature", sourceRelationship: "pets")
        let refusal = Self.refusal(of: mapping)
        #expect(refusal?.entity == "Keeper")
        #expect(refusal?.property == "creatures")
        guard case .invalidComposition(let error)? = refusal?.reason else {
            Issue.record("expected invalidComposition, got \(String(describing: refusal))")
            return
        }
        #expect(error.kind == .unknownEntityMapping("AnimalToCreature"))
        #expect(error.entityMapping == "PersonToKeeper")
    }

    @Test func aSourceKeyPathTheSourceVersionDoesntHaveIsRefused() throws {
        var mapping = try Self.composed()
        let creature = try #require(mapping.entityMappings.firstIndex { $0.name == "PetToCreature" })
        mapping.entityMappings[creature].attributeMappings[1].valueExpression = .source("petName")
        guard case .invalidComposition(let error)? = Self.refusal(of: mapping)?.reason else {
            Issue.record("expected invalidComposition")
            return
        }
        #expect(error.kind == .unknownProperty(entity: "Pet", property: "petName", version: "Pets"))
    }

    @Test func aDestinationPropertyOfTheWrongKindIsRefused() throws {
        var mapping = try Self.composed()
        let creature = try #require(mapping.entityMappings.firstIndex { $0.name == "PetToCreature" })
        mapping.entityMappings[creature].attributeMappings.append(PropertyMapping("keeper", .source("owner")))
        guard case .invalidComposition(let error)? = Self.refusal(of: mapping)?.reason else {
            Issue.record("expected invalidComposition")
            return
        }
        #expect(error.kind == .unknownProperty(entity: "Creature", property: "keeper", version: "Pets 3"))
    }

    @Test func everyEntityOfBothEndsNeedsOneMapping() throws {
        var withoutKeeper = try Self.composed()
        withoutKeeper.entityMappings.removeAll { $0.destinationEntity == "Keeper" }
        for index in withoutKeeper.entityMappings.indices {
            withoutKeeper.entityMappings[index].relationshipMappings = []
        }
        let missing = Self.refusal(of: withoutKeeper)
        #expect(missing?.entity == "Person")
        #expect(missing?.description.contains("no entity mapping reads 'Person'") == true)
        var twice = try Self.composed()
        twice.entityMappings.append(twice.entityMappings[0])
        guard case .invalidComposition(let error)? = Self.refusal(of: twice)?.reason else {
            Issue.record("expected invalidComposition")
            return
        }
        #expect(error.description.contains("'Pet' is the source of two entity mappings"))
    }
}

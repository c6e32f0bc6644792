import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import Testing

@Suite("MappingComposition")
struct MappingCompositionTests {
    /// Infers `a → b` and `b → c` and composes them.
    static func compose(_ a: ObjectModel, _ b: ObjectModel, _ c: ObjectModel) throws -> MappingModel {
        try MappingComposition.compose(
            MappingInference.inferMapping(from: a, to: b), MappingInference.inferMapping(from: b, to: c), source: a,
            intermediate: b, destination: c)
    }

    static func chain(
        @ModelBuilder a: () -> [Entity], @ModelBuilder b: () -> [Entity], @ModelBuilder c: () -> [Entity]
    ) -> (ObjectModel, ObjectModel, ObjectModel) {
        (ObjectModel("A", entities: a()), ObjectModel("B", entities: b()), ObjectModel("C", entities: c()))
    }

    @Test func aRenamesOnlyChainComposesIntoOneMappingThatFollowsEveryRename() throws {
        let (v1, v2, v3) = (RenameChainHistory.v1, RenameChainHistory.v2, RenameChainHistory.v3)
        let composed = try Self.compose(v1, v2, v3)
        #expect(
            composed.summary == [
                "transform PetToCreature: age=$source.age, label=$source.name, keeper=→PersonToKeeper($source.owner)",
                "transform PersonToKeeper: displayName=$source.name, nickname=$source.nickname, creatures=→PetToCreature($source.pets)",
            ])
        #expect(composed.isInferred)
        #expect(composed.name == "Pets → Pets 3")
        #expect(composed.sourceVersion == "Pets")
        #expect(composed.destinationVersion == "Pets 3")
        // Inferring the two ends directly loses every row: the renaming identifiers of Pets 3
        // name entities of Pets 2, not of Pets.
        #expect(
            try MappingInference.inferMapping(from: v1, to: v3).summary == [
                "add ToCreature", "add ToKeeper", "remove PersonTo", "remove PetTo",
            ])
    }

    @Test func entityMappingKindsComposeAddThenAnythingIsAddAnythingThenRemoveIsRemove() throws {
        let (a, b, c) = Self.chain {
            Entity("Kept") { Attribute("x", .string) }
            Entity("Dropped") { Attribute("x", .string) }
            Entity("Late") { Attribute("x", .string) }
            Entity("Changed") { Attribute("x", .string) }
        } b: {
            Entity("Kept") { Attribute("x", .string) }
            Entity("Late") { Attribute("x", .string) }
            Entity("Temporary") { Attribute("x", .string) }
            Entity("New") { Attribute("x", .string) }
            Entity("Changed") { Attribute("y", .string).renamed(from: "x") }
        } c: {
            Entity("Kept") { Attribute("x", .string) }
            Entity("New") { Attribute("x", .string) }
            Entity("Renamed") { Attribute("y", .string) }.renamed(from: "Changed")
        }
        #expect(
            try Self.compose(a, b, c).summary == [
                "copy KeptToKept: x=$source.x",
                "add ToNew",
                "transform ChangedToRenamed: y=$source.x",
                "remove DroppedTo",
                "remove LateTo",
            ])
    }

    @Test func markersCarryOverAndAnAttributeAddedInTheMiddleGetsNoMapping() throws {
        let (a, b, c) = Self.chain {
            Entity("Reading") {
                Attribute("value", .integer16)
                Attribute("note", .string)
            }
        } b: {
            Entity("Reading") {
                Attribute("value", .integer32)
                Attribute("note", .string).required().defaultValue("-")
                Attribute("unit", .string).defaultValue("cm")
            }
        } c: {
            Entity("Reading") {
                Attribute("amount", .integer32).renamed(from: "value")
                Attribute("comment", .string).required().defaultValue("-").renamed(from: "note")
                Attribute("measure", .string).defaultValue("cm").renamed(from: "unit")
            }
        }
        #expect(
            try Self.compose(a, b, c).summary == [
                "transform ReadingToReading: amount=$source.value {stepwise.widening=integer16→integer32}, comment=$source.note {stepwise.defaultForNull=-}"
            ])
    }

    @Test func anEndThatImpliesTheIntermediateRuleLetsTheStepsCompose() throws {
        let (a, b, c) = Self.chain {
            NonComposableChain.team { Relationship("players", to: "Player", inverse: "team").toMany() }
            Entity("Tag") { Attribute("name", .string) }
        } b: {
            NonComposableChain.team { Relationship("players", to: "Player", inverse: "team").toMany().count(max: 3) }
            Entity("Tag") {
                Attribute("name", .string)
                Unique("name")
            }
        } c: {
            NonComposableChain.team { Relationship("players", to: "Player", inverse: "team").toMany().count(max: 2) }
            Entity("Tag") {
                Attribute("label", .string).renamed(from: "name")
                Unique("label")
            }
        }
        #expect(
            try Self.compose(a, b, c).summary == [
                "transform TeamToTeam: players=→PlayerToPlayer($source.players)",
                "copy PlayerToPlayer: name=$source.name, team=→TeamToTeam($source.team)",
                "transform TagToTag: label=$source.name",
            ])
    }

    @Test(arguments: NonComposableChain.all)
    func refusesAChainThatOnePassWouldNotMigrateExactly(_ chain: NonComposableChain) throws {
        let error = #expect(throws: MappingError.self) {
            try Self.compose(chain.versions[0], chain.versions[1], chain.versions[2])
        }
        #expect(error == chain.refusal.mappingError)
        #expect(error?.description.hasPrefix("\(chain.refusal.entity ?? "")") == true)
    }

    /// Composing with an inferred step to the same version must give exactly the inferred
    /// mapping: every inferable change, with the identity after it and before it.
    @Test(arguments: InferableChange.all)
    func composingWithTheIdentityGivesTheInferredMapping(_ change: InferableChange) throws {
        let inferred = try MappingInference.inferMapping(from: change.source, to: change.destination)
        let identityAfter = try MappingInference.inferMapping(from: change.destination, to: change.destination)
        #expect(
            try MappingComposition.compose(
                inferred, identityAfter, source: change.source, intermediate: change.destination,
                destination: change.destination) == inferred)
        let identityBefore = try MappingInference.inferMapping(from: change.source, to: change.source)
        #expect(
            try MappingComposition.compose(
                identityBefore, inferred, source: change.source, intermediate: change.source,
                destination: change.destination) == inferred)
    }

    @Test func onlyInferredMappingsOfChainingVersionsCompose() throws {
        let (v1, v2, v3) = (RenameChainHistory.v1, RenameChainHistory.v2, RenameChainHistory.v3)
        let first = try MappingInference.inferMapping(from: v1, to: v2)
        let second = try MappingInference.inferMapping(from: v2, to: v3)
        var written = second
        written.isInferred = false
        #expect(throws: MappingError(.notComposable(.notInferred(mappingModel: "Pets 2 → Pets 3")))) {
            try MappingComposition.compose(first, written, source: v1, intermediate: v2, destination: v3)
        }
        #expect(
            throws: MappingError(.notComposable(.versionsDontChain(first: "Pets 2 → Pets 3", second: "Pets → Pets 2")))
        ) {
            try MappingComposition.compose(second, first, source: v1, intermediate: v2, destination: v3)
        }
        var filtered = second
        filtered.entityMappings[0].filter = .constant(true)
        let error = #expect(throws: MappingError.self) {
            try MappingComposition.compose(first, filtered, source: v1, intermediate: v2, destination: v3)
        }
        #expect(error?.entity == "Creature")
    }

    @Test func aComposedMappingThatNamesAMissingPropertyIsInvalid() throws {
        let (v1, v2, v3) = (RenameChainHistory.v1, RenameChainHistory.v2, RenameChainHistory.v3)
        var first = try MappingInference.inferMapping(from: v1, to: v2)
        let second = try MappingInference.inferMapping(from: v2, to: v3)
        let animal = try #require(first.entityMappings.firstIndex { $0.name == "PetToAnimal" })
        let petName = try #require(first.entityMappings[animal].attributeMappings.firstIndex { $0.name == "petName" })
        first.entityMappings[animal].attributeMappings[petName].valueExpression = .source("nickname")
        let error = #expect(throws: MappingError.self) {
            try MappingComposition.compose(first, second, source: v1, intermediate: v2, destination: v3)
        }
        guard case .notComposable(.invalidComposition(let mappingError))? = error?.kind else {
            Issue.record("expected invalidComposition, got \(String(describing: error))")
            return
        }
        #expect(mappingError.kind == .unknownProperty(entity: "Pet", property: "nickname", version: "Pets"))
        #expect(error?.property == "label")
    }
}

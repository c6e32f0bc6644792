import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// The history of a store whose model merges several models, as an app builds it with
/// `NSManagedObjectModel(byMerging:)` or `mergedModel(from:)`: its own model and a framework's,
/// each with versions of its own.
///
/// Each model's entities in the store are identified in that model's own history, by hash, as
/// Core Data's `mergedModelFromBundles:forStoreMetadata:` finds one version of each model whose
/// entities the metadata holds. Each model's history is then planned on its own: the store's
/// path goes through every version of the first model up to its current one, the others
/// staying where they are, then through the second model's, and so on (a staircase). Each
/// combined version is the merged model of one version of each (``/StepwiseModel/ObjectModel/merging(_:name:)``),
/// named after them: `"AppRatingPrompt 2 + HTTPSUpgrade 3"`. A mapping model written for one
/// model's step runs on the combined step, the other models' entities copied as they are.
///
/// A model none of whose entities the store holds joins at its current version, its tables
/// added by the last step. An entity of the store that no model knows is refused
/// (``UpgradeError/Kind/unknownEntities(entities:tables:)``): merged models are given to keep
/// every model's data.
struct MergedHistory: Sendable {
    /// One history per model, in the order their versions are upgraded and named.
    var parts: [ModelHistory]

    /// The combined history with one version: every model's current version, the target of
    /// every upgrade (and what a new store is created at).
    func currentHistory() throws -> ModelHistory {
        let current = try parts.map { part in
            guard let name = part.currentVersion, let version = part.version(named: name) else {
                throw UpgradeError(.emptyHistory)
            }
            return version
        }
        return try ModelHistory(versions: VersionHistory([try ObjectModel.merging(current)]))
    }

    /// The combined history from the version of each model that the store's metadata names
    /// (`hashes`, entity name → version hash) to every model's current version.
    ///
    /// - throws: ``UpgradeError`` when a model's entities in the store match none of its
    ///   versions, when the store holds entities no model knows, or when a model's version in
    ///   the store is later than its current one.
    func history(forStoreHashes hashes: [String: Data], path: String) throws -> ModelHistory {
        var positions: [Int?] = []
        var known: Set<String> = []
        for part in parts {
            let position = try startingPosition(of: part, in: hashes, path: path)
            positions.append(position)
            known.formUnion(part.knownEntityNames)
        }
        let unknown = hashes.keys.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty {
            // Each unknown entity is a root of its own table, as far as the metadata tells.
            throw UpgradeError(
                path: path,
                kind: .unknownEntities(entities: unknown, tables: unknown.map(StoreLayout.tableName(ofRoot:))))
        }
        // The staircase: each model in turn goes from its version to its current one.
        var current: [ObjectModel?] = zip(parts, positions).map { part, position in
            position.map { part.versions.versions[$0] }
        }
        var versions: [ObjectModel] = [try merged(current)]
        var mappings: [MappingDirectory.StepKey: [MappingModel]] = [:]
        for (index, part) in parts.enumerated() {
            guard let currentName = part.currentVersion, let end = part.versions.index(of: currentName) else {
                throw UpgradeError(.emptyHistory)
            }
            let start = positions[index]
            // A model whose order can't be told keeps its versions in name order: a path through
            // them would follow that, so it needs the order (the model's own error says what's
            // missing), unless the store is at its current version already or doesn't hold it.
            // Asked before "later than the target", which name order alone can't tell either.
            if let start, start != end, case .failure(let error) = part.order { throw error }
            if let start, start > end {
                throw UpgradeError(
                    path: path,
                    kind: .laterThanTarget(storeVersion: part.versions.versions[start].name, target: currentName))
            }
            // A model the store doesn't hold yet joins at its current version.
            let steps = start.map { $0 < end ? Array(($0 + 1)...end) : [] } ?? [end]
            var visited: [String: ObjectModel] = [:]
            if let start { visited[part.versions.versions[start].name] = versions.last }
            for position in steps {
                current[index] = part.versions.versions[position]
                let combined = try merged(current)
                versions.append(combined)
                visited[part.versions.versions[position].name] = combined
            }
            // The model's own mapping models, for steps between versions the staircase visits.
            for (key, models) in part.mappings {
                guard let source = visited[key.source], let destination = visited[key.destination] else { continue }
                mappings[MappingDirectory.StepKey(source.name, destination.name)] = try Self.extending(
                    models, from: source, to: destination,
                    ownEntities: Set(part.versions.versions.flatMap(\.entityNames)))
            }
        }
        return try ModelHistory(versions: VersionHistory(versions), mappings: mappings)
    }

    /// The position, in `part`'s history, of the version whose entities the store holds with
    /// their hashes; nil when the store holds none of the model's entities.
    private func startingPosition(of part: ModelHistory, in hashes: [String: Data], path: String) throws -> Int? {
        let names = Set(part.versions.versions.flatMap(\.entityNames))
        guard names.contains(where: { hashes[$0] != nil }) else { return nil }
        // The newest version whose every entity the store holds with the same hash; among
        // versions with equal hashes Core Data takes any, and so the newest is as good.
        let matches = part.versions.versions.indices.filter { index in
            part.versions.versions[index].entityVersionHashes.allSatisfy { hashes[$0.key] == $0.value }
        }
        // The version covering the most of the store's entities (a version with fewer entities,
        // all of them unchanged, matches too), then the newest.
        let entityCount = { (index: Int) in part.versions.versions[index].entities.count }
        guard let best = matches.max(by: { (entityCount($0), $0) < (entityCount($1), $1) }) else {
            throw UpgradeError(
                path: path, kind: .noMatchingVersion(closest: part.currentVersion, differences: []))
        }
        return best
    }

    /// The merged model of the given versions (the models not in the store yet left out).
    private func merged(_ versions: [ObjectModel?]) throws -> ObjectModel {
        try ObjectModel.merging(versions.compactMap { $0 })
    }

    /// A model's mapping models for one of its steps, made into the combined step's: the first
    /// also copies every other model's entities as they are (inferred copies, which compose
    /// with nothing else of the step).
    private static func extending(
        _ models: [MappingModel], from source: ObjectModel, to destination: ObjectModel, ownEntities: Set<String>
    ) throws -> [MappingModel] {
        let others = source.entities.filter { !ownEntities.contains($0.name) }
        var copies: [EntityMapping] = []
        if !others.isEmpty {
            let rest = ObjectModel("others", entities: others)
            copies = try MappingInference.inferMapping(from: rest, to: rest).entityMappings
        }
        return models.enumerated().map { index, model in
            var extended = model
            extended.sourceVersion = source.name
            extended.destinationVersion = destination.name
            if index == 0 { extended.entityMappings += copies }
            return extended
        }
    }
}

import Foundation
import StepwiseModel

extension MappingDirectory {
    /// What the mapping models say of the versions' order: each maps stores of its source
    /// version to its destination (``/StepwiseModel/OrderClue/mappingModel(from:to:file:)``).
    ///
    /// Only mapping models that name their versions whatever the order count: a JSON file's
    /// header, an `.xcmappingmodel`'s model paths or embedded model copies. One bound by the
    /// pair its entity mappings or hashes fit may have been bound through the order itself
    /// (consecutive pairs are tried first), so it can't vouch for it.
    package var orderClues: [OrderClue] {
        let binders: Set<MappingOrigin.Binding> = [.fileHeader, .modelPaths, .modelSnapshots]
        return steps.keys.sorted { ($0.source, $0.destination) < ($1.source, $1.destination) }.flatMap { key in
            (steps[key] ?? []).compactMap { model -> OrderClue? in
                guard let origin = model.origin, binders.contains(origin.binding) else { return nil }
                return .mappingModel(from: key.source, to: key.destination, file: origin.path)
            }
        }
    }
}

extension ModelBundle {
    /// The bundle, ordered by its mapping models too when its names and what Xcode records
    /// leave the order open (``ModelBundle/orderNeedsMappingClues``); else the bundle as it is.
    ///
    /// The mapping models are read here only for what they say of the order: one that can't be
    /// read or bound is left out, and reported by whoever reads them for their steps, against
    /// the order found here.
    ///
    /// - parameter mappingsURL: The mapping folder; `<Name>.mappings` beside the bundle when nil.
    package func orderedByMappings(at mappingsURL: URL?) -> ModelBundle {
        guard orderNeedsMappingClues else { return self }
        var setAside: [MappingError] = []
        let directory = MappingDirectory(
            bundleAt: url, mappingsAt: mappingsURL, history: history, settingAside: &setAside)
        return orderedAgain(withMappingClues: directory.orderClues)
    }
}

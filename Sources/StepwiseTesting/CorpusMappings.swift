import Foundation

/// The corpus's Xcode mapping models (`.xcmappingmodel`), written as Stepwise mapping
/// files: one folder per corpus bundle, one file per mapping model, named after it. Steps of
/// a corpus history without a file here are inferred, as they are in the corpus projects.
/// The policies they name are in ``SamplePolicies/registry``.
public enum CorpusMappings {
    /// The folder of a bundle's mapping files, e.g. `CorpusMappings/Moody/`.
    public static func folder(for bundle: CorpusBundle) throws -> URL {
        guard let root = Bundle.module.url(forResource: "CorpusMappings", withExtension: nil) else {
            throw CorpusError.missingResource("the CorpusMappings resource of StepwiseTesting")
        }
        return root.appendingPathComponent(bundle.baseName, isDirectory: true)
    }
}

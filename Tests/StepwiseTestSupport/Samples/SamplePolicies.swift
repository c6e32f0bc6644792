import StepwiseDemo
import StepwiseMapping

/// The policies the sample histories' mapping files name, and the corpus policies.
///
/// The test tool (`stepwise-test-tool`) registers these so the CLI tests can run the mappings
/// in `Versions/` and the corpus; an app registers its own in code.
package enum SamplePolicies {
    package static var registry: PolicyRegistry {
        var registry = DemoPolicies.registry
        registry.register("UniversityEstYearPolicy") { UniversityEstYearPolicy() }
        registry.register("CountryNormalizationPolicy") { CountryNormalizationPolicy() }
        registry.register("EventConversionPolicy") { EventConversionPolicy() }
        registry.register("ShopOrderPolicy") { ShopOrderPolicy() }
        // Under the module-qualified class names the corpus's .xcmappingmodel files use.
        registry.register("Migrations.Country5ToCountry6Policy") { Country5ToCountry6Policy() }
        registry.register("CoreDataMigration_Example.Post2ToPost3MigrationPolicy") {
            Post2ToPost3MigrationPolicy()
        }
        return registry
    }
}

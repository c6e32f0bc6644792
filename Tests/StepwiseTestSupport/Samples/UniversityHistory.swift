import StepwiseModel

/// A university directory whose model grows over four versions.
///
/// - v1: University(name, domain, country, website); `website` was once `weblink`
///   (its renaming identifier).
/// - v2: adds `estDate`, a Date (lightweight).
/// - v3: `estYear` (a String such as "1636") replaces `estDate`, through
///   `FUNCTION($entityPolicy, "transformEstDateToEstYear:", $source.estDate)`.
/// - v4: `country` becomes a Country entity, one per distinct name.
package enum UniversityHistory {
    package static let v1 = ObjectModel("University") {
        Entity("University") {
            Attribute("country", .string)
            Attribute("domain", .string)
            Attribute("name", .string).required()
            Attribute("website", .string).renamed(from: "weblink")
        }
    }

    package static let v2 = ObjectModel("University 2") {
        Entity("University") {
            Attribute("country", .string)
            Attribute("domain", .string)
            Attribute("estDate", .date)
            Attribute("name", .string).required()
            Attribute("website", .string).renamed(from: "weblink")
        }
    }

    package static let v3 = ObjectModel("University 3") {
        Entity("University") {
            Attribute("country", .string)
            Attribute("domain", .string)
            Attribute("estYear", .string)
            Attribute("name", .string).required()
            Attribute("website", .string)
        }
    }

    package static let v4 = ObjectModel("University 4") {
        Entity("Country") {
            Attribute("name", .string).required()
            Relationship("universities", to: "University", inverse: "country").toMany()
            Unique("name")
        }
        Entity("University") {
            Attribute("domain", .string)
            Attribute("estYear", .string)
            Attribute("name", .string).required()
            Attribute("website", .string)
            Relationship("country", to: "Country", inverse: "universities")
        }
    }

    package static let history = VersionHistory([v1, v2, v3, v4])
}

import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Seeds University stores with a few known rows, for tests.
///
/// The default rows cover what the University steps transform: six universities in three
/// distinct countries plus one without a country (v4 makes one Country per name and links
/// nothing for nil), establishment dates in UTC with one unknown (v3's `estYear`), a name that
/// is not ASCII, and a university without a website.
///
/// ```swift
/// try StoreCreator.createStore(at: url, model: UniversityHistory.v2)
/// try UniversitySeed.seed(at: url, model: UniversityHistory.v2)
/// ```
package enum UniversitySeed {
    /// One university, as every version can store it.
    package struct University: Sendable, Hashable {
        package var name: String
        package var domain: String?
        package var country: String?
        package var website: String?
        /// The establishment date, stored only by versions that have `estDate` (v2).
        package var established: Date?

        package init(
            name: String, domain: String? = nil, country: String? = nil, website: String? = nil,
            established: Date? = nil
        ) {
            self.name = name
            self.domain = domain
            self.country = country
            self.website = website
            self.established = established
        }
    }

    /// The default rows, in insertion (and so primary-key) order.
    package static let universities: [University] = [
        University(
            name: "Harvard University", domain: "harvard.edu", country: "United States",
            website: "https://www.harvard.edu", established: utc(1636, 9, 8)),
        University(
            name: "University of Oxford", domain: "ox.ac.uk", country: "United Kingdom",
            website: "https://www.ox.ac.uk", established: nil),
        University(
            name: "ETH Zürich", domain: "ethz.ch", country: "Switzerland", website: "https://ethz.ch",
            established: utc(1855, 2, 7)),
        University(
            name: "Massachusetts Institute of Technology", domain: "mit.edu", country: "United States",
            website: "https://www.mit.edu", established: utc(1861, 4, 10)),
        University(
            name: "University of Cambridge", domain: "cam.ac.uk", country: "United Kingdom", website: nil,
            established: utc(1209, 1, 1)),
        University(
            name: "Open Online University", domain: "open.example", country: nil,
            website: "https://open.example", established: utc(1999, 12, 31, hour: 23, minute: 59)),
    ]

    /// Inserts `universities` into an existing University store at `model`'s version and
    /// returns how many rows it inserted. Each property is written only when the version has it.
    @discardableResult
    package static func seed(
        at url: URL, model: ObjectModel = UniversityHistory.v1, universities: [University] = universities
    ) throws -> Int {
        let layout = try StoreLayout(model: model)
        let properties = Set(layout.entity(named: "University")?.attributes.map(\.name) ?? [])
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            for university in universities {
                let values: [String: (any DatabaseValueConvertible)?] = [
                    "name": university.name, "domain": university.domain, "country": university.country,
                    "website": university.website, "estDate": university.established,
                ]
                _ = try objects.insert("University", values.filter { properties.contains($0.key) })
            }
        }
        return universities.count
    }

    /// A date at a time of day in UTC, on the Gregorian calendar.
    package static func utc(_ year: Int, _ month: Int, _ day: Int, hour: Int = 0, minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
        return calendar.date(from: components) ?? Date(timeIntervalSinceReferenceDate: 0)
    }
}

/// The University and Events histories' mapping files (the Recipes ones are in StepwiseDemo).
extension SampleMappings {
    /// University 2 → 3: `estYear` from `estDate`.
    package static let university2to3 = """
        {
          "source": "University 2",
          "destination": "University 3",
          "entityMappings": [
            {
              "source": "University",
              "destination": "University",
              "policy": "UniversityEstYearPolicy",
              "attributes": {
                "estYear": "FUNCTION($entityPolicy, \\"transformEstDateToEstYear:\\", $source.estDate)"
              }
            }
          ]
        }

        """

    /// University 3 → 4: one Country per distinct name.
    package static let university3to4 = """
        {
          "source": "University 3",
          "destination": "University 4",
          "entityMappings": [
            { "source": "University", "destination": "University", "policy": "CountryNormalizationPolicy" }
          ]
        }

        """

    /// Events 1 → 2, first of two mapping models of the step: time stamps as seconds since 1970.
    package static let events1to2TimeStamps = """
        {
          "name": "Events → Events 2, step one: time stamps",
          "source": "Events",
          "destination": "Events 2",
          "order": 1,
          "entityMappings": [
            {
              "source": "Event",
              "destination": "TimeStampEvent",
              "policy": "EventConversionPolicy",
              "attributes": {
                "timeStamp": "FUNCTION($entityPolicy, \\"secondsSince1970:\\", $source.timeStamp)"
              }
            }
          ]
        }

        """

    /// Events 1 → 2, second mapping model of the same step: printed dates.
    package static let events1to2PrintedDates = """
        {
          "name": "Events → Events 2, step two: printed dates",
          "source": "Events",
          "destination": "Events 2",
          "order": 2,
          "entityMappings": [
            {
              "source": "Event",
              "destination": "PrintedDateEvent",
              "policy": "EventConversionPolicy",
              "attributes": {
                "printedDate": "FUNCTION($entityPolicy, \\"mediumDateString:\\", $source.timeStamp)"
              }
            }
          ]
        }

        """
}

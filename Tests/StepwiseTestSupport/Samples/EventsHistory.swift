import StepwiseModel

/// One entity split in two by two mapping models that run in the same step.
///
/// - v1: Event(timeStamp: Date).
/// - v2: TimeStampEvent(timeStamp: Double, seconds since 1970) and
///   PrintedDateEvent(printedDate: String, medium date style, en_US_POSIX, UTC).
package enum EventsHistory {
    package static let v1 = ObjectModel("Events") {
        Entity("Event") {
            Attribute("timeStamp", .date)
        }
    }

    package static let v2 = ObjectModel("Events 2") {
        Entity("PrintedDateEvent") {
            Attribute("printedDate", .string)
        }
        Entity("TimeStampEvent") {
            Attribute("timeStamp", .double)
        }
    }

    package static let history = VersionHistory([v1, v2])
}

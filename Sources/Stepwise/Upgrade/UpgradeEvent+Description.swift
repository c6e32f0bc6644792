import Foundation

// Short, readable text for `print(event)` and logs: an app that prints its progress events
// sees "step 2/3: Recipes 2 → Recipes 3 (explicit)", not the enum's dump.

extension UpgradeEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .waitingForStore(let processIDs, let bareConnection):
            if bareConnection { return "waiting for a connection outside StoreAccess to close the store" }
            if processIDs.isEmpty { return "waiting for other processes to close the store" }
            return "waiting for processes \(processIDs.map(String.init).joined(separator: ", ")) to close the store"
        case .resuming(let completedSteps):
            return "resuming an interrupted upgrade: \(completedSteps) completed step(s) kept"
        case .copying(let bytes):
            return "copying the store (\(ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)))"
        case .planned(let from, let to, let steps):
            return "planned \(from) → \(to): \(steps.count) step(s)"
        case .stepStarted(let index, let count, let step):
            return "step \(index)/\(count): \(step)"
        case .entityMapping(let step, let name, let pass, let total):
            return "step \(step), pass \(pass): \(name)" + (total.map { " (\($0) rows)" } ?? "")
        case .rows(let step, let entityMapping, let done, let total):
            return "step \(step): \(entityMapping) \(done)" + (total.map { "/\($0)" } ?? "") + " rows"
        case .stepFinished(let index, let count, let report):
            let place = ", \(report.strategySummary)"
            return
                "step \(index)/\(count) finished: \(report.objects) objects in \(String(format: "%.2f", report.seconds)) s\(place)"
        case .verifying(let level):
            return "verifying the upgraded store (\(level.rawValue))"
        case .swapping:
            return "swapping the upgraded store in"
        case .swapped:
            return "swapped in; cleaning up"
        case .finished(let report):
            return "finished: \(report)"
        }
    }
}

extension UpgradeReport: CustomStringConvertible {
    public var description: String {
        switch outcome {
        case .noStore:
            return "no store: nothing to upgrade (target \(to))"
        case .upToDate:
            return "up to date at \(to)"
        case .upgraded:
            return "upgraded \(from) → \(to) in \(steps.count) step(s), \(String(format: "%.2f", seconds)) s"
        }
    }
}

extension StepReport: CustomStringConvertible {
    public var description: String {
        // A resumed step didn't run now: no time, as if it had.
        let time = resumed ? "resumed from a checkpoint" : String(format: "%.2f s", seconds)
        return "\(from) → \(to) (\(kind), \(objects) objects, \(time), \(strategySummary))"
    }
}

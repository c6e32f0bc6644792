import Foundation
import StepwiseMapping

/// Turns a step's ``StepProgress`` into ``UpgradeEvent``s, remembering each pass's total so
/// row events carry it.
final class StepProgressRelay: @unchecked Sendable {
    // @unchecked: `total` is guarded by `lock`.
    private let step: Int
    private let emit: (@Sendable (UpgradeEvent) -> Void)?
    private let lock = NSLock()
    private var total: Int?

    init(step: Int, emit: (@Sendable (UpgradeEvent) -> Void)?) {
        self.step = step
        self.emit = emit
    }

    func relay(_ progress: StepProgress) {
        switch progress {
        case .passStarted(let pass, let name, let total):
            lock.withLock { self.total = total }
            emit?(.entityMapping(step: step, name: name, pass: pass, total: total))
        case .rows(_, let name, let done):
            let total = lock.withLock { self.total }
            emit?(.rows(step: step, entityMapping: name, done: done, total: total))
        case .validating:
            break
        }
    }
}

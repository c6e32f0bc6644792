import Stepwise

/// The phases a kill can land in, as the child announces them on standard output.
enum CrashPhase: String, CaseIterable, Sendable {
    case start, copy, plan
    case step1Pass1 = "step1-pass1"
    case step1Pass2 = "step1-pass2"
    case step2
    case verify, swap, cleanup, done

    /// The phase an upgrade event starts, if any.
    init?(_ event: UpgradeEvent) {
        switch event {
        case .copying: self = .copy
        case .planned: self = .plan
        case .stepStarted(let index, _, _) where index == 2: self = .step2
        case .entityMapping(let step, _, let pass, _) where step == 1: self = pass == 1 ? .step1Pass1 : .step1Pass2
        case .verifying: self = .verify
        case .swapping: self = .swap
        case .swapped: self = .cleanup
        case .finished: self = .done
        default: return nil
        }
    }
}

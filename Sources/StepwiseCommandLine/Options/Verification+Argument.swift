import ArgumentParser
import Stepwise

/// `--verify quick|full` takes ``UpgradeOptions/Verification``'s raw values.
extension UpgradeOptions.Verification: ExpressibleByArgument {}

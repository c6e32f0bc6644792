import Foundation
import StepwiseModel

extension HistoryCheck {
    /// A shipped version edited since its record was made (``/StepwiseModel/ShippedRecords``), one finding
    /// per difference; and, as information, a current version not recorded yet.
    ///
    /// An edited shipped version is an error although its stores still upgrade (through the
    /// record, as "<Version> (as shipped)"): the edit changes what every later build means by
    /// that version, and belongs in a new version.
    func shippedFindings() -> [HistoryFinding] {
        var findings: [HistoryFinding] = []
        for record in shipped {
            guard let current = history.version(named: record.name), let recorded = try? record.model() else {
                continue
            }
            for difference in ModelDifference.between(recorded, current) {
                findings.append(
                    HistoryFinding(
                        .shippedVersionEdited, version: record.name, entity: difference.entity,
                        property: difference.property,
                        message: "'\(record.name)' changed since it shipped: \(difference.description)",
                        fix: """
                            Put this change in a new model version and restore '\(record.name)' as it shipped \
                            (its record in \(shippedFolderName) holds it); stores it wrote still upgrade, through the record.
                            """))
            }
        }
        // Only a known order tells which version is current.
        if isOrdered, !currentVersion.isEmpty, !shipped.contains(where: { $0.name == currentVersion }) {
            findings.append(
                HistoryFinding(
                    .currentVersionNotShipped, version: currentVersion,
                    message: "the current version '\(currentVersion)' is not recorded as shipped yet.",
                    fix:
                        "When it ships, record it (the `ship` command of your Stepwise tool, or ShippedRecords.record) and commit \(shippedFolderName)."
                ))
        }
        return findings
    }
}

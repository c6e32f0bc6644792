import StepwiseMapping
import StepwiseModel

extension HistoryCheck {
    /// ``HistoryFinding/Kind/noPath``: one finding per missing step, naming the older versions
    /// it cuts off from the current one, as ``UpgradeError/Kind/noPath(from:to:gap:problems:)``
    /// finds the step.
    /// - parameter edges: The planner's steps (``UpgradePlanner/edges()``).
    func pathFindings(_ edges: [PlannedStep]) -> [HistoryFinding] {
        guard let currentIndex = history.index(of: currentVersion), currentIndex > 0 else { return [] }
        let planner = self.planner
        // The versions with a chain of steps to the current one, walking the edges backwards.
        // Only the others are planned, to learn their gap: a sound history costs one pass.
        var reaching: Set<String> = [currentVersion]
        var grew = true
        while grew {
            grew = false
            for edge in edges where reaching.contains(edge.to) && !reaching.contains(edge.from) {
                reaching.insert(edge.from)
                grew = true
            }
        }
        // Each cut-off version's gap, newest first. A version whose step to the next one exists
        // shares the next one's gap without planning again: the planner's gap is the first
        // consecutive pair on the way with neither a mapping nor an inferable mapping, and that
        // step is not one. So `plan` runs once per distinct gap, not once per version.
        let consecutive = Set(edges.map { MappingDirectory.StepKey($0.from, $0.to) })
        var gaps: [String: UpgradePlanner.MissingStep] = [:]
        for index in (0..<currentIndex).reversed() where !reaching.contains(history.versions[index].name) {
            let name = history.versions[index].name
            let next = history.versions[index + 1].name
            if consecutive.contains(MappingDirectory.StepKey(name, next)), let known = gaps[next] {
                gaps[name] = known
            } else {
                gaps[name] = planner.missingStep(from: name, to: currentVersion)
            }
        }
        var cutOff: [(gap: UpgradePlanner.MissingStep, versions: [String])] = []
        for version in history.versions[..<currentIndex] {
            guard let gap = gaps[version.name] else { continue }
            if let index = cutOff.firstIndex(where: { $0.gap.step == gap.step }) {
                cutOff[index].versions.append(version.name)
            } else {
                cutOff.append((gap, [version.name]))
            }
        }
        return cutOff.map { noPathFinding(gap: $0.gap.step, cutOff: $0.versions, problems: $0.gap.problems) }
    }

    private func noPathFinding(
        gap: MappingDirectory.StepKey?, cutOff: [String], problems: [InferenceProblem]
    ) -> HistoryFinding {
        let subject = Self.list(cutOff.map { "'\($0)'" }) + (cutOff.count == 1 ? " has" : " have")
        guard let gap else {
            return HistoryFinding(
                .noPath, version: cutOff.last,
                message: "\(subject) no chain of steps to the current version '\(currentVersion)'.",
                fix: "Add a mapping file from '\(cutOff.last ?? "")' to a later version to \(mappingFolderName).")
        }
        let file =
            "'\(gap.source) to \(gap.destination).json' (source \"\(gap.source)\", destination \"\(gap.destination)\")"
        let reason = problems.first.map { ": \($0.place) \($0.message)" } ?? ""
        let more =
            problems.count > 1 ? " (and \(problems.count - 1) more problem\(problems.count == 2 ? "" : "s"))" : ""
        let inferable =
            problems.isEmpty ? "." : ", or make the step inferable: " + problems.map(\.fix).joined(separator: " ")
        return HistoryFinding(
            .noPath, version: gap.source, entity: problems.first?.entity, property: problems.first?.property,
            message:
                "\(subject) no path to the current version '\(currentVersion)': the step '\(gap.source)' → '\(gap.destination)' has no mapping file and can't be inferred\(reason)\(more).",
            fix: "Add a mapping file \(file) to \(mappingFolderName)\(inferable)")
    }
}

import Foundation

/// `memory`: the peak resident memory of `custom`'s Stepwise side on a store ten times larger
/// than another (5M and 500k recipes; 500k and 50k with `--quick`), each in its own child
/// process (its own `VmHWM`). Memory must not grow with the rows: the engine streams them.
///
/// There is no baseline; each result is checked against the counts the seed guarantees.
enum MemoryScenario {
    static func run(small: Int, large: Int, directory: URL, runner: ChildRunner) throws -> JSONLine {
        var peaks: [Double] = []
        for rows in [small, large] {
            let seed = try RecipesSeed.ensure(rows: rows, in: directory)
            let result = try runner.run(.custom, side: .stepwise, seed: seed, placeSeed: true)
            try OutcomeCheck.same(
                result.facts.filter { expected(rows: rows)[$0.key] != nil }, expected(rows: rows), scenario: .memory)
            guard let peak = result.peakRSSMegabytes else { throw BenchError("memory: no VmHWM (not Linux?)") }
            BenchLog.note(
                String(format: "memory: custom on %d recipes: %.1f MB peak, %.2f s", rows, peak, result.seconds))
            peaks.append(peak)
        }
        let ratio = peaks[1] / peaks[0]
        var line = JSONLine()
        line.add("scenario", ScenarioName.memory.rawValue)
        line.add("rows", large)
        line.add("stepwise_s", nil as Double?)
        line.add("baseline_s", nil as Double?)
        line.add("ratio", ratio, digits: 3)
        line.add("peak_rss_mb", peaks[1], digits: 1)
        line.add("extra_disk_ratio", nil as Double?)
        line.add("target", ScenarioName.memory.target)
        line.add("meets", ratio <= 1.3 && peaks[1] <= 200)
        line.add("small_rows", small)
        line.add("small_peak_rss_mb", peaks[0], digits: 1)
        return line
    }

    /// Facts of a Recipes 2 store migrated from a seed of `rows` recipes (see ``RecipesSeed``).
    static func expected(rows: Int) -> [String: Int] {
        [
            "Chef rows": RecipesSeed.chefs(rows: rows), "Recipe rows": rows, "Ingredient rows": rows,
            "Cuisine rows": min(rows, 20), "ingredients linked to their recipe": rows,
            "recipes linked to their cuisine": rows - rows / 50,
        ]
    }
}

/// `disk`: the peak extra disk beside the store during `lightweight` and `custom` (Stepwise's
/// side), ÷ the store's size: what a device must have free for the upgrade to run. Taken from
/// those scenarios' runs when they ran, else from one Stepwise run of each.
enum DiskScenario {
    static func run(
        rows: Int, seed: URL, lightweight: PairedTrials?, custom: PairedTrials?, runner: ChildRunner
    ) throws -> JSONLine {
        func ratio(_ scenario: ScenarioName, _ trials: PairedTrials?) throws -> Double? {
            if let trials { return trials.extraDiskRatio }
            let result = try runner.run(scenario, side: .stepwise, seed: seed, placeSeed: true)
            let expected = scenario == .custom ? MemoryScenario.expected(rows: rows) : lightweightFacts(rows: rows)
            try OutcomeCheck.same(result.facts.filter { expected[$0.key] != nil }, expected, scenario: .disk)
            return result.extraDiskRatio
        }
        let lightweightRatio = try ratio(.lightweight, lightweight)
        let customRatio = try ratio(.custom, custom)
        let worst = [lightweightRatio, customRatio].compactMap { $0 }.max()
        var line = JSONLine()
        line.add("scenario", ScenarioName.disk.rawValue)
        line.add("rows", rows)
        line.add("stepwise_s", nil as Double?)
        line.add("baseline_s", nil as Double?)
        line.add("ratio", worst, digits: 3)
        line.add("peak_rss_mb", nil as Double?)
        line.add("extra_disk_ratio", worst, digits: 3)
        line.add("target", ScenarioName.disk.target)
        line.add("meets", worst.map { $0 <= 1.2 })
        line.add("lightweight_extra_disk_ratio", lightweightRatio, digits: 3)
        line.add("custom_extra_disk_ratio", customRatio, digits: 3)
        return line
    }

    /// Facts of a Recipes Light store upgraded from a seed of `rows` recipes.
    static func lightweightFacts(rows: Int) -> [String: Int] {
        [
            "Chef rows": RecipesSeed.chefs(rows: rows), "Component rows": rows, "Recipe rows": rows,
            "recipes rated 0": rows,
        ]
    }
}

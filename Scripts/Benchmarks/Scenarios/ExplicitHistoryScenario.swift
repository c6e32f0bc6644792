import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// `explicit`: a 16-step history of explicit mapping models, each transforming one entity of
/// eight, the shape of a team's hand-written `.xcmappingmodel`s: Xcode copies every other entity.
///
/// The model (``ExplicitHistory``): eight entities of equal size; `Item.owner` is a to-one
/// into `Account`, so when Account is rebuilt the kept items' keys must follow it. Step *s*
/// (1…16) adds `note<s>` to entity `s − 1 mod 8` and fills it from `$source.name`.
///
/// - Stepwise: the whole `upgradeIfNeeded` through the 16 steps. Besides the time, it reports
///   the bytes the process wrote (`write_bytes` of `/proc/self/io`) in all and per step.
/// - Baseline: `cp` of the seed, then per step one `sqlite3` transaction that adds the column
///   and fills it (`ALTER TABLE … ADD COLUMN`, `UPDATE … SET note = name`): the least SQL that
///   leaves the same rows, with nothing kept for a crash.
///
/// Target: Stepwise writes at most 3× the upgraded store's size over the whole run (issue
/// 22: a whole-store rebuild per step wrote about 21×). Not the source store's: each step adds
/// a column, the store grows by 27%, and one copy of it plus each rebuilt table once is
/// already 3.37× the source.
struct ExplicitHistoryScenario: ChildScenario {
    var baselineCopiesSeed: Bool { true }

    func runStepwise(store: URL) throws -> [String] {
        let versions = ExplicitHistory.versions
        var mappings: [MappingDirectory.StepKey: [MappingModel]] = [:]
        for step in 1..<versions.count {
            let (source, destination) = (versions[step - 1], versions[step])
            mappings[MappingDirectory.StepKey(source.name, destination.name)] = [
                try MappingFile.decode(
                    Data(ExplicitHistory.mapping(step: step).utf8), source: source, destination: destination)
            ]
        }
        let written = StepWrites()
        var options = UpgradeOptions()
        options.progress = { event in
            switch event {
            case .stepStarted: written.mark()
            case .stepFinished(let index, _, _): written.record(step: index)
            default: break
            }
        }
        let upgrader = try Upgrader(history: VersionHistory(versions), mappings: mappings, options: options)
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        let steps = try UpgradeCheck.expect(report, to: versions[versions.count - 1].name)
        return zip(steps, report.steps).enumerated().map { index, pair in
            let kept = pair.1.keptTables.count
            let bytes = written.bytes(step: index + 1).map { String(format: "%.1f MB", Double($0) / 1e6) } ?? "?"
            return "\(pair.0) kept \(kept) tables, wrote \(bytes) in \(String(format: "%.2f", pair.1.seconds)) s"
        }
    }

    func runBaseline(store: URL, seed: URL) throws -> [String] {
        try Subprocess.run("/bin/cp", [seed.path, store.path])
        try SQLiteShell.run(try Self.script(), on: store)
        return []
    }

    /// Every step's `ALTER TABLE` and `UPDATE`, one transaction per step, as a team's
    /// hand-written SQL migrations would run them.
    static func script() throws -> String {
        let versions = ExplicitHistory.versions
        var script = ""
        for step in 1..<versions.count {
            let layout = try StoreLayout(model: versions[step])
            let table = try SeedTable(layout, ExplicitHistory.transformed(step: step))
            let note = try table.column("note\(step)")
            script += """
                BEGIN;
                ALTER TABLE \(table.table) ADD COLUMN \(note) VARCHAR;
                UPDATE \(table.table) SET \(note) = \(try table.column("name"));
                COMMIT;

                """
        }
        return script
    }

    var facts: StoreFacts {
        get throws {
            let versions = ExplicitHistory.versions
            let layout = try StoreLayout(model: versions[versions.count - 1])
            var extra: [(name: String, sql: String)] = []
            for step in 1..<versions.count {
                let table = try SeedTable(layout, ExplicitHistory.transformed(step: step))
                extra.append(
                    (
                        "note\(step) equal to the name",
                        "SELECT count(*) FROM \(table.table) WHERE \(try table.column("note\(step)")) = \(try table.column("name"))"
                    ))
            }
            let item = try SeedTable(layout, "Item")
            let account = try SeedTable(layout, "Account")
            extra.append(
                (
                    "items linked to their account",
                    """
                    SELECT count(*) FROM \(item.table) i JOIN \(account.table) a ON a.Z_PK = i.\(try item.column("owner"))
                    WHERE substr(i.\(try item.column("detail")), 1, 15) = a.\(try account.column("name"))
                    """
                ))
            return StoreFacts(counting: layout, extra: extra)
        }
    }
}

/// The bytes this process wrote (`write_bytes` of `/proc/self/io`) between step boundaries.
final class StepWrites: @unchecked Sendable {
    private let lock = NSLock()
    private var start: Int64?
    private var perStep: [Int: Int64] = [:]

    /// What the process has written to storage so far, nil where `/proc/self/io` is missing:
    /// `write_bytes` less `cancelled_write_bytes`, the pages of files deleted or truncated
    /// before they reached the disk (SQLite's temporary files, say).
    static func now() -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        var fields: [String: Int64] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            fields[String(parts[0])] = Int64(parts[1].trimmingCharacters(in: .whitespaces))
        }
        guard let written = fields["write_bytes"] else { return nil }
        return written - (fields["cancelled_write_bytes"] ?? 0)
    }

    func mark() {
        lock.withLock { start = Self.now() }
    }

    func record(step: Int) {
        lock.withLock {
            if let start, let now = Self.now() { perStep[step] = now - start }
        }
    }

    func bytes(step: Int) -> Int64? {
        lock.withLock { perStep[step] }
    }
}

import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// The checks an upgraded store passes before it may replace the original:
/// - SQLite's `quick_check` or `integrity_check` (``UpgradeOptions/Verification``);
/// - `foreign_key_check`, and every to-one foreign key pointing at an existing row;
/// - metadata whose entity hashes are the target version's;
/// - tables and columns equal to the target version's generated schema.
///
/// **In proportion to what changed.** When every step altered the store in place
/// (``Scope/alteredInPlace(rowsRemoved:)``) at the `quick` level, the page check and, unless
/// a step deleted rows, the key check are skipped:
/// - the copy passed `quick_check` before step 1 (`UpgradeRun+Start`), and since then only
///   SQLite's own statements (`ALTER TABLE`, `CREATE`/`DROP INDEX`, `UPDATE`, `DELETE`)
///   changed it, each step in one transaction whose file is discarded unless it completed.
///   The b-trees are SQLite's to keep sound; a second `quick_check` would read the whole
///   store again to re-check SQLite, not Stepwise. Damage already in the store is refused by
///   the first check, so the damaged-store refusal is unchanged. In one transaction on the
///   store itself there is no first `quick_check`: SQLite checked each page the steps loaded
///   as it loaded it (`UpgradeRun+OneTransaction`, "Which pages are checked").
/// - an in-place step keeps every primary key and foreign key value, so a key can only be
///   left dangling by the rows it deletes (those of removed entities). One that renumbers
///   entities moves `Z_ENT`s and entity columns, and checks every one of them against the
///   destination itself before its transaction commits (`InPlaceRenumbering`), as its
///   validation pass checks each key against its destination entity's numbers.
/// What an in-place plan could get wrong, the schema and the metadata, is checked in full.
/// With ``UpgradeOptions/Verification/full`` everything is checked whatever the steps were.
struct StoreVerification {
    /// What the steps that produced the store did.
    enum Scope: Equatable {
        /// At least one step wrote a new store row by row or set-based: check everything.
        case rebuilt
        /// Every step altered the checked copy in place; `rowsRemoved` when one deleted rows.
        case alteredInPlace(rowsRemoved: Bool)
    }

    var level: UpgradeOptions.Verification
    var scope: Scope = .rebuilt
    /// The target's layout and hashes: the run's history's, worked out once per version.
    var layouts = VersionLayouts()
    var hashes = VersionHashes()

    func verify(_ url: URL, model: ObjectModel) throws {
        do {
            let queue = try ReadOnlyStore.openQueue(at: url)
            defer { try? queue.close() }
            try queue.read { db in try verify(db, path: url.path, model: model) }
        } catch let error as UpgradeError {
            throw error
        } catch {
            throw fail("\(error)")
        }
    }

    /// The checks on the store open in `db`: a step's output read alone, or the store itself
    /// inside the transaction that changed it, before it commits (`UpgradeRun+OneTransaction`).
    func verify(_ db: Database, path: String, model: ObjectModel) throws {
        do {
            if checksPages {
                let problems = try PageCheck.problems(in: db, full: level == .full)
                guard problems.isEmpty else {
                    throw fail("\(PageCheck.pragma(full: level == .full)): \(problems.joined(separator: "; "))")
                }
            }
            if let row = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                throw fail("foreign_key_check: \(row)")
            }
            let actual = try SQLiteSchema.read(from: db)
            let laidOut = try layouts.laidOut(model, release: .newest, matching: actual)
            if checksKeys { try checkToOneKeys(db, layout: laidOut.layout) }
            let metadata = try StoreMetadata.read(from: db, path: path)
            guard hashes.isCompatible(model, withEntityHashes: metadata.versionHashes) else {
                throw fail("its metadata's entity hashes are not '\(model.name)''s")
            }
            let differences = actual.tableDifferences(fromExpected: laidOut.schema)
            if let first = differences.first {
                throw fail("its tables differ from '\(model.name)''s: \(first)")
            }
        } catch let error as UpgradeError {
            throw error
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            // A damaged page met while checking: the store's damage, for the caller to name.
            throw error
        } catch {
            throw fail("\(error)")
        }
    }

    /// Whether the pages are checked (`quick_check` or `integrity_check`).
    var checksPages: Bool {
        if level == .full { return true }
        if case .alteredInPlace = scope { return false }
        return true
    }

    /// Whether every to-one key is checked against its destination's rows.
    var checksKeys: Bool {
        if level == .full { return true }
        if case .alteredInPlace(let rowsRemoved) = scope { return rowsRemoved }
        return true
    }

    /// Every non-null to-one key names an existing row of the destination's table, and every
    /// hidden foreign key of a to-many without inverse (kept in the
    /// destination's rows) an existing row of its owner's table.
    private func checkToOneKeys(_ db: Database, layout: StoreLayout) throws {
        for entity in layout.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard let target = layout.entity(named: relationship.destination) else { continue }
                let dangling: DanglingKeyCheck.DanglingKey?
                if let foreignKey = relationship.foreignKeyColumn {
                    dangling = try DanglingKeyCheck.firstDanglingKey(
                        db, column: foreignKey, of: entity, pointingTo: target, layout: layout)
                } else if relationship.hasHiddenForeignKey,
                    case .inverseForeignKey(_, let hiddenColumn, _) = relationship.storage
                {
                    dangling = try DanglingKeyCheck.firstDanglingKey(
                        db, column: hiddenColumn, of: target, pointingTo: entity, layout: layout)
                } else {
                    continue
                }
                if let dangling {
                    let pointsTo = relationship.foreignKeyColumn == nil ? entity.name : target.name
                    throw fail(
                        "\(dangling.count) \(entity.name).\(relationship.name) keys point to no \(pointsTo) "
                            + "(the first in row Z_PK \(dangling.primaryKey))")
                }
            }
        }
    }

    private func fail(_ reason: String) -> UpgradeError {
        UpgradeError(.verificationFailed(reason))
    }
}

extension StoreVerification.Scope {
    /// What the journaled steps did to the checked copy. Rows of a removed entity are the only
    /// rows an in-place step deletes, and each step counted them among its drops; a count it
    /// couldn't make is taken as rows removed.
    init(_ steps: [UpgradeJournal.CompletedStep]) {
        self.init(steps.map(\.report))
    }

    /// What steps with these reports did to the checked store.
    init(_ reports: [StepReport]) {
        guard reports.allSatisfy(\.inPlace) else {
            self = .rebuilt
            return
        }
        let rowsRemoved = reports.contains { report in
            report.drops.contains { $0.kind == .entity && ($0.count ?? 1) > 0 }
        }
        self = .alteredInPlace(rowsRemoved: rowsRemoved)
    }
}

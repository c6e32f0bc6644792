import Foundation
import GRDB

/// The folder where Core Data keeps the values of a store's external-storage attributes that
/// it moved out of their rows: `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` beside the store, one
/// file per value, named by the UUID its row holds (after the marker byte `0x02`).
///
/// `<StoreName>` is the store's file name without its extension. The corpus holds no such
/// folder (the Wire stores' referenced files weren't kept), so the layout comes from public
/// accounts: bluecrowbar.com's "Core Data external storage" (2011: a store in
/// `~/Library/MyLionApp` keeps them in `~/Library/MyLionApp/.MyLionApp_SUPPORT/_EXTERNAL_DATA/`),
/// a `du` listing of macOS's `AddressBook-v22.abcddb` beside `.AddressBook-v22_SUPPORT/_EXTERNAL_DATA`,
/// Paste's `db.sqlite` beside `.db_SUPPORT/_EXTERNAL_DATA/<UUID>` and a SwiftData test counting
/// files in `.<storename>_SUPPORT/_EXTERNAL_DATA`.
package struct ExternalDataFolder: Sendable, Hashable {
    /// The `_EXTERNAL_DATA` folder itself.
    package var url: URL

    /// The folder at `url`, wherever it is (a step reading a copy of the store names the
    /// folder beside the original).
    ///
    /// - parameter url: The `_EXTERNAL_DATA` folder.
    package init(url: URL) {
        self.url = url
    }

    /// The folder Core Data uses for the store `store`: `.<StoreName>_SUPPORT/_EXTERNAL_DATA/`
    /// beside it.
    ///
    /// - parameter store: The store's main file (`Model.sqlite` gives `.Model_SUPPORT/_EXTERNAL_DATA`).
    package init(store: URL) {
        let name = store.deletingPathExtension().lastPathComponent
        url = store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// `.<StoreName>_SUPPORT/`, the folder holding this one.
    package var supportDirectory: URL { url.deletingLastPathComponent() }

    /// The file holding an external value.
    ///
    /// - parameter name: The UUID text the row holds.
    package func file(named name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: false)
    }

    /// The names of the files in the folder that look like Core Data's (a UUID), sorted; none
    /// when the folder doesn't exist. Names only, never contents.
    package func fileNames() throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch CocoaError.fileReadNoSuchFile {
            return []
        } catch {
            guard FileManager.default.fileExists(atPath: url.path) else { return [] }
            throw StoreError(path: url.path, kind: .io("can't list the folder: \(error.localizedDescription)"))
        }
        return names.filter { UUID(uuidString: $0) != nil }.sorted()
    }

    /// The real bytes of a column value of an external-storage attribute: the bytes after an
    /// inline marker, or the contents of the file a reference names. NULL stays NULL, and a
    /// value that isn't bytes is returned as it is.
    ///
    /// - parameters:
    ///   - value: The column value.
    ///   - storePath: The store, for the error.
    ///   - entity: The row's entity, for the error.
    ///   - attribute: The attribute, for the error.
    ///   - primaryKey: The row's `Z_PK`, for the error.
    /// - throws: ``StoreError/Kind/invalidValue(entity:property:reason:)`` naming the row, and the
    ///   file when it is missing or unreadable, or the problem with a malformed marker.
    package func bytes(
        of value: DatabaseValue, storePath: String, entity: String, attribute: String, primaryKey: Int64
    ) throws(StoreError) -> DatabaseValue {
        guard case .blob(let column) = value.storage else { return value }
        func failure(_ reason: String) -> StoreError {
            StoreError(path: storePath, kind: .invalidValue(entity: entity, property: attribute, reason: reason))
        }
        switch ExternalBinaryValue.parse(column) {
        case .success(.inline(let bytes)):
            return bytes.databaseValue
        case .success(.external(let name)):
            let file = file(named: name)
            do {
                return try Data(contentsOf: file).databaseValue
            } catch {
                let missing = !FileManager.default.fileExists(atPath: file.path)
                throw failure(
                    "row Z_PK \(primaryKey) refers to the external file \(file.path), which "
                        + (missing
                            ? "is missing. Put the store's \(supportDirectory.lastPathComponent) folder back beside it (from the backup the store was copied with), or set the attribute to nil in that row"
                            : "can't be read (\(error.localizedDescription)). Check its permissions"))
            }
        case .failure(let problem):
            throw failure(
                "row Z_PK \(primaryKey): \(problem). Check that the model's allowsExternalBinaryDataStorage matches the version that wrote the store"
            )
        }
    }
}

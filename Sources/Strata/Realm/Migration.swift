import Foundation
import Glibc
import StrataStorage

/// The objects handed to a migration block: untyped, subscripted by property name
/// (`oldObject!["firstName"] as! String`, `newObject!["fullName"] = "..."`).
public typealias MigrationObject = DynamicObject

/// The block `Migration.enumerateObjects(ofType:_:)` calls once per object.
public typealias MigrationObjectEnumerateBlock = (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void

/// Passed to `Realm.Configuration.migrationBlock` when a file with a lower schema version is
/// opened with a higher `schemaVersion`. The block runs once, inside the write transaction
/// that upgrades the file: if it fails (a wrong value, a bad rename, duplicate primary keys
/// at the end) or the process dies, the file stays at its old version, unchanged.
///
/// Before the block runs, the file already has the new schema: added properties hold their
/// defaults, properties whose type changed hold their defaults under the new type (the old
/// values stay readable through `oldObject`), and removed properties are readable through
/// `oldObject` until the migration ends.
public final class Migration {
    let context: MigrationContext

    init(_ context: MigrationContext) { self.context = context }

    /// The schema stored in the file before the migration.
    public var oldSchema: Schema { Schema(stored: context.oldSchema) }

    /// The schema the file will have after the migration.
    public var newSchema: Schema { Schema(stored: context.txn.schema) }

    /// Calls `block` once per object of `typeName` stored before the migration, with its old
    /// representation (the old schema's properties and types) and its new one (nil when the
    /// class is not in the new schema). Objects created by the migration are not enumerated.
    public func enumerateObjects(ofType typeName: String, _ block: MigrationObjectEnumerateBlock) {
        context.enumerate(typeName, block)
    }

    /// Creates an object of `typeName` in the new schema from a dictionary or an array of
    /// values in the new schema's property order; properties not given get their defaults.
    @discardableResult
    public func create(_ typeName: String, value: Any = [Any]()) -> MigrationObject {
        context.create(typeName, value)
    }

    /// Deletes an object handed to the block (old or new: they are one stored object).
    public func delete(_ object: MigrationObject) {
        context.delete(object)
    }

    /// Deletes every object of `typeName`; a class the new schema does not have is also
    /// removed from the file. Returns whether the file had the class.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        context.deleteData(typeName)
    }

    /// Renames a property, keeping its values (a schema change only: rows are keyed by stable
    /// property ids). `oldName` must be in the old schema and not in the new one; `newName`
    /// must be in the new schema, not in the old one, and of the same type.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        context.rename(typeName, from: oldName, to: newName)
    }
}

/// The schema version stored in the file at `fileURL`. Throws, as RealmSwift's does,
/// `.invalidDatabase` when there is no file ("has not been initialized") or it is not an
/// initialised Strata database, and `.fileAccess` when it is not a regular file.
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    let path = fileURL.standardizedFileURL.path
    var status = stat()
    if stat(path, &status) != 0, errno == ENOENT {
        throw Realm.Error(.invalidDatabase, "Realm at path '\(fileURL.path)' has not been initialized.", path: fileURL.path)
    }
    if status.st_mode & S_IFMT != S_IFREG {
        throw Realm.Error(.fileAccess, "Cannot read the schema version of '\(path)': it is not a regular file", path: path)
    }
    return try translatingErrors(path: path) {
        let key = try EncryptionKey(encryptionKey)
        let file = try StorageFile.open(path: path, options: .init(readOnly: StorageFile.openInstance(path: path) == nil, encryptionKey: key))
        let txn = try file.beginRead()
        defer { txn.abort() }
        if let version = try txn.meta.schemaVersion { return version }
        if txn.schema.classes.isEmpty {
            throw StorageError(.invalidDatabase, "'\(path)' is not an initialised Strata database: it has no schema")
        }
        return 0
    }
}

extension Realm {
    /// Runs `configuration`'s migration now rather than at the first open: opens its file as
    /// `Realm(configuration:)` does (migrating it when its schema version is lower than the
    /// configuration's) and lets the instance go. Throws what opening would.
    public static func performMigration(for configuration: Realm.Configuration = Realm.Configuration.defaultConfiguration) throws {
        _ = try Realm(configuration: configuration)
    }
}

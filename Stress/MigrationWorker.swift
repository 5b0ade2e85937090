import Foundation
import Strata

/// `StressItem` at schema version 1: `tag` renamed to `label`, `note` added.
final class StressItemV1: Object {
    override class func _realmObjectName() -> String? { "StressItem" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var label = ""
    @Persisted var value = 0
    @Persisted var note = ""
}

/// Worker roles around migrations.
///
/// - `migrate --file F [--hang]`: opens F at schema version 1 (`StressItemV1`), renaming
///   `tag` to `label` and filling `note`. Prints `MIGRATING from=<v>` when the block starts
///   and `MIGRATED count=<n> version=<schema version>` when the Realm is open; with `--hang`
///   the block waits forever after its first line, to be killed.
/// - `old-schema --file F`: opens F with the version-0 `StressItem`, prints `READY count=<n>`,
///   then answers stdin lines: `write` → `WROTE` or `WRITE-ERROR code=<n> <message>`;
///   `read` → refreshes and prints `STATE ...` (traps if the schema changed under it);
///   `quit` → `BYE`.
enum MigrationWorker {
    static func migrate(_ options: Arguments) throws {
        let hang = options.flag("hang")
        let configuration = Realm.Configuration(
            fileURL: URL(fileURLWithPath: options.string("file")), schemaVersion: 1,
            migrationBlock: { migration, oldSchemaVersion in
                emit("MIGRATING from=\(oldSchemaVersion)")
                if hang { while true { pause() } }
                migration.renameProperty(onType: "StressItem", from: "tag", to: "label")
                migration.enumerateObjects(ofType: "StressItem") { _, new in
                    new!["note"] = "migrated \(new!["id"] as! Int)"
                }
            },
            objectTypes: [StressItemV1.self])
        let realm = try Realm(configuration: StressKey.applied(to: configuration))
        emit("MIGRATED count=\(realm.objects(StressItemV1.self).count) version=\(try schemaVersionAtURL(configuration.fileURL!))")
    }

    static func oldSchema(_ options: Arguments) throws {
        let realm = try Workers.open(options)
        emit("READY count=\(realm.objects(StressItem.self).count)")
        while let line = readLine() {
            switch line {
            case "write":
                do {
                    try realm.write { realm.add(StressItem(value: ["id": 999_999, "tag": "late"]), update: .modified) }
                    emit("WROTE")
                } catch let error as Realm.Error {
                    emit("WRITE-ERROR code=\(error.code.rawValue) \(error.localizedDescription.replacingOccurrences(of: "\n", with: " "))")
                }
            case "read":
                realm.refresh()
                emit(Workers.state(of: realm))
            case "quit":
                emit("BYE")
                return
            default:
                emit("ERROR unknown command '\(line)'")
            }
        }
    }
}

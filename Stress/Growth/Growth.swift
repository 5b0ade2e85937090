import Foundation
import Strata

/// What the growth roles and scenario share: the file's configuration, and the check of
/// every blob in a snapshot.
enum Growth {
    /// The configuration of the growth file at `path`.
    static func configuration(path: String, nosync: Bool) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [StressBlob.self])
        configuration.syncOnCommit = !nosync
        return StressKey.applied(to: configuration)
    }

    /// The configuration a worker's `--file` and `--nosync` name.
    static func configuration(_ options: Arguments) -> Realm.Configuration {
        configuration(path: options.string("file"), nosync: options.flag("nosync"))
    }

    /// Checks every blob of the Realm's snapshot is intact (`BlobContent`); returns their ids
    /// in key order.
    static func checkBlobs(_ realm: Realm, maximum: Int) -> ([Int], Findings) {
        var findings = Findings()
        var ids: [Int] = []
        for blob in realm.objects(StressBlob.self) {
            let id = blob.id
            findings.expect(BlobContent.isIntact(blob.payload, id: id, maximum: maximum),
                            "blob \(id >> 32)/\(id & 0xFFFF_FFFF) at version \(realm.version) does not hold its bytes")
            ids.append(id)
        }
        return (ids, findings)
    }
}

import Foundation
import Strata

/// `worker growth-reader --file F --blob-kb B`: while holding (from the start, and after
/// `hold`), holds one snapshot until `release`, checking it again every half second: the
/// same version, the same blobs, each with its bytes intact, while the writers delete those
/// blobs and the file grows around the pages it pins. While released, it checks short
/// snapshots (refresh, check, release) every 50 ms. Ends on `stop`.
enum SnapshotHolder {
    static func run(_ options: Arguments) throws {
        let control = ControlChannel(), stats = WorkerStats()
        let realm = try Realm(configuration: Growth.configuration(options))
        let maximum = options.int("blob-kb") * 1024
        while !control.stopRequested {
            realm.refresh()
            let version = realm.version
            let (held, findings) = Growth.checkBlobs(realm, maximum: maximum)
            stats.record(findings)
            stats.add(.snapshots)
            stats.tick()
            if control.isReleased {
                realm.invalidate()
                control.pause(0.05)
                continue
            }
            while !control.stopRequested && !control.isReleased {
                control.pause(0.5)
                let (ids, found) = Growth.checkBlobs(realm, maximum: maximum)
                var again = found
                again.expect(realm.version == version, "a held snapshot moved from version \(version) to \(realm.version)")
                again.expect(ids == held, "a held snapshot of version \(version) had \(held.count) blobs, now \(ids.count) (or other ones)")
                stats.record(again)
                stats.tick()
            }
        }
        stats.finish()
    }
}

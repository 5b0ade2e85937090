import Foundation
import Strata

/// `worker growth-writer --file F --slot S --blob-kb B --live N --mbps M`: until told to
/// stop, adds one blob (up to B KiB, `BlobContent`) per transaction and deletes its own blob
/// from N transactions before, so its live data stays bounded while the file must keep
/// finding room for new pages; it writes at most M MB/s.
enum BlobWriter {
    static func run(_ options: Arguments) throws {
        let control = ControlChannel(), stats = WorkerStats()
        let realm = try Realm(configuration: Growth.configuration(options))
        let slot = options.int("slot"), maximum = options.int("blob-kb") * 1024, live = options.int("live")
        let bytesPerSecond = options.double("mbps", default: 10) * 1e6
        let started = Date()
        var sequence = 0, written = 0
        while !control.stopRequested {
            sequence += 1
            let id = slot << 32 | sequence
            let payload = BlobContent.make(id: id, maximum: maximum)
            try realm.write {
                realm.add(StressBlob(value: ["id": id, "payload": payload]))
                if sequence > live, let old = realm.object(ofType: StressBlob.self, forPrimaryKey: slot << 32 | (sequence - live)) {
                    realm.delete(old)
                }
            }
            written += payload.count
            stats.add(.commits)
            stats.add(.bytes, payload.count)
            stats.tick()
            let ahead = Double(written) / bytesPerSecond - Date().timeIntervalSince(started)
            if ahead > 0 { control.pause(ahead) }
        }
        stats.finish()
    }
}

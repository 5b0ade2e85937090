import Foundation
import Strata
import StrataStorage

/// The worker roles of the file tests: a process of another user that only reads, one that
/// holds a lock on a lock file, and one that fills a file under an address-space limit.
enum FileWorkers {
    /// `lock-byte --path P --byte N`: opens P read-only, takes a shared `fcntl` lock on byte
    /// N (what any user who may read a file can do), prints `LOCKED pid=<pid>` and waits
    /// forever, to be killed.
    static func lockByte(_ options: Arguments) throws {
        let path = options.string("path")
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { fail("cannot open '\(path)': \(String(cString: strerror(errno)))") }
        var request = flock()
        request.l_type = Int16(F_RDLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(options.int("byte"))
        request.l_len = 1
        guard fcntl(fd, F_SETLK, &request) == 0 else { fail("cannot lock '\(path)': \(String(cString: strerror(errno)))") }
        emit("LOCKED pid=\(getpid())")
        while true { pause() }
    }

    /// `hold-read --file F`: opens F read-only and keeps one snapshot, answering each stdin
    /// line with the snapshot's `STATE` (`Workers.state(of:)`): `check` reads the held snapshot
    /// again, `refresh` moves to the newest one first. Prints `OPEN` once open.
    static func holdRead(_ options: Arguments) throws {
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: options.string("file")),
                                                readOnly: true, objectTypes: [StressItem.self])
        let realm = try Realm(configuration: StressKey.applied(to: configuration))
        realm.autorefresh = false
        emit("OPEN " + Workers.state(of: realm))
        while let command = readLine() {
            if command == "refresh" { realm.refresh() }
            emit(Workers.state(of: realm))
        }
    }

    /// `fill --file F --megabytes M`: writes at least M MiB of blobs of up to 2 MiB
    /// (`BlobContent`), eight to a write, checks every one reads back, and prints
    /// `FILLED blobs=<n> bytes=<bytes written> first-map=<bytes> map=<bytes>` (the map's size
    /// once open, and at the end).
    static func fill(_ options: Arguments) throws {
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: options.string("file")),
                                                objectTypes: [StressBlob.self])
        let realm = try Realm(configuration: StressKey.applied(to: configuration))
        let goal = options.int("megabytes") << 20, maximum = 2 << 20
        let environment = StorageFile.openInstance(path: options.string("file"))?.environment
        let firstMap = environment?.mapSize ?? 0
        var written = 0, blobs = 0
        while written < goal {
            try realm.write {
                for id in blobs..<(blobs + 8) {
                    let payload = BlobContent.make(id: id, maximum: maximum)
                    realm.add(StressBlob(value: ["id": id, "payload": payload]))
                    written += payload.count
                }
            }
            blobs += 8
        }
        for id in 0..<blobs {
            guard let blob = realm.object(ofType: StressBlob.self, forPrimaryKey: id),
                  BlobContent.isIntact(blob.payload, id: id, maximum: maximum) else { fail("blob \(id) does not read back") }
        }
        emit("FILLED blobs=\(blobs) bytes=\(written) first-map=\(firstMap) map=\(environment?.mapSize ?? 0)")
    }
}

import Foundation
import Strata

/// The worker roles: small programs a test runs as separate processes against one file.
///
/// Every role prints machine-readable lines (`KEY name=value ...`) on stdout, one per event,
/// written unbuffered so the parent sees each as it happens.
enum Workers {
    /// Runs the role named `role` with `options`.
    static func run(_ role: String, _ options: Arguments) throws {
        switch role {
        case "insert": try insert(options)
        case "hold-write": try holdWrite(options)
        case "read": try read(options)
        case "serve": try serve(options)
        case "misuse": try Misuse.run(options)
        case "migrate": try MigrationWorker.migrate(options)
        case "old-schema": try MigrationWorker.oldSchema(options)
        case "async-write": try AsyncWorker.run(options)
        case "observe": try ObserveWorker.run(options)
        case "lock-byte": try FileWorkers.lockByte(options)
        case "hold-read": try FileWorkers.holdRead(options)
        case "fill": try FileWorkers.fill(options)
        case "history": try HistoryWorker.run(options)
        default: fail("unknown worker role '\(role)'")
        }
    }

    /// Opens the file named by `--file` for `types`; `--nosync` turns off the flush per commit.
    /// An encrypted file is opened with the key in `STRATA_KEY` (`StressKey`).
    static func open(_ options: Arguments, types: [Object.Type] = [StressItem.self]) throws -> Realm {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: options.string("file")),
                                                objectTypes: types)
        configuration.syncOnCommit = !options.flag("nosync")
        return try Realm(configuration: StressKey.applied(to: configuration))
    }

    /// `insert --file F --from A --count N [--tag T]`: adds items A..A+N-1, one write each,
    /// printing `COMMIT id=<id> version=<v>` after each, then `DONE count=<n> version=<v>`.
    static func insert(_ options: Arguments) throws {
        let realm = try open(options)
        let from = options.int("from"), count = options.int("count")
        let tag = options.string("tag", default: "worker-\(getpid())")
        for id in from..<(from + count) {
            let version = try insertOne(realm, id: id, tag: tag)
            emit("COMMIT id=\(id) version=\(version)")
        }
        realm.refresh()
        emit("DONE count=\(count) version=\(realm.version)")
    }

    /// Adds one item in its own write and returns the version that write committed.
    ///
    /// Inside a write the Realm reads the newest version and holds the write lock, so the
    /// commit is that version plus one.
    static func insertOne(_ realm: Realm, id: Int, tag: String) throws -> UInt64 {
        try realm.write {
            realm.add(StressItem(value: ["id": id, "tag": tag, "value": id * 10]))
            return realm.version + 1
        }
    }

    /// `hold-write --file F --from A --count N`: begins a write, adds N items, prints
    /// `IN-WRITE version=<v>` and then waits forever inside the transaction, to be killed.
    static func holdWrite(_ options: Arguments) throws {
        let realm = try open(options)
        let from = options.int("from", default: 1_000_000), count = options.int("count", default: 10)
        realm.beginWrite()
        for id in from..<(from + count) {
            realm.add(StressItem(value: ["id": id, "tag": "partial", "value": id * 10]))
        }
        emit("IN-WRITE version=\(realm.version)")
        while true { pause() }
    }

    /// `read --file F`: refreshes and prints `STATE ...` (see `state(of:)`).
    static func read(_ options: Arguments) throws {
        let realm = try open(options)
        realm.refresh()
        emit(state(of: realm))
    }

    /// `serve --file F`: keeps the file open and runs one command per stdin line, answering
    /// each with one line:
    ///
    /// - `insert A N TAG` → `OK version=<v>` (N writes, the version of the last one)
    /// - `state` → `STATE ...` of the snapshot held now, without refreshing
    /// - `refresh` → `REFRESHED changed=<bool> version=<v>`
    /// - `quit` → `BYE`, then exits 0.
    static func serve(_ options: Arguments) throws {
        let realm = try open(options)
        emit("READY version=\(realm.version)")
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "insert" where words.count == 4:
                guard let from = Int(words[1]), let count = Int(words[2]) else { emit("ERROR bad insert '\(line)'"); continue }
                var version: UInt64 = 0
                for id in from..<(from + count) { version = try insertOne(realm, id: id, tag: words[3]) }
                emit("OK version=\(version)")
            case "state":
                emit(state(of: realm))
            case "refresh":
                let changed = realm.refresh()
                emit("REFRESHED changed=\(changed) version=\(realm.version)")
            case "quit":
                emit("BYE")
                return
            default:
                emit("ERROR unknown command '\(line)'")
            }
        }
    }

    /// `STATE count=<n> idsum=<sum of ids> ids=<ranges> tags=<tag:n,...> version=<v>` for
    /// the items `realm` sees; `ids` lists the sorted ids as ranges (`1-5,100-104`).
    static func state(of realm: Realm) -> String {
        let items = realm.objects(StressItem.self)
        let ids = items.map(\.id).sorted()
        var tags: [String: Int] = [:]
        for item in items { tags[item.tag, default: 0] += 1 }
        let tagText = tags.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        return "STATE count=\(items.count) idsum=\(ids.reduce(0, +)) ids=\(ranges(ids)) tags=\(tagText) version=\(realm.version)"
    }

    /// Sorted integers written as ranges: `[1, 2, 3, 7]` → `1-3,7`; empty → `-`.
    static func ranges(_ sorted: [Int]) -> String {
        guard var start = sorted.first else { return "-" }
        var parts: [String] = []
        var end = start
        for n in sorted.dropFirst() {
            if n == end + 1 { end = n; continue }
            parts.append(start == end ? "\(start)" : "\(start)-\(end)")
            start = n
            end = n
        }
        parts.append(start == end ? "\(start)" : "\(start)-\(end)")
        return parts.joined(separator: ",")
    }

    /// Turns this thread's run loop until `done()` holds; each turn sleeps until a source fires.
    static func runRunLoop(until done: () -> Bool) {
        while !done() { _ = RunLoop.current.run(mode: .default, before: .distantFuture) }
    }

    /// Turns this thread's run loop until the process is killed.
    static func runRunLoopForever() -> Never {
        while true { _ = RunLoop.current.run(mode: .default, before: .distantFuture) }
    }
}

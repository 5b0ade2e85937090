import Foundation
import Strata

/// The `async-write` role: group commits of `writeAsync` seen from another process.
enum AsyncWorker {
    /// `async-write --file F --from A --count N`: queues N `writeAsync` inserts (items
    /// A..A+N-1, tag `async`), runs the run loop until every completion has been called and
    /// prints `COMMITTED count=<N> version=<v>`. Then it queues N more (A+N..A+2N-1, tag
    /// `lost`); the last of them prints `IN-GROUP` and waits forever inside the group's
    /// transaction, before its commit, to be killed.
    static func run(_ options: Arguments) throws {
        let realm = try Workers.open(options)
        let from = options.int("from", default: 1), count = options.int("count", default: 10)
        var completed = 0
        var failure: Error?
        for id in from..<(from + count) {
            realm.writeAsync({ realm.add(StressItem(value: ["id": id, "tag": "async", "value": id * 10])) },
                             onComplete: { error in
                                 if let error { failure = error }
                                 completed += 1
                             })
        }
        Workers.runRunLoop { completed >= count }
        if let failure { throw failure }
        realm.refresh()
        emit("COMMITTED count=\(count) version=\(realm.version)")
        for id in (from + count)..<(from + 2 * count) {
            realm.writeAsync {
                realm.add(StressItem(value: ["id": id, "tag": "lost", "value": id * 10]))
                if id == from + 2 * count - 1 {
                    emit("IN-GROUP")
                    while true { pause() }
                }
            }
        }
        Workers.runRunLoopForever()
    }
}

import Foundation
import Strata

/// `worker misuse --file F --kind K`: commits one item, then makes the programming error
/// RealmSwift traps on (so a test can check the process traps with a clear message and the
/// committed item survives). Kinds: `write-outside-transaction`, `nested-write`,
/// `wrong-thread`, `deleted-object`.
enum Misuse {
    static func run(_ options: Arguments) throws {
        let realm = try Workers.open(options)
        let item = StressItem()
        item.id = 1
        try realm.write { realm.add(item) }
        emit("COMMITTED")
        switch options.string("kind") {
        case "write-outside-transaction":
            item.value = 2
        case "nested-write":
            try realm.write { try realm.write { realm.add(StressItem()) } }
        case "wrong-thread":
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = item.value
                done.signal()
            }.start()
            done.wait()
        case "deleted-object":
            try realm.write { realm.delete(item) }
            _ = item.value
        case let other:
            fail("unknown misuse kind '\(other)'")
        }
        emit("NO-TRAP")
    }
}

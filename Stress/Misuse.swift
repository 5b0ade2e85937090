import Foundation
import Strata

/// `worker misuse --file F --kind K`: commits one item, then makes the programming error
/// RealmSwift traps on (so a test can check the process traps with a clear message and the
/// committed item survives). Kinds: `write-outside-transaction`, `nested-write`,
/// `wrong-thread`, `deleted-object`, `outside-actor` (a Realm isolated to an actor, read from
/// a task that is not), `outside-main-actor` (a Realm isolated to the main actor, read from
/// another thread), `sort-unmanaged-list` (`sorted(ascending:)` on a list no Realm manages).
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
        case "outside-actor":
            let done = DispatchSemaphore(value: 0)
            let configuration = realm.configuration
            Task.detached {
                let owner = RealmOwner()
                let isolated = try await owner.open(configuration)
                withExtendedLifetime(owner) { _ = isolated.objects(StressItem.self).count }
                done.signal()
            }
            done.wait()
        case "outside-main-actor":
            let configuration = realm.configuration
            Task { @MainActor in
                let isolated = try await Realm.asyncOpen(configuration: configuration)
                DispatchQueue.global().async {
                    _ = isolated.objects(StressItem.self).count
                    emit("NO-TRAP")
                    exit(0)
                }
            }
            Workers.runRunLoopForever()
        case "sort-unmanaged-list":
            let scores = List<Int>()
            scores.append(objectsIn: [2, 1])
            _ = scores.sorted(ascending: true)
        case let other:
            fail("unknown misuse kind '\(other)'")
        }
        emit("NO-TRAP")
    }
}

/// An actor that opens a Realm isolated to itself and hands it out (the misuse).
private actor RealmOwner {
    func open(_ configuration: Realm.Configuration) async throws -> Realm {
        try await Realm(configuration: configuration, actor: self)
    }
}

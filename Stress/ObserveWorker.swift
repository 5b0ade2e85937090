import Foundation
import Strata

/// `observe --file F`: observes every `StressItem` and runs this thread's run loop; commits
/// from any process reach it through the coordination file without a refresh. Prints
/// `READY version=<v>`, then `CHANGE count=<n> insertions=<i> deletions=<d>
/// modifications=<m> version=<v>` per delivery. Runs until killed.
enum ObserveWorker {
    static func run(_ options: Arguments) throws {
        let realm = try Workers.open(options)
        let items = realm.objects(StressItem.self)
        let token = items.observe { change in
            guard case let .update(now, deletions, insertions, modifications) = change else { return }
            emit("CHANGE count=\(now.count) insertions=\(insertions.count) deletions=\(deletions.count) modifications=\(modifications.count) version=\(realm.version)")
        }
        emit("READY version=\(realm.version)")
        withExtendedLifetime(token) { Workers.runRunLoopForever() }
    }
}

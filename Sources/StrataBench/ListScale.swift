import Foundation
import Strata
import StrataStorage

/// An object with a list, and the objects it holds (each linking back to a hub).
final class Roster: Object {
    @Persisted var members: List<Member>
}

/// A list member; `hub` gives the hub object its incoming links.
final class Member: Object {
    @Persisted var n = 0
    @Persisted var hub: Hub?
}

/// The target of many to-one links, counted through its backlinks.
final class Hub: Object {
    @Persisted var name = ""
    @Persisted(originProperty: "hub") var members: LinkingObjects<Member>
}

/// `strata-bench --lists`: the per-operation cost of list append, index and remove and of a
/// backlink count, at growing list sizes (1k to 1M members). The cost should stay flat: a
/// list is stored in chunks, so each operation touches one chunk and the directory.
enum ListScale {
    static let sizes = [1_000, 10_000, 100_000, 200_000, 1_000_000]
    static let operations = 1_000

    static func run(directory: URL) throws -> String {
        var lines = ["members   append µs/op   index µs/op   remove µs/op   backlink count µs/op"]
        for size in sizes {
            let url = directory.appendingPathComponent("lists-\(size).realm")
            var config = Realm.Configuration(fileURL: url, objectTypes: [Roster.self, Hub.self])
            config.syncOnCommit = false
            let realm = try Realm(configuration: config)
            let roster = Roster()
            let hub = Hub(value: ["name": "hub"])
            try realm.write {
                realm.add([roster])
                realm.add(hub)
                let members = (0..<size).map { Member(value: ["n": $0, "hub": hub]) }
                roster.members.append(objectsIn: members)
            }
            let list = roster.members
            var rng = SplitMix64(seed: UInt64(size))
            let extra = try realm.write { (0..<operations).map { realm.create(Member.self, value: ["n": -$0]) } }

            let append = try elapsedSeconds { try realm.write { for m in extra { list.append(m) } } }
            var sum = 0
            let index = elapsedSeconds { for _ in 0..<operations { sum &+= list[Int(rng.next() % UInt64(list.count))].n } }
            let remove = try elapsedSeconds { try realm.write { for _ in 0..<operations { list.remove(at: Int(rng.next() % UInt64(list.count))) } } }
            let count = elapsedSeconds { for _ in 0..<operations { sum &+= hub.members.count } }
            guard list.count == size, hub.members.count == size else {
                throw BenchError("list scale: \(list.count) members and \(hub.members.count) backlinks, expected \(size)")
            }
            lines.append(String(format: "%7d   %12.2f   %11.2f   %12.2f   %20.2f", size,
                                append * 1e6 / Double(operations), index * 1e6 / Double(operations),
                                remove * 1e6 / Double(operations), count * 1e6 / Double(operations)))
            printToStandardError("# check lists \(size) sum=\(sum)")
        }
        return lines.joined(separator: "\n")
    }
}

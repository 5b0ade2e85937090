import Foundation
import Strata
import StrataStorage

/// `strata-bench --past`: what the old values in history entries cost and what reading the
/// past costs, Strata only. W5 (100,000 updates in one write) and W8 (10,000 one-object
/// commits) on a file of N Persons, with `historyRecordsOldValues` on and then off; then, on
/// the file with them on, the time `freeze(atVersion:)` takes to open the version 1, 100 and
/// 10,000 commits back (each commit updating one Person), and to count the Persons there.
enum PastVersions {
    static let backs = [1, 100, 10_000]

    static func run(directory: URL, n: Int, durable: Bool) throws -> String {
        var lines = ["old values   W5 s (100k updates)   W8 s (10k commits)"]
        var withOldValues: StrataEngine?
        for oldValues in [true, false] {
            let place = directory.appendingPathComponent(oldValues ? "on" : "off")
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            let engine = try StrataEngine(directory: place, durable: durable, oldValues: oldValues, encryptionKey: nil)
            try engine.insert(count: n)
            let ids = Workload.randomIDs(seed: Workload.updateSeed, count: Workload.updates, below: n)
            let w5 = try elapsedSeconds { _ = try engine.update(ids) }
            let w8 = try elapsedSeconds { try engine.smallCommits(from: n, count: Workload.smallCommits) }
            lines.append(String(format: "%-10@   %19.3f   %18.3f", oldValues ? "on" : "off", w5, w8))
            if oldValues { withOldValues = engine }
        }
        guard let realm = withOldValues?.realm else { return lines.joined(separator: "\n") }
        var random = SplitMix64(seed: 23)
        for _ in 0..<(backs.max()! + 1) {
            let id = Int(random.next() % UInt64(n))
            try realm.write { realm.object(ofType: Person.self, forPrimaryKey: id)!.age += 1 }
        }
        lines += ["", "commits back   open s   count"]
        for back in backs {
            var count = 0
            let seconds = try elapsedSeconds {
                let past = try realm.freeze(atVersion: realm.version - UInt64(back))
                count = past.objects(Person.self).count
            }
            lines.append(String(format: "%12d   %6.3f   %d", back, seconds, count))
        }
        return lines.joined(separator: "\n")
    }

}

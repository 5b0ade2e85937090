import Foundation
import StrataStorage

/// The fixed sizes, seeds and row generator of the Person workload (README.md, "strata-bench").
enum Workload {
    /// W1: rows per write transaction.
    static let batchRows = 10_000
    /// W2: repetitions of the count query; the reported time is per query.
    static let countRepeats = 10
    /// W3: random primary-key lookups.
    static let pkLookups = 100_000
    /// W4: random lookups by name through the index.
    static let indexLookups = 10_000
    /// W5: random score updates in one write transaction.
    static let updates = 100_000
    /// W7: rows read from the sorted result.
    static let sortLimit = 100
    /// W8 and W8b: one-object write transactions.
    static let smallCommits = 10_000

    /// W2 predicate: `age > 50 AND name BEGINSWITH 'name-1'`.
    static let queryMinAge = 50
    static let queryPrefix = "name-1"

    /// W11: `id IN` queries, each with `inValues` distinct random ids.
    static let inRuns = 100
    static let inValues = 1_000
    /// W12: `name BEGINSWITH` queries, one per prefix (`prefixes`).
    static let prefixRuns = 100
    /// W13: `id BETWEEN {a, a + rangeWidth - 1}` queries at random `a`.
    static let rangeRuns = 100
    static let rangeWidth = 1_000
    /// W14 and W15: teams of `teamSize` random persons, and query repetitions.
    static let teams = 10_000
    static let teamSize = 10
    static let listQueryRepeats = 10
    /// W14: `ANY members.age > anyMinAge`.
    static let anyMinAge = 90
    /// W15: `SUBQUERY(members, $m, $m.age > 50 AND $m.score > 100).@count > 3`.
    static let subqueryPredicate = "SUBQUERY(members, $m, $m.age > \(subqueryMinAge) AND $m.score > \(Int(subqueryMinScore))).@count > \(subqueryMinCount)"
    static let subqueryMinAge = 50
    static let subqueryMinScore = 100.0
    static let subqueryMinCount = 3

    /// W16 and W17: pets with an owner each, links followed per pass, persons counted.
    static let pets = 100_000
    static let linkPasses = 10
    static let backlinkCounts = 100_000

    static let pkSeed: UInt64 = 0x5eed_0003
    static let indexSeed: UInt64 = 0x5eed_0004
    static let updateSeed: UInt64 = 0x5eed_0005
    static let inSeed: UInt64 = 0x5eed_0011
    static let rangeSeed: UInt64 = 0x5eed_0013
    static let teamSeed: UInt64 = 0x5eed_0014
    static let petSeed: UInt64 = 0x5eed_0016
    static let backlinkSeed: UInt64 = 0x5eed_0017

    /// W11: `inRuns` sets of distinct random ids below `n` (each at most `n` ids).
    static func inSets(below n: Int) -> [[Int]] {
        var rng = SplitMix64(seed: inSeed)
        let size = min(inValues, n)
        return (0..<inRuns).map { _ in
            var seen = Set<Int>()
            var ids: [Int] = []
            ids.reserveCapacity(size)
            while ids.count < size {
                let id = Int(rng.next() % UInt64(n))
                if seen.insert(id).inserted { ids.append(id) }
            }
            return ids
        }
    }

    /// W14 and W15: the member ids of each team (team `t` is element `t`), persons below `n`
    /// drawn from one stream, so that every engine stores the same teams.
    static func teamMembers(below n: Int) -> [[Int]] {
        var rng = SplitMix64(seed: teamSeed)
        return (0..<teams).map { _ in (0..<teamSize).map { _ in Int(rng.next() % UInt64(n)) } }
    }

    /// W16 and W17: the owner of each pet (pet `p` is element `p`), a person below `n`.
    static func petOwners(below n: Int) -> [Int] { randomIDs(seed: petSeed, count: pets, below: n) }

    /// W12: the prefixes `name-10` ... `name-109`.
    static var prefixes: [String] { (0..<prefixRuns).map { "name-\(10 + $0)" } }

    /// W13: the inclusive id ranges, `rangeWidth` ids each (fewer when n is smaller).
    static func ranges(below n: Int) -> [ClosedRange<Int>] {
        var rng = SplitMix64(seed: rangeSeed)
        let width = min(rangeWidth, n)
        return (0..<rangeRuns).map { _ in
            let low = Int(rng.next() % UInt64(n - width + 1))
            return low...(low + width - 1)
        }
    }

    static func age(_ i: Int) -> Int { i % 100 }
    static func score(_ i: Int) -> Double { Double(i) * 0.5 }

    /// `count` ids in `0..<n` drawn from a splitmix64 stream started at `seed`.
    static func randomIDs(seed: UInt64, count: Int, below n: Int) -> [Int] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in Int(rng.next() % UInt64(n)) }
    }

    /// The W7 check sum over the first rows in (age, name) order, identical for every engine.
    static func sortHash(_ rows: [(id: Int, age: Int, nameLength: Int)]) -> Int {
        var h: UInt64 = 0
        for r in rows.prefix(sortLimit) {
            h = h &* 1_000_003 &+ UInt64(bitPattern: Int64(r.id)) &* 31
                &+ UInt64(bitPattern: Int64(r.age)) &+ UInt64(r.nameLength)
        }
        return Int(bitPattern: UInt(h))
    }
}

/// Writes `name-<i>` (ASCII, no terminator) for a non-negative `i` into `buffer`, which must
/// hold at least 32 bytes, and returns its length. Used by the raw engines so that string
/// formatting does not dominate them.
@inline(__always)
func writeName(_ i: Int, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    return withUnsafeMutableBytes(of: &digits) { tmp -> Int in
        var u = UInt64(i)
        var n = 0
        repeat {
            tmp[n] = UInt8(ascii: "0") &+ UInt8(u % 10)
            u /= 10
            n += 1
        } while u != 0
        buffer[0] = UInt8(ascii: "n")
        buffer[1] = UInt8(ascii: "a")
        buffer[2] = UInt8(ascii: "m")
        buffer[3] = UInt8(ascii: "e")
        buffer[4] = UInt8(ascii: "-")
        for k in 0..<n { buffer[5 + k] = tmp[n - 1 - k] }
        return 5 + n
    }
}

import Foundation
import Strata

/// What `strata log --chart` draws, counted from history entries: commits over time per
/// process and per class (in at most `timeBins` equal spans of time), and the objects the
/// commits changed and the file's size in use over versions (in at most `maxVersionBins`
/// equal runs of versions). The
/// bins are fixed in number, so a chart of 100,000 commits is as small as one of ten.
struct HistoryChart {
    /// A named series and its count in each bin.
    struct Series {
        let name: String
        var counts: [Int]
        /// Whether it counts the commits of the names not drawn by name.
        var isOther = false
        /// The sum of the counts.
        var total: Int { counts.reduce(0, +) }
    }

    /// The number of time bins.
    static let timeBins = 60
    /// The most version bins.
    static let maxVersionBins = 120
    /// The most series drawn by name; the others are drawn together as one.
    static let maxSeries = 7

    let commits: Int
    /// The first and last commit's time (`end` a second after `start` when every commit
    /// has the same time).
    let start: Date
    let end: Date
    /// The oldest and newest version charted.
    let oldest: UInt64
    let newest: UInt64
    /// "versions 1 to 12", or "version 7" for one.
    var versions: String { oldest == newest ? "version \(oldest)" : "versions \(oldest) to \(newest)" }
    /// Commits per time bin, one series per process (`name[pid]`), most commits first.
    let processes: [Series]
    /// Commits that changed the class, per time bin, one series per class.
    let classes: [Series]
    /// Versions per version bin.
    let versionsPerBin: UInt64
    /// Objects inserted, deleted or modified per version bin (a cleared class counts one).
    let changedObjects: [Int]
    /// The largest size in use of the versions in each version bin, from the entries after
    /// them (`Realm.HistoryEntry.bytesInUseBefore`: entry V records version V-1); nil for a
    /// bin no retained entry gives a size for (the newest version's is in no entry yet).
    let bytesInUse: [Int?]

    /// The chart of `entries` (in any order; at least one).
    init(_ entries: [Realm.HistoryEntry]) {
        commits = entries.count
        let times = entries.map(\.date.timeIntervalSince1970)
        let first = times.min() ?? 0, last = times.max() ?? 0
        start = Date(timeIntervalSince1970: first)
        end = Date(timeIntervalSince1970: last > first ? last : first + 1)
        oldest = entries.map(\.version).min() ?? 0
        newest = entries.map(\.version).max() ?? 0
        let span = end.timeIntervalSince1970 - first
        let timeBin = entries.map { min(Self.timeBins - 1, Int(($0.date.timeIntervalSince1970 - first) / span * Double(Self.timeBins))) }

        let byProcess = entries.map { "\($0.processName)[\($0.pid)]" }
        processes = Self.series(binned: zip(timeBin, byProcess).map { ($0, [$1]) }, other: "other processes")
        classes = Self.series(binned: zip(timeBin, entries).map { ($0, $1.classes.map(\.className)) }, other: "other classes")

        let versionCount = newest - oldest + 1
        versionsPerBin = (versionCount + UInt64(Self.maxVersionBins) - 1) / UInt64(Self.maxVersionBins)
        var changed = [Int](repeating: 0, count: Int((versionCount + versionsPerBin - 1) / versionsPerBin))
        for entry in entries {
            changed[Int((entry.version - oldest) / versionsPerBin)] += entry.classes.reduce(0) {
                $0 + $1.inserted.count + $1.deleted.count + $1.modified.count + ($1.cleared ? 1 : 0)
            }
        }
        changedObjects = changed
        var sizes = [Int?](repeating: nil, count: changed.count)
        for entry in entries {
            guard let bytes = entry.bytesInUseBefore, entry.version > oldest else { continue }
            let b = Int((entry.version - 1 - oldest) / versionsPerBin)
            sizes[b] = max(sizes[b] ?? 0, bytes)
        }
        bytesInUse = sizes
    }

    /// One series per name, counting each commit once per bin for each name it has, most
    /// commits first (then by name); beyond `maxSeries` names, the rest as one series
    /// `other` that counts a commit once however many of those names it has.
    private static func series(binned commits: [(bin: Int, names: [String])], other: String) -> [Series] {
        var totals: [String: Int] = [:]
        for commit in commits { for name in Set(commit.names) { totals[name, default: 0] += 1 } }
        let ranked = totals.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        let named = ranked.count > maxSeries ? Array(ranked.prefix(maxSeries - 1)) : ranked
        let index = Dictionary(uniqueKeysWithValues: named.enumerated().map { ($1, $0) })
        let others = ranked.count - named.count
        var series = named.map { Series(name: $0, counts: [Int](repeating: 0, count: timeBins)) }
        if others > 0 { series.append(Series(name: "\(others) \(other)", counts: [Int](repeating: 0, count: timeBins), isOther: true)) }
        for commit in commits {
            var countedOther = false
            for name in Set(commit.names) {
                if let i = index[name] {
                    series[i].counts[commit.bin] += 1
                } else if !countedOther {
                    series[series.count - 1].counts[commit.bin] += 1
                    countedOther = true
                }
            }
        }
        return series
    }
}

import Foundation
import Strata
import StrataStorage

/// `worker churn --file F --accounts A --base B --seed X --lifetime S`: opens the bank file,
/// checks a snapshot and releases everything, over and over, while writers work; after S
/// seconds it exits, and the coordinator starts a new process in its place. Each visit
/// releases its Realm before the next, so the file's environment is opened and closed each
/// time (the process's last user closes it). A visit is one of:
///
/// - open on this thread, check, release;
/// - the same on a new thread;
/// - open read-only, check, release;
/// - open, then refresh and check a few times a few milliseconds apart, release.
enum Churner {
    private enum Visit: CaseIterable { case here, newThread, readOnly, refreshing }

    static func run(_ options: Arguments) throws {
        let control = ControlChannel(), stats = WorkerStats()
        let ledger = Bank.ledger(options)
        var random = SplitMix64(seed: UInt64(options.int("seed")))
        let end = Date(timeIntervalSinceNow: options.double("lifetime", default: 2))
        while !control.stopRequested && Date() < end {
            let visit = Visit.allCases[random.next(below: Visit.allCases.count)]
            let refreshes = visit == .refreshing ? 1 + random.next(below: 3) : 0
            let configuration = Bank.configuration(options, readOnly: visit == .readOnly)
            let findings = visit == .newThread
                ? try onNewThread { try check(configuration, ledger, refreshes: refreshes) }
                : try check(configuration, ledger, refreshes: refreshes)
            stats.record(findings)
            stats.add(.opens)
            stats.add(.snapshots, 1 + refreshes)
            stats.tick()
        }
        stats.finish()
    }

    /// Opens `configuration`, checks the snapshot, then `refreshes` times waits 1-5 ms,
    /// refreshes and checks again; everything is released on return.
    private static func check(_ configuration: Realm.Configuration, _ ledger: Ledger, refreshes: Int) throws -> Findings {
        let realm = try Realm(configuration: configuration)
        var (books, findings) = ledger.glance(realm)
        for _ in 0..<refreshes {
            usleep(UInt32(1_000 + books.version % 4_000))
            realm.refresh()
            let (next, more) = ledger.glance(realm)
            findings.merge(more)
            findings.expect(next.version >= books.version, "refresh went back from version \(books.version) to \(next.version)")
            books = next
        }
        return findings
    }
}

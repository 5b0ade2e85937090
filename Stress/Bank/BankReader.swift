import Foundation
import Strata
import StrataStorage

/// `worker bank-reader --file F --accounts A --base B --incarnation K --seed X`: checks every
/// snapshot it sees. Its first start audits the first snapshot against the whole history (a
/// restart only checks the totals there, so a long run's restarts stay quick; the
/// coordinator audits the whole history at the end). Then it holds each snapshot for a
/// random while (up to 20 ms, one time in ten up to 200 ms), refreshes, and audits each new
/// version against the one before (`Ledger`). On `final V` it refreshes once more and
/// expects version V.
enum BankReader {
    static func run(_ options: Arguments) throws {
        let control = ControlChannel(), stats = WorkerStats()
        let ledger = Bank.ledger(options)
        let realm = try Realm(configuration: Bank.configuration(options))
        var random = SplitMix64(seed: UInt64(options.int("seed")))
        var (books, findings) = options.int("incarnation") == 1 ? ledger.audit(realm) : ledger.glance(realm)
        stats.record(findings)
        stats.add(.snapshots)
        while !control.stopRequested {
            control.pause(random.next(below: 10) == 0 ? random.next(in: 0.02...0.2) : random.next(in: 0.001...0.02))
            realm.refresh()
            stats.tick()
            guard realm.version != books.version else { continue }
            (books, findings) = ledger.audit(realm, since: books)
            stats.record(findings)
            stats.add(.snapshots)
        }
        if let final = control.waitForFinal() {
            realm.refresh()
            (books, findings) = ledger.audit(realm, since: books)
            findings.expect(books.version == final, "the final snapshot is at version \(books.version), expected \(final)")
            stats.record(findings)
            stats.add(.snapshots)
        }
        stats.finish()
    }
}

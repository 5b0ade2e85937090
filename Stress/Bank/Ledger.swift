import Foundation
import Strata

/// The bank's invariants on one snapshot of the file.
///
/// Every committed transaction inserts one `StressTransfer` stamped with the version its
/// commit created, and moves its amount from one account to another, whose `transfers`
/// counters each go up by one. So on any snapshot at version v (the accounts were created
/// at version `base`):
///
/// - there are `accounts` accounts, ids 0..<accounts; their balances add up to
///   accounts × the opening balance, and none is negative;
/// - the counters add up to 2 × (v − base), and there are v − base transfers;
/// - the transfers carry the versions base + 1 … v, each once;
/// - each account's balance is the opening balance plus what its transfers brought in minus
///   what they took out, and its counter is the number of its transfers.
struct Ledger {
    let accounts: Int
    let base: UInt64

    /// What a check keeps of a snapshot, to check a later one against it.
    struct Books {
        var version: UInt64
        var balances: [Int]
        var counters: [Int]
    }

    /// The books at `base`: every account at the opening balance, no transfers.
    private var opening: Books {
        Books(version: base, balances: Array(repeating: Bank.openingBalance, count: accounts),
              counters: Array(repeating: 0, count: accounts))
    }

    /// Checks the totals only: O(accounts). Used where a check must be quick (notification
    /// callbacks, processes that only open and close the file).
    func glance(_ realm: Realm) -> (Books, Findings) {
        var findings = Findings()
        let books = read(realm, &findings)
        checkTotals(books, realm, &findings)
        return (books, findings)
    }

    /// Checks everything against the whole history, every transfer since the accounts were
    /// created: O(transfers).
    func audit(_ realm: Realm) -> (Books, Findings) {
        audit(realm, since: opening, transfers: realm.objects(StressTransfer.self))
    }

    /// Checks everything against `previous`, a check of an older snapshot: the transfers
    /// committed since must explain every account's change. O(accounts + new transfers).
    func audit(_ realm: Realm, since previous: Books) -> (Books, Findings) {
        audit(realm, since: previous,
              transfers: realm.objects(StressTransfer.self).filter("version > %@", Int(previous.version)))
    }

    private func audit(_ realm: Realm, since previous: Books, transfers: Results<StressTransfer>) -> (Books, Findings) {
        var findings = Findings()
        let books = read(realm, &findings)
        checkTotals(books, realm, &findings)
        findings.expect(books.version >= previous.version, "snapshot went back from version \(previous.version) to \(books.version)")
        let expected = replay(transfers, onto: previous, upTo: books.version, &findings)
        for id in 0..<min(accounts, books.balances.count) {
            findings.expect(books.balances[id] == expected.balances[id],
                            "account \(id) at version \(books.version): balance \(books.balances[id]), its transfers since version \(previous.version) make \(expected.balances[id])")
            findings.expect(books.counters[id] == expected.counters[id],
                            "account \(id) at version \(books.version): \(books.counters[id]) transfers counted, \(expected.counters[id]) recorded")
        }
        return (books, findings)
    }

    /// The accounts of the snapshot, in id order.
    private func read(_ realm: Realm, _ findings: inout Findings) -> Books {
        var books = Books(version: realm.version, balances: [], counters: [])
        for account in realm.objects(StressAccount.self).sorted(byKeyPath: "id") {
            findings.expect(account.id == books.balances.count, "account ids are not 0..<\(accounts): found \(account.id) at position \(books.balances.count)")
            books.balances.append(account.balance)
            books.counters.append(account.transfers)
        }
        findings.expect(books.balances.count == accounts, "\(books.balances.count) accounts at version \(books.version), expected \(accounts)")
        return books
    }

    private func checkTotals(_ books: Books, _ realm: Realm, _ findings: inout Findings) {
        let total = books.balances.reduce(0, +), expectedTotal = accounts * Bank.openingBalance
        let commits = Int(books.version) - Int(base)
        findings.expect(total == expectedTotal, "total balance \(total) at version \(books.version), expected \(expectedTotal)")
        findings.expect(books.balances.allSatisfy { $0 >= 0 }, "a negative balance at version \(books.version): \(books.balances.filter { $0 < 0 })")
        findings.expect(books.counters.reduce(0, +) == 2 * commits,
                        "transfer counters add up to \(books.counters.reduce(0, +)) at version \(books.version), expected 2 × \(commits)")
        let recorded = realm.objects(StressTransfer.self).count
        findings.expect(recorded == commits, "\(recorded) transfers at version \(books.version), expected \(commits) (one per commit)")
    }

    /// `books` with `transfers` applied, checking each carries a distinct version in
    /// (books.version, version] and that every such version has one.
    private func replay(_ transfers: Results<StressTransfer>, onto books: Books, upTo version: UInt64, _ findings: inout Findings) -> Books {
        var result = books
        var versions = Set<Int>()
        let range = (Int(books.version) + 1)...max(Int(books.version) + 1, Int(version))
        for transfer in transfers {
            let (v, from, to, amount) = (transfer.version, transfer.from, transfer.to, transfer.amount)
            findings.expect(range.contains(v) && v <= Int(version), "transfer \(TransactionID.describe(transfer.id)) carries version \(v), outside \(books.version + 1)...\(version)")
            findings.expect(versions.insert(v).inserted, "two transfers carry version \(v)")
            guard (0..<accounts).contains(from), (0..<accounts).contains(to), from != to, amount >= 0 else {
                findings.expect(false, "transfer \(TransactionID.describe(transfer.id)) moves \(amount) from \(from) to \(to)")
                continue
            }
            result.balances[from] -= amount
            result.balances[to] += amount
            result.counters[from] += 1
            result.counters[to] += 1
        }
        findings.expect(versions.count == Int(version) - Int(books.version),
                        "\(versions.count) transfers between versions \(books.version) and \(version), expected one per commit")
        return result
    }
}

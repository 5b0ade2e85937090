import Foundation
import Strata

/// `worker bank-observer --file F --accounts A --base B [--final-timeout S]`: observes the
/// bank from a thread of its own that runs its run loop, the way an application's thread
/// does, and never refreshes by itself: the file's commits must reach it as notifications.
/// See `NotificationWatch` for what it checks. On `final V` it waits (at most S seconds,
/// default 10) until both observers have been told of version V, then prints its latencies.
enum BankObserver {
    static func run(_ options: Arguments) throws {
        let control = ControlChannel(), stats = WorkerStats()
        let timeout = options.double("final-timeout", default: 10)
        let latency = try onNewThread {
            try NotificationWatch(options, stats).run(until: control, timeout: timeout)
        }
        emit(ReportLine.latency(latency).text)
        stats.finish()
    }
}

/// A `realm.observe` and a `Results.observe` (the accounts by id) on one Realm with
/// `autorefresh` on, confined to the thread that created it. Each callback checks:
///
/// - order: each notification is for a newer version than the one before it;
/// - the data: the totals of the snapshot it is called on (`Ledger.glance`), so a
///   notification describes a consistent committed state;
/// - the accounts observer's indices: no insertions or deletions, and the modifications are
///   exactly the accounts whose transfer counters moved since its last callback.
///
/// The Realm observer measures the latency of every commit it covers: callback time minus
/// the `committedAt` the writer stored in the transfer.
final class NotificationWatch {
    private let realm: Realm
    private let ledger: Ledger
    private let stats: WorkerStats
    private var latency = LatencyHistogram()
    private var tokens: [NotificationToken] = []
    /// The version the Realm observer was last told of (at first the version opened).
    private var realmVersion: UInt64
    /// The accounts as the accounts observer was last told of them.
    private var accountBooks: Ledger.Books?

    /// Opens the Realm on this thread and registers both observers.
    init(_ options: Arguments, _ stats: WorkerStats) throws {
        realm = try Realm(configuration: Bank.configuration(options))
        realm.autorefresh = true
        ledger = Bank.ledger(options)
        self.stats = stats
        realmVersion = realm.version
        tokens.append(realm.observe { [unowned self] _, realm in realmChanged(realm) })
        tokens.append(realm.objects(StressAccount.self).sorted(byKeyPath: "id").observe { [unowned self] change in
            accountsChanged(change)
        })
    }

    /// Runs this thread's run loop until both observers have reached the version `final`
    /// announces (or `timeout` seconds after it arrives, a violation), or until the input
    /// ends. Returns the latencies measured.
    func run(until control: ControlChannel, timeout: Double) -> LatencyHistogram {
        let keepAlive = Timer(timeInterval: 0.2, repeats: true) { [stats] _ in stats.tick() }
        RunLoop.current.add(keepAlive, forMode: .default)
        var announced: Date?
        while true {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.2))
            guard let final = control.finalVersion else {
                if control.stopRequested { break }
                continue
            }
            if realmVersion >= final && (accountBooks?.version ?? 0) >= final { break }
            announced = announced ?? Date()
            if Date().timeIntervalSince(announced!) > timeout {
                stats.violation("no notification of the final version \(final) within \(Int(timeout)) s: the Realm observer was last told of version \(realmVersion), the accounts observer of version \(accountBooks.map { "\($0.version)" } ?? "none")")
                break
            }
        }
        keepAlive.invalidate()
        tokens.forEach { $0.invalidate() }
        return latency
    }

    private func realmChanged(_ realm: Realm) {
        let now = Date()
        stats.add(.notifications)
        var findings = Findings()
        let version = realm.version
        findings.expect(version > realmVersion, "Realm notification for version \(version) after one for version \(realmVersion)")
        // The new versions listed, not a range: equality uses the index on an encrypted file
        // too, where a range scans and decrypts every transfer.
        let versions = version > realmVersion ? Array(Int(realmVersion + 1)...Int(version)) : []
        for transfer in realm.objects(StressTransfer.self).filter("version IN %@", versions) {
            latency.record(seconds: now.timeIntervalSince(transfer.committedAt))
        }
        findings.merge(ledger.glance(realm).1)
        realmVersion = max(realmVersion, version)
        stats.record(findings)
    }

    private func accountsChanged(_ change: RealmCollectionChange<Results<StressAccount>>) {
        stats.add(.notifications)
        var (books, findings) = ledger.glance(realm)
        switch change {
        case .initial:
            findings.expect(accountBooks == nil, "a second initial accounts notification at version \(books.version)")
        case let .update(_, deletions, insertions, modifications):
            guard let previous = accountBooks else {
                findings.expect(false, "an accounts update at version \(books.version) before the initial notification")
                break
            }
            findings.expect(books.version > previous.version, "accounts notification for version \(books.version) after one for version \(previous.version)")
            findings.expect(deletions.isEmpty && insertions.isEmpty, "accounts notification at version \(books.version) with deletions \(deletions) and insertions \(insertions)")
            let moved = books.counters.indices.filter { $0 >= previous.counters.count || books.counters[$0] != previous.counters[$0] }
            findings.expect(modifications == moved, "accounts notification at version \(books.version) lists modifications \(modifications), but accounts \(moved) changed since version \(previous.version)")
        case .error(let error):
            findings.expect(false, "accounts notification error: \(error)")
        }
        accountBooks = books
        stats.record(findings)
    }
}

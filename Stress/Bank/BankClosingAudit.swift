import Foundation
import Strata

/// The coordinator's checks once the writers have stopped: the whole history of the final
/// version (`Ledger.audit`), and every transaction id in the writers' commit logs present in
/// the file (a missing one is a lost commit).
struct BankClosingAudit {
    /// The final version, and the commits after the accounts were created.
    let version: UInt64
    let commits: Int
    /// Logged transaction ids the file does not have.
    let lost: [Int]
    let findings: Findings
    /// Lines for the summary.
    let notes: [String]

    /// Audits the newest version of the file `settings` names.
    init(_ settings: ScenarioSettings, _ ledger: Ledger) throws {
        let realm = try Realm(configuration: Bank.configuration(path: settings.path, nosync: settings.nosync))
        let (books, auditFindings) = ledger.audit(realm)
        var findings = auditFindings
        version = books.version
        commits = Int(books.version - ledger.base)
        let logged = try CommitLog.readAll(directory: settings.logDirectory)
        lost = logged.filter { realm.object(ofType: StressTransfer.self, forPrimaryKey: $0) == nil }
        findings.expect(Set(logged).count == logged.count, "a transaction id is logged twice")
        findings.expect(logged.count <= commits, "\(logged.count) commits logged, but the file has \(commits)")
        for id in lost.prefix(20) { findings.expect(false, "lost commit: \(TransactionID.describe(id)) was logged as committed but is not in the file") }
        notes = ["commit logs: \(logged.count) transactions seen committed, \(lost.isEmpty ? "all" : "\(logged.count - lost.count)") in the file at version \(books.version)"]
        self.findings = findings
    }
}

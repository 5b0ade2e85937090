import Foundation
import StrataStorage

/// The `bank`, `kill` and `churn` scenarios: real processes on one bank file.
///
/// - `bank`: W writers (`BankWriter`), R readers (`BankReader`) and O observers
///   (`BankObserver`) work for the duration;
/// - `kill`: the same, while the coordinator SIGKILLs a random writer or reader every
///   0.1-1 s and starts a new process in its slot;
/// - `churn`: the same, plus C churners (`--churners`, default 3) that open and release the
///   file continuously (`Churner`), each replaced by a new process after 0.5-3 s.
///
/// Then the writers (and churners) are stopped, the coordinator audits the whole history
/// (`BankClosingAudit`), tells the readers and observers the final version and waits for
/// them, and runs the integrity checker. `--accounts A` (default 16) sets the accounts.
enum BankScenario {
    enum Variant: String {
        case bank, kill, churn
    }

    /// Runs `variant` with `settings` and returns its summary.
    static func run(_ variant: Variant, _ settings: ScenarioSettings) throws -> Summary {
        let accounts = settings.options.int("accounts", default: 16)
        let churners = variant == .churn ? settings.options.int("churners", default: 3) : 0
        guard accounts >= 2 else { fail("--accounts must be at least 2") }
        try settings.prepareFiles()
        let base = try Bank.createAccounts(accounts, path: settings.path, nosync: settings.nosync)
        let cast = Cast { role, slot, incarnation in
            var arguments = settings.workerArguments(role, slot: slot, incarnation: incarnation)
                + ["--accounts", "\(accounts)", "--base", "\(base)"]
            if role == .bankWriter { arguments += ["--log", settings.logDirectory] }
            if role == .churner {
                let lifetime = 0.5 + Double(SplitMix64.mix(settings.seed &+ UInt64(slot << 32 | incarnation)) % 2500) / 1000
                arguments += ["--lifetime", "\(lifetime)"]
            }
            return arguments
        }
        emit("\(variant.rawValue): \(accounts) accounts, \(Summary.count(settings.writers, "writer")), \(Summary.count(settings.readers, "reader")), \(Summary.count(settings.observers, "observer"))"
             + (churners > 0 ? ", \(Summary.count(churners, "churner"))" : "") + ", \(settings.duration) s, seed \(settings.seed), \(settings.nosync ? "no flush" : "durable commits"), \(StressKey.fileKind) \(settings.path)")
        try cast.start(.bankWriter, count: settings.writers)
        try cast.start(.bankReader, count: settings.readers)
        try cast.start(.bankObserver, count: settings.observers)
        try cast.start(.churner, count: churners)

        let clock = ScenarioClock(duration: settings.duration)
        var random = SplitMix64(seed: settings.seed)
        var nextKill = random.next(in: 0.1...1.0)
        try clock.run(until: settings.duration, progress: { progress(cast) }) {
            if variant == .kill && clock.elapsed >= nextKill {
                let victims = cast.members([.bankWriter, .bankReader])
                if !victims.isEmpty { try cast.killAndRestart(victims[random.next(below: victims.count)]) }
                nextKill = clock.elapsed + random.next(in: 0.1...1.0)
            }
            if variant == .churn { try cast.restartEnded(.churner) }
        }
        let duration = clock.elapsed
        cast.send("stop", to: [.bankWriter, .churner])
        cast.waitForEnd([.bankWriter, .churner], timeout: 60)
        let audit = try BankClosingAudit(settings, Ledger(accounts: accounts, base: base))
        cast.send("final \(audit.version)", to: [.bankReader, .bankObserver])
        cast.waitForEnd([.bankReader, .bankObserver], timeout: 60)

        let totals = cast.totals
        var summary = Summary(scenario: variant.rawValue)
        summary.processes = cast.started
        let initial = [(settings.writers, "writer"), (settings.readers, "reader"), (settings.observers, "observer"), (churners, "churner")]
            .filter { $0.0 > 0 }
        summary.cast = initial.map { Summary.count($0.0, $0.1) }.joined(separator: ", ")
            + (cast.started > initial.map(\.0).reduce(0, +) ? ", \(cast.started - initial.map(\.0).reduce(0, +)) restarts" : "")
        summary.duration = duration
        summary.commits = audit.commits
        summary.snapshots = totals[.snapshots, default: 0]
        summary.checks = totals[.checks, default: 0] + audit.findings.checks
        summary.kills = cast.kills
        summary.notifications = settings.observers > 0 ? totals[.notifications, default: 0] : nil
        summary.latency = cast.latency
        summary.lostCommits = audit.lost.count
        summary.integrity = Integrity.check(settings.path)
        summary.notes = audit.notes + ["abandoned transactions: \(totals[.abandoned, default: 0]) (cancelled writes, none may show)"]
            + (churners > 0 ? ["opens and releases: \(totals[.opens, default: 0])"] : [])
            + (variant == .kill ? ["kills: \(cast.kills(of: .bankWriter)) writers, \(cast.kills(of: .bankReader)) readers, each started again"] : [])
        summary.violations = cast.violations + audit.findings.failures
        if settings.observers > 0 && summary.notifications == 0 {
            summary.notes.append("the observers received no notification: commits of other processes did not reach them")
        }
        return summary
    }

    /// The progress line of a long run.
    private static func progress(_ cast: Cast) -> String {
        let totals = cast.totals
        return "commits reported \(totals[.commits, default: 0]), snapshots \(totals[.snapshots, default: 0]), notifications \(totals[.notifications, default: 0]), kills \(cast.kills), processes \(cast.started), violations \(cast.violations.count)"
    }
}

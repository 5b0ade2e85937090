import Foundation

/// What one scenario run did and found: the table printed at its end, and the verdict.
struct Summary {
    let scenario: String
    /// Processes started, restarts included, and what they were.
    var processes = 0
    var cast = ""
    var duration = 0.0
    var commits = 0
    var snapshots = 0
    var checks = 0
    var kills = 0
    /// Notification callbacks; nil when the scenario has no observers.
    var notifications: Int?
    var latency = LatencyHistogram()
    /// Commits a writer saw succeed that the file lacks at the end.
    var lostCommits = 0
    var integrity = Integrity.Verdict(ok: false, text: "not run")
    /// Scenario-specific lines printed under the table.
    var notes: [String] = []
    var violations: [String] = []

    /// Whether every invariant held, nothing was lost and the file is consistent.
    var passed: Bool { violations.isEmpty && lostCommits == 0 && integrity.ok }

    /// The table's rows: name and value.
    private var rows: [(String, String)] {
        [("processes", "\(processes)" + (cast.isEmpty ? "" : " (\(cast))")),
         ("duration", String(format: "%.1f s", duration)),
         ("commits", "\(commits)"),
         ("snapshots checked", "\(snapshots)"),
         ("invariant checks", "\(checks)"),
         ("kills", "\(kills)"),
         ("notifications", notifications.map(String.init) ?? "–"),
         ("latency max", notifications == nil ? "–" : Self.milliseconds(latency.count > 0 ? Double(latency.maxMicroseconds) / 1e6 : nil)),
         ("latency p99", notifications == nil ? "–" : Self.milliseconds(latency.percentile(0.99))),
         ("lost commits", "\(lostCommits)"),
         ("integrity", integrity.text),
         ("violations", violations.isEmpty ? "none" : "\(violations.count)"),
         ("result", passed ? "PASSED" : "FAILED")]
    }

    /// Prints the table, the notes and each violation.
    func print() {
        emit("")
        emit("\(scenario) summary")
        for (name, value) in rows { emit("  " + name.padding(toLength: 19, withPad: " ", startingAt: 0) + value) }
        notes.forEach { emit("  " + $0) }
        violations.prefix(50).forEach { emit("  VIOLATION " + $0) }
        if violations.count > 50 { emit("  ... and \(violations.count - 50) more violations") }
    }

    /// Prints one line per scenario (the `all` command's closing table).
    static func printCombined(_ summaries: [Summary]) {
        let names = ["scenario", "processes", "duration", "commits", "snapshots checked", "invariant checks",
                     "kills", "notifications", "latency max", "latency p99", "lost commits", "integrity", "result"]
        let lines = summaries.map { summary -> [String] in
            let values = Dictionary(summary.rows, uniquingKeysWith: { first, _ in first })
            return [summary.scenario, "\(summary.processes)"] + names.dropFirst(2).map { name in
                name == "integrity" ? (summary.integrity.ok ? "consistent" : "INCONSISTENT") : values[name]!
            }
        }
        let widths = names.indices.map { column in ([names[column]] + lines.map { $0[column] }).map(\.count).max()! }
        emit("")
        for line in [names] + lines {
            emit(zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
    }

    /// `1 writer`, `2 writers`: a count of a role for the processes line.
    static func count(_ n: Int, _ title: String) -> String { "\(n) \(title)" + (n == 1 ? "" : "s") }

    /// `12.3 ms`, or `none` when nothing was measured.
    private static func milliseconds(_ seconds: Double?) -> String {
        seconds.map { String(format: "%.1f ms", $0 * 1000) } ?? "none"
    }
}

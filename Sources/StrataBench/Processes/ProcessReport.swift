import Foundation

/// Formats the multi-process rows: the latency table (Strata), then the throughput table with
/// the same ratio columns as the main table.
struct ProcessReport {
    var results: ProcessResults
    var engines: [EngineKind]

    func table() -> String {
        let cores = results.cores
        var text = """
            Multi-process rows: real processes on one file; this machine has \(cores) cores, so rows \
            with more than \(cores) busy processes oversubscribe them. \
            \(String(format: "%.1f", results.secondsPerRow)) s per throughput cell.\n\n
            """
        if !results.latencies.isEmpty {
            text += LatencySummary.table("commit-to-callback latency, Strata", results.latencies) + "\n"
            text += "(\(CommitLatency.commits) commits \(CommitLatency.spacingMicroseconds / 1000) ms apart, durable; to the "
                + "observer's Results callback, autorefresh, no refresh() call; for await: to the element of the "
                + "Results' changes stream, consumed by a detached task with no run loop. The commit is visible between the writer's "
                + "call of write {} and its return: negative means the callback ran before write {} returned)\n\n"
        }
        let pairs = Report.ratioPairs(of: engines)
        var rows = [["one Person per transaction"] + engines.map(\.rawValue) + pairs.map { "\($0.0.rawValue)/\($0.1.rawValue)" }]
        for row in results.rates {
            var cells = [row.name] + engines.map { row.rates[$0.rawValue].map(formatRate) ?? "-" }
            cells += pairs.map { a, b in
                guard let top = row.rates[a.rawValue], let bottom = row.rates[b.rawValue], top > 0 else { return "-" }
                return String(format: "%.2f", bottom / top)
            }
            rows.append(cells)
        }
        text += alignColumns(rows)
        text += "\n(ratios: time per operation, as in the table above: over 1 is slower; "
            + "reads: primary-key lookups of age and name, a new snapshot every \(ReadThroughput.readsPerSnapshot))"
        return text
    }
}

/// What a scenario worker counts: one name per kind of work the summary adds up.
enum Counter: String, CaseIterable {
    /// Transactions committed (and, for bank writers, logged).
    case commits
    /// Write transactions begun, changed and cancelled on purpose.
    case abandoned
    /// Snapshots checked.
    case snapshots
    /// Single invariant checks.
    case checks
    /// Notification callbacks received.
    case notifications
    /// Times the file was opened and released again.
    case opens
    /// Bytes of values written.
    case bytes
}

/// One line a scenario worker prints on stdout for its coordinator:
///
/// - `STATS commits=12 checks=40 ...`: its counters so far (cumulative for the process);
/// - `VIOLATION text`: an invariant that did not hold;
/// - `LATENCY ...`: its notification latencies (observers, when they end);
/// - `DONE`: it finished normally.
enum ReportLine {
    case stats([Counter: Int])
    case violation(String)
    case latency(LatencyHistogram)
    case done

    /// The line as printed.
    var text: String {
        switch self {
        case .stats(let counters):
            let fields = Counter.allCases.compactMap { counter in counters[counter].map { "\(counter.rawValue)=\($0)" } }
            return (["STATS"] + fields).joined(separator: " ")
        case .violation(let text): return "VIOLATION " + text
        case .latency(let histogram): return "LATENCY " + histogram.encoded
        case .done: return "DONE"
        }
    }

    /// Parses a printed line; nil for anything else (such lines are ignored).
    init?(parsing line: String) {
        let (keyword, rest) = line.firstIndex(of: " ").map { (line[..<$0], String(line[line.index(after: $0)...])) } ?? (line[...], "")
        switch keyword {
        case "STATS":
            var counters: [Counter: Int] = [:]
            for field in rest.split(separator: " ") {
                let parts = field.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let counter = Counter(rawValue: String(parts[0])), let n = Int(parts[1]) else { return nil }
                counters[counter] = n
            }
            self = .stats(counters)
        case "VIOLATION": self = .violation(rest)
        case "LATENCY":
            guard let histogram = LatencyHistogram(encoded: rest) else { return nil }
            self = .latency(histogram)
        case "DONE": self = .done
        default: return nil
        }
    }
}

import Foundation

/// The operations of the workload, in the order they run.
enum Op: String, CaseIterable, Codable {
    case w1 = "W1", w10 = "W10", w2 = "W2", w3 = "W3", w4 = "W4", w5 = "W5", w6 = "W6"
    case w7 = "W7", w11 = "W11", w12 = "W12", w13 = "W13", w14 = "W14", w15 = "W15", w16 = "W16", w17 = "W17"
    case w8 = "W8", w8b = "W8b", w9 = "W9", peakRSS = "RSS"

    /// The short name shown next to the op code.
    var title: String {
        switch self {
        case .w1: "insert"
        case .w2: "count_query"
        case .w3: "pk_lookup"
        case .w4: "index_lookup"
        case .w5: "update"
        case .w6: "enumerate"
        case .w7: "sort_limit"
        case .w11: "pk_in_1000"
        case .w12: "name_prefix"
        case .w13: "pk_range_1000"
        case .w14: "any_in_list"
        case .w15: "subquery_list"
        case .w16: "follow_link"
        case .w17: "count_backlinks"
        case .w8: "small_commits"
        case .w8b: "async_commits"
        case .w9: "delete_all"
        case .w10: "file_size"
        case .peakRSS: "peak_rss"
        }
    }

    /// Whether the op is a size in bytes rather than a timing.
    var isSize: Bool { self == .w10 || self == .peakRSS }

    /// Parses `W3` or `w3`.
    init?(code: String) {
        guard let op = Op.allCases.first(where: { $0.rawValue.lowercased() == code.lowercased() })
        else { return nil }
        self = op
    }
}

/// One result line: a timing, a size, or an op the engine cannot run (`note`).
extension Measurement {
    /// Per engine and op, the measurement of median time (or size) among `rounds`, in the
    /// order of the first round. One round is returned as it is.
    static func medians(of rounds: [[Measurement]]) -> [Measurement] {
        guard rounds.count > 1 else { return rounds.first ?? [] }
        var order: [(engine: String, op: Op)] = []
        var byKey: [String: [Measurement]] = [:]
        for m in rounds.joined() {
            let key = "\(m.engine) \(m.op.rawValue)"
            if byKey[key] == nil { order.append((m.engine, m.op)) }
            byKey[key, default: []].append(m)
        }
        return order.map { entry in
            let all = byKey["\(entry.engine) \(entry.op.rawValue)"]!
            let sorted = all.sorted { ($0.seconds ?? Double($0.bytes ?? 0)) < ($1.seconds ?? Double($1.bytes ?? 0)) }
            return sorted[(sorted.count - 1) / 2]
        }
    }
}

struct Measurement: Codable {
    var op: Op
    var engine: String
    var seconds: Double?
    var opsPerSec: Double?
    /// The size, for W10 (database file) and RSS (peak resident set).
    var bytes: Int?
    /// Check sums that must agree across engines, keyed by name.
    var checks: [String: Int]?
    /// Why there is no number (e.g. "n/a").
    var note: String?

    enum CodingKeys: String, CodingKey {
        case op, engine, seconds, bytes, checks, note
        case opsPerSec = "ops_per_sec"
    }
}

/// The seconds `body` takes, by the monotonic clock.
func elapsedSeconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

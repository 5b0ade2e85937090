import Foundation

/// Formats the measurements of all engines as a table or as JSON, with ratios between engines.
struct Report {
    var measurements: [Measurement]
    var engines: [EngineKind]

    /// The ratio columns shown, (numerator, denominator), for the engines that ran.
    var ratioPairs: [(EngineKind, EngineKind)] { Self.ratioPairs(of: engines) }

    /// The ratio columns for `engines`: encrypted Strata against plain Strata, Strata against
    /// each baseline, then SQLite against LMDB.
    static func ratioPairs(of engines: [EngineKind]) -> [(EngineKind, EngineKind)] {
        [(EngineKind.strataEncrypted, EngineKind.strata), (.strata, .lmdb), (.strata, .sqlite), (.sqlite, .lmdb)]
            .filter { engines.contains($0.0) && engines.contains($0.1) }
    }

    private var ops: [Op] { Op.allCases.filter { op in measurements.contains { $0.op == op } } }

    private func find(_ op: Op, _ engine: EngineKind) -> Measurement? {
        measurements.first { $0.op == op && $0.engine == engine.rawValue }
    }

    /// `numerator`'s time (or size) over `denominator`'s. W8b (group commits) is compared with
    /// the denominator's W8 when the denominator has no W8b of its own.
    func ratio(_ op: Op, _ numerator: EngineKind, _ denominator: EngineKind) -> Double? {
        guard let top = find(op, numerator),
              let bottom = find(op, denominator) ?? (op == .w8b ? find(.w8, denominator) : nil)
        else { return nil }
        let a = op.isSize ? top.bytes.map(Double.init) : top.seconds
        let b = op.isSize ? bottom.bytes.map(Double.init) : bottom.seconds
        guard let a, let b, b > 0 else { return nil }
        return a / b
    }

    // MARK: Table

    func table() -> String {
        var rows = [["op"] + engines.map(\.rawValue) + ratioPairs.map { "\($0.0.rawValue)/\($0.1.rawValue)" }]
        for op in ops {
            var row = ["\(op.rawValue) \(op.title)"]
            row += engines.map { cell(find(op, $0)) }
            row += ratioPairs.map { pair in ratio(op, pair.0, pair.1).map { String(format: "%.2f", $0) } ?? "-" }
            rows.append(row)
        }
        return alignColumns(rows)
    }

    private func cell(_ m: Measurement?) -> String {
        guard let m else { return "-" }
        if let note = m.note { return note }
        if let bytes = m.bytes { return String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        guard let seconds = m.seconds else { return "-" }
        let time = formatDuration(seconds)
        return m.opsPerSec.map { "\(time) (\(formatRate($0))/s)" } ?? time
    }

    // MARK: JSON

    /// The measurements as a JSON array, followed by one `{"ratios": [...]}` entry and one
    /// entry per section given, in order (`{"processes": {...}}`, `{"notifications": {...}}`).
    func json(sections: [(name: String, value: Any)] = []) throws -> String {
        var entries: [Any] = try measurements.map(jsonObject)
        let ratios: [[String: Any]] = ops.compactMap { op in
            var entry: [String: Any] = [:]
            for (a, b) in ratioPairs {
                if let r = ratio(op, a, b) { entry["\(a.rawValue)/\(b.rawValue)"] = r }
            }
            guard !entry.isEmpty else { return nil }
            entry["op"] = op.rawValue
            return entry
        }
        entries.append(["ratios": ratios])
        entries += sections.map { [$0.name: $0.value] }
        return try jsonText(entries)
    }

    // MARK: Check sums

    /// Prints each op's check sums to stderr, with a loud MISMATCH line for any that differ
    /// between engines. Returns whether all agree.
    func compareChecks() -> Bool {
        var agree = true
        for op in ops {
            let byEngine = engines.compactMap { engine in find(op, engine).flatMap { m in m.checks.map { (engine, $0) } } }
            let names = Set(byEngine.flatMap { $0.1.keys }).sorted()
            for name in names {
                let values = byEngine.compactMap { engine, checks in checks[name].map { (engine, $0) } }
                let listed = values.map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: " ")
                if Set(values.map(\.1)).count > 1 {
                    agree = false
                    printToStandardError("!!! MISMATCH \(op.rawValue) \(name): \(listed)")
                } else {
                    printToStandardError("# check \(op.rawValue) \(name): \(listed)")
                }
            }
        }
        return agree
    }
}

/// `value` encoded as a JSON object (dictionaries and arrays), to be put into a larger one.
func jsonObject(_ value: some Encodable) throws -> Any {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try JSONSerialization.jsonObject(with: try encoder.encode(value))
}

/// `object` as pretty-printed JSON text with sorted keys.
func jsonText(_ object: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
}

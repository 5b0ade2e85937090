import Foundation

/// Runs the workload on one engine in this process, reporting each op as it finishes.
struct Runner {
    var engineName: String
    var engine: any BenchEngine
    var n: Int
    /// The ops to run; W1 always runs because the others need its data.
    var ops: Set<Op>
    /// How many times each op that changes nothing runs; its median time is recorded.
    var repeats = 1
    var emit: (Measurement) -> Void

    func run() throws {
        var seconds = try measure { try engine.insert(count: n) }
        record(.w1, seconds, units: n, checks: ["rows": try engine.rowCount()])
        if ops.contains(.w10) {
            emit(Measurement(op: .w10, engine: engineName, bytes: try engine.fileSize()))
        }
        if ops.contains(.w2) {
            var count = 0
            seconds = try measureReading { for _ in 0..<Workload.countRepeats { count = try engine.countQuery() } }
            record(.w2, seconds / Double(Workload.countRepeats), units: 1, checks: ["count": count])
        }
        if ops.contains(.w3) {
            let ids = Workload.randomIDs(seed: Workload.pkSeed, count: Workload.pkLookups, below: n)
            var sum = 0
            seconds = try measureReading { sum = try engine.pkLookup(ids) }
            record(.w3, seconds, units: ids.count, checks: ["sum": sum])
        }
        if ops.contains(.w4) {
            let ids = Workload.randomIDs(seed: Workload.indexSeed, count: Workload.indexLookups, below: n)
            var sum = 0
            seconds = try measureReading { sum = try engine.indexLookup(ids) }
            record(.w4, seconds, units: ids.count, checks: ["sum": sum])
        }
        if ops.contains(.w5) {
            let ids = Workload.randomIDs(seed: Workload.updateSeed, count: Workload.updates, below: n)
            var updated = 0
            seconds = try measure { updated = try engine.update(ids) }
            record(.w5, seconds, units: ids.count,
                   checks: ["updated": updated, "score_sum2": try engine.scoreSum2()])
        }
        if ops.contains(.w6) {
            var result = (rows: 0, sum: 0)
            seconds = try measureReading { result = try engine.enumerate() }
            record(.w6, seconds, units: result.rows, checks: ["rows": result.rows, "sum": result.sum])
        }
        if ops.contains(.w7) {
            var hash = 0
            seconds = try measureReading { hash = try engine.sortLimit() }
            record(.w7, seconds, units: n, checks: ["hash": hash])
        }
        try runQueries()
        var next = n
        if ops.contains(.w8) {
            seconds = try measure { try engine.smallCommits(from: next, count: Workload.smallCommits) }
            record(.w8, seconds, units: Workload.smallCommits, checks: ["rows": try engine.rowCount()])
            next += Workload.smallCommits
        }
        var asyncRows = 0
        if ops.contains(.w8b) {
            switch engine.asyncCommitSupport {
            case .notApplicable:
                break
            case .missing:
                emit(Measurement(op: .w8b, engine: engineName, note: "n/a"))
            case .available:
                let before = try engine.rowCount()
                seconds = try measure { try engine.asyncCommits(from: next, count: Workload.smallCommits) }
                asyncRows = try engine.rowCount() - before
                record(.w8b, seconds, units: Workload.smallCommits, checks: ["rows_added": asyncRows])
            }
        }
        if ops.contains(.w9) {
            let rows = try engine.rowCount()
            seconds = try measure { try engine.deleteAll() }
            // Rows added by W8b (Strata only) are left out so the sums compare across engines.
            record(.w9, seconds, units: rows,
                   checks: ["rows_before": rows - asyncRows, "left": try engine.entriesLeft()])
        }
    }

    /// W11-W17: the queries the planner answers from the primary key or an index, the
    /// queries over lists of objects, and following links and counting backlinks. Each
    /// reports the time per query (per link or person for W16, W17) and the total count and
    /// sum over all its runs.
    private func runQueries() throws {
        if ops.contains(.w11) {
            try timeQueries(.w11, Workload.inSets(below: n), engine.inQuery)
        }
        if ops.contains(.w12) {
            try timeQueries(.w12, Workload.prefixes, engine.prefixQuery)
        }
        if ops.contains(.w13) {
            try timeQueries(.w13, Workload.ranges(below: n), engine.rangeQuery)
        }
        if ops.contains(.w14) || ops.contains(.w15) {
            try engine.makeTeams(below: n)
            let runs: [Void] = Array(repeating: (), count: Workload.listQueryRepeats)
            if ops.contains(.w14) { try timeQueries(.w14, runs) { try engine.anyQuery() } }
            if ops.contains(.w15) { try timeQueries(.w15, runs) { try engine.subqueryQuery() } }
            try engine.deleteTeams()
        }
        if ops.contains(.w16) || ops.contains(.w17) {
            try engine.makePets(below: n)
            if ops.contains(.w16) {
                var result = QueryResult()
                let seconds = try measureReading { result = try engine.followOwners() }
                record(.w16, seconds / Double(max(result.count, 1)), units: 1, checks: ["count": result.count, "sum": result.sum])
            }
            if ops.contains(.w17) {
                let ids = Workload.randomIDs(seed: Workload.backlinkSeed, count: Workload.backlinkCounts, below: n)
                var result = QueryResult()
                let seconds = try measureReading { result = try engine.countPets(ids) }
                record(.w17, seconds / Double(ids.count), units: 1, checks: ["count": result.count, "sum": result.sum])
            }
            try engine.deletePets()
        }
    }

    /// Runs `query` once per input, recording the time per query.
    private func timeQueries<Input>(_ op: Op, _ inputs: [Input], _ query: (Input) throws -> QueryResult) throws {
        var total = QueryResult()
        let seconds = try measureReading {
            total = QueryResult()
            for input in inputs { total += try query(input) }
        }
        record(op, seconds / Double(max(inputs.count, 1)), units: 1, checks: ["count": total.count, "sum": total.sum])
    }

    /// The median wall time of `repeats` runs of `body`, an op that changes nothing.
    private func measureReading(_ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<repeats { times.append(try measure(body)) }
        times.sort()
        return times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    }

    /// Wall time of `body` in seconds.
    private func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = monotonicSeconds()
        try body()
        return monotonicSeconds() - start
    }

    private func record(_ op: Op, _ seconds: Double, units: Int, checks: [String: Int]) {
        emit(Measurement(op: op, engine: engineName, seconds: seconds,
                         opsPerSec: seconds > 0 ? Double(units) / seconds : nil, checks: checks))
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// This process's peak resident set size in bytes (`VmHWM` in /proc/self/status).
func peakRSSBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }
    return nil
}

import Foundation

/// `strata-bench --processes` (also part of the default run): the multi-process rows, each
/// measured with real child processes of this binary on one database file. Commit-to-callback
/// latency (Strata), commit throughput with 1-8 writer processes, and read throughput with
/// 1-4 reader processes beside one writer, for each engine.
final class ProcessBench {
    let engines: [EngineKind]
    /// How long each throughput measurement runs.
    let seconds: Double
    /// Where each measurement's temporary directory is made.
    let base: String
    /// Failed measurements and failed checks.
    private(set) var problems = 0

    init(options: Options) {
        engines = options.engines.filter { $0.engineType != nil }
        seconds = options.seconds
        base = options.directory ?? NSTemporaryDirectory()
    }

    /// Runs every row; a failed measurement is reported on stderr and left out.
    func run() -> ProcessResults {
        signal(SIGPIPE, SIG_IGN)  // a dead worker's pipe makes a write throw instead
        var results = ProcessResults(cores: ProcessInfo.processInfo.activeProcessorCount, secondsPerRow: seconds)
        if engines.contains(.strata) {
            attempt("commit latency") { results.latencies = try CommitLatency.measure(self) }
        }
        for durable in [true, false] {
            for writers in CommitThroughput.writerCounts {
                var row = RateRow(name: "commits/s, \(writers) writer\(writers == 1 ? "" : "s"), \(durable ? "durable" : "no-sync")")
                for engine in engines {
                    attempt("\(row.name), \(engine.rawValue)") {
                        row.rates[engine.rawValue] = try CommitThroughput.measure(engine, writers: writers, durable: durable, self)
                    }
                }
                results.rates.append(row)
            }
        }
        for readers in ReadThroughput.readerCounts {
            var reads = RateRow(name: "reads/s, \(readers) reader\(readers == 1 ? "" : "s") + 1 writer")
            var commits = RateRow(name: "  the writer's commits/s (no-sync)")
            for engine in engines {
                attempt("\(reads.name), \(engine.rawValue)") {
                    (reads.rates[engine.rawValue], commits.rates[engine.rawValue]) = try ReadThroughput.measure(engine, readers: readers, self)
                }
            }
            results.rates += [reads, commits]
        }
        return results
    }

    /// Runs `body` with a new temporary directory, removed afterwards.
    func withDirectory<T>(_ body: (String) throws -> T) throws -> T {
        try ChildProcess.withTemporaryDirectory(under: base, body)
    }

    /// Runs `body` with a new database of `engine` holding Persons 0..<rows, created and
    /// closed by this process before any worker opens it.
    func withDatabase<T>(_ engine: EngineKind, rows: Int, _ body: (String) throws -> T) throws -> T {
        try withDirectory { directory in
            try open(engine, directory).insert(count: rows)
            return try body(directory)
        }
    }

    /// Checks that `engine`'s database in `directory` holds `expected` Persons.
    func checkRows(_ engine: EngineKind, _ directory: String, expected: Int, _ label: String) throws {
        check("\(label) rows", try open(engine, directory).rowCount(), expected: expected)
    }

    /// Prints a check on stderr, loudly when `value` is not `expected` (then counted as a problem).
    func check(_ label: String, _ value: Int, expected: Int) {
        if value == expected {
            printToStandardError("# check processes \(label): \(value)")
        } else {
            problems += 1
            printToStandardError("!!! MISMATCH processes \(label): \(value), expected \(expected)")
        }
    }

    private func open(_ engine: EngineKind, _ directory: String) throws -> any BenchEngine {
        guard let type = engine.engineType else { throw BenchError("\(engine.rawValue) is not built into this binary") }
        return try type.init(directory: URL(fileURLWithPath: directory), durable: false)
    }

    /// Runs one measurement, reporting a failure on stderr instead of stopping the others.
    private func attempt(_ label: String, _ body: () throws -> Void) {
        let start = monotonicSeconds()
        do {
            try body()
            printToStandardError(String(format: "# processes %@: done in %.1f s", label, monotonicSeconds() - start))
        } catch {
            problems += 1
            printToStandardError("strata-bench: processes \(label): \(error)")
        }
    }
}

/// What the multi-process rows measured.
struct ProcessResults: Codable {
    var cores: Int
    var secondsPerRow: Double
    var latencies: [LatencySummary] = []
    var rates: [RateRow] = []
}

/// One throughput row: operations per second by engine name.
struct RateRow: Codable {
    var name: String
    var rates: [String: Double] = [:]
}

import Foundation

/// Commit throughput with several writer processes on one database: each commits one Person
/// per write transaction (the engine's W8 commit) as fast as it can for the window; the row
/// is the total commits per second of all of them.
enum CommitThroughput {
    static let writerCounts = [1, 2, 4, 8]
    /// Writer k inserts ids from `rows + k * idStride`, so writers never collide.
    static let idStride = 1_000_000_000

    /// The writer's side: commits until the window ends.
    static func write(_ engine: any BenchEngine, firstID: Int, window: MeasurementWindow) throws -> WorkerResult {
        window.awaitStart()
        var commits = 0
        while !window.isOver {
            try engine.smallCommits(from: firstID + commits, count: 1)
            commits += 1
        }
        return WorkerResult(operations: commits, seconds: monotonicSeconds() - window.start)
    }

    /// Commits per second of `writers` processes on a new database of `engine`; checks that
    /// the database holds every commit the writers reported.
    static func measure(_ engine: EngineKind, writers: Int, durable: Bool, _ bench: ProcessBench) throws -> Double {
        try bench.withDatabase(engine, rows: 0) { directory in
            let results = try WorkerGroup.run((0..<writers).map {
                WorkerRole.writer.arguments(engine: engine, directory: directory, durable: durable, worker: $0)
            }, seconds: bench.seconds)
            let commits = results.map(\.operations).reduce(0, +)
            try bench.checkRows(engine, directory, expected: commits,
                                "\(engine.rawValue) \(writers) writers\(durable ? "" : " no-sync")")
            return Double(commits) / (results.map(\.seconds).max() ?? 1)
        }
    }
}

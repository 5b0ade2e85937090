import Foundation
import StrataStorage

/// Read throughput with several reader processes while one process writes: each reader looks
/// Persons up by primary key (reading age and name, W3's lookup) in batches, moving to the
/// newest version before each batch; the writer commits one Person per transaction without
/// flushing, as fast as it can. The row is the total reads per second of the readers.
enum ReadThroughput {
    static let readerCounts = [1, 2, 4]
    /// Persons loaded before the readers start; they look up ids below this.
    static let rows = 100_000
    /// Lookups per snapshot.
    static let readsPerSnapshot = 100
    /// Distinct batches a reader cycles through.
    static let batchCount = 100

    /// A reader's lookups: random ids in batches, each with the sum W3's lookup must return.
    struct Batches {
        var ids: [[Int]] = []
        var sums: [Int] = []

        init(seed: UInt64, below rows: Int) {
            var rng = SplitMix64(seed: 0x5eed_0100 &+ seed)
            let name = UnsafeMutablePointer<UInt8>.allocate(capacity: 32)
            defer { name.deallocate() }
            for _ in 0..<ReadThroughput.batchCount {
                let batch = (0..<ReadThroughput.readsPerSnapshot).map { _ in Int(rng.next() % UInt64(rows)) }
                ids.append(batch)
                sums.append(batch.reduce(0) { sum, id in
                    let length = writeName(id, into: name)
                    return sum + Workload.age(id) + length + Int(name[length - 1])
                })
            }
        }
    }

    /// The reader's side: reads batches until the window ends, counting wrong sums.
    static func read(_ engine: any BenchEngine, _ batches: Batches, window: MeasurementWindow) throws -> WorkerResult {
        window.awaitStart()
        var result = WorkerResult()
        var next = 0
        while !window.isOver {
            try engine.refreshSnapshot()
            if try engine.pkLookup(batches.ids[next]) != batches.sums[next] { result.mismatches += 1 }
            result.operations += batches.ids[next].count
            next = (next + 1) % batches.ids.count
        }
        result.seconds = monotonicSeconds() - window.start
        return result
    }

    /// Reads per second of `readers` processes on a loaded database of `engine`, and the
    /// writer's commits per second beside them; checks every batch's sum and that the
    /// database holds every commit the writer reported.
    static func measure(_ engine: EngineKind, readers: Int, _ bench: ProcessBench) throws -> (reads: Double, commits: Double) {
        try bench.withDatabase(engine, rows: rows) { directory in
            let results = try WorkerGroup.run((0...readers).map { worker in
                (worker == 0 ? WorkerRole.writer : .reader)
                    .arguments(engine: engine, directory: directory, durable: false, worker: worker, rows: rows)
            }, seconds: bench.seconds)
            let writer = results[0], readerResults = results.dropFirst()
            let label = "\(engine.rawValue) \(readers) readers"
            bench.check("\(label) wrong batch sums", readerResults.map(\.mismatches).reduce(0, +), expected: 0)
            try bench.checkRows(engine, directory, expected: rows + writer.operations, label)
            let reads = readerResults.map(\.operations).reduce(0, +)
            return (Double(reads) / (readerResults.map(\.seconds).max() ?? 1), Double(writer.operations) / writer.seconds)
        }
    }
}

import Foundation

/// The hidden `--role` of a worker process in the multi-process rows: what a child of
/// `strata-bench --processes` does, set up by the arguments `arguments(...)` builds.
enum WorkerRole: String {
    /// Commits one Person per write transaction until the window ends.
    case writer
    /// Looks Persons up by primary key, refreshing its snapshot every batch, until the window ends.
    case reader
    /// Strata: commits `CommitLatency.commits` stamps, a few milliseconds apart.
    case latencyWriter = "latency-writer"
    /// Strata: observes the stamps on its run loop and notes when each one arrives.
    case latencyObserver = "latency-observer"
    /// Strata: consumes the stamps' `changes` stream in async code and notes when each arrives.
    case latencyStreamObserver = "latency-stream-observer"
    /// Strata: the writer and the observer as two threads of one process.
    case latencyThreads = "latency-threads"

    /// The command line that runs this role on `engine`'s database in `directory`; `worker`
    /// numbers the workers of one measurement, `rows` is how many Persons were loaded first.
    func arguments(engine: EngineKind, directory: String, durable: Bool, worker: Int = 0, rows: Int = 0) -> [String] {
        ["--role", rawValue, "--child-engine", engine.rawValue, "--dir", directory,
         "--worker", String(worker), "--rows", String(rows)] + (durable ? [] : ["--nosync"])
    }

    /// The worker's side: sets up, says it is ready, waits for the window, works, reports.
    func serve(_ options: Options) throws {
        guard let directory = options.directory.map(URL.init(fileURLWithPath:)) else {
            throw BenchError("--role needs --dir")
        }
        let result: WorkerResult
        switch self {
        case .writer, .reader:
            guard let type = options.childEngine?.engineType else { throw BenchError("--role \(rawValue) needs --child-engine") }
            let engine = try type.init(directory: directory, durable: options.durable)
            if self == .writer {
                let firstID = options.rows + options.worker * CommitThroughput.idStride
                WorkerChannel.sayReady()
                result = try CommitThroughput.write(engine, firstID: firstID, window: try WorkerChannel.awaitWindow())
            } else {
                let batches = ReadThroughput.Batches(seed: UInt64(options.worker), below: options.rows)
                WorkerChannel.sayReady()
                result = try ReadThroughput.read(engine, batches, window: try WorkerChannel.awaitWindow())
            }
        case .latencyWriter:
            let writer = try LatencyWriter(directory: directory)
            WorkerChannel.sayReady()
            _ = try WorkerChannel.awaitWindow()
            result = try writer.run()
        case .latencyObserver:
            let times = try LatencyObserver.run(directory: directory, onReady: WorkerChannel.sayReady)
            result = WorkerResult(callbackTimes: times)
        case .latencyStreamObserver:
            result = WorkerResult(callbackTimes: try StampStream.run(directory: directory) { WorkerChannel.sayReady() })
        case .latencyThreads:
            result = try CommitLatency.acrossThreads(directory: directory) {
                WorkerChannel.sayReady()
                _ = try WorkerChannel.awaitWindow()
            }
        }
        try WorkerChannel.report(result)
    }
}

import Foundation

/// Runs each engine in its own process of this binary, so peak RSS and memory maps are the
/// engine's alone, in a fresh temporary directory removed afterwards.
enum ChildProcess {
    /// Runs `engine` in a child process and returns the measurements it printed (those made
    /// before a failure too) and its exit status.
    static func run(_ engine: EngineKind, options: Options) throws -> (measurements: [Measurement], status: Int32) {
        try withTemporaryDirectory(under: options.directory ?? NSTemporaryDirectory()) { directory in
            let output = Pipe()
            let process = try launchBenchProcess(arguments: options.childArguments(engine: engine, directory: directory),
                                                 input: nil, output: output)
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()

            let decoder = JSONDecoder()
            let measurements = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
                try? decoder.decode(Measurement.self, from: Data($0.utf8))
            }
            return (measurements, process.terminationStatus)
        }
    }

    /// The child side: runs the workload on `engine` in `options.directory`, printing one
    /// JSON line per measurement to stdout and progress with check sums to stderr.
    static func serve(_ engine: EngineKind, options: Options) throws {
        guard let directory = options.directory else { throw BenchError("--child-engine needs --dir") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let emit = { (m: Measurement) in
            let line = String(decoding: try! encoder.encode(m), as: UTF8.self)
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
            logProgress(m)
        }
        let instance = try engine.open(directory: URL(fileURLWithPath: directory), durable: options.durable)
        try Runner(engineName: engine.rawValue, engine: instance, n: options.n, ops: options.ops, repeats: options.repeats,
                   emit: emit).run()
        if options.ops.contains(.peakRSS), let bytes = peakRSSBytes() {
            emit(Measurement(op: .peakRSS, engine: engine.rawValue, bytes: bytes))
        }
    }

    private static func logProgress(_ m: Measurement) {
        var line = "# \(m.engine) \(m.op.rawValue) \(m.op.title)"
        if let seconds = m.seconds { line += " " + String(format: "%.6f s", seconds) }
        if let bytes = m.bytes { line += " \(bytes) bytes" }
        if let note = m.note { line += " \(note)" }
        for (name, value) in (m.checks ?? [:]).sorted(by: { $0.key < $1.key }) { line += " \(name)=\(value)" }
        printToStandardError(line)
    }

    /// Runs `body` with a new empty directory inside `base`, removed afterwards.
    static func withTemporaryDirectory<T>(under base: String, _ body: (String) throws -> T) throws -> T {
        let directory = try makeTemporaryDirectory(under: base)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try body(directory)
    }

    /// A new empty directory `strata-bench-XXXXXX` inside `base`.
    private static func makeTemporaryDirectory(under base: String) throws -> String {
        var template = Array((base as NSString).appendingPathComponent("strata-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError("cannot create a temporary directory in \(base): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}

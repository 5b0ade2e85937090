import Foundation

/// Runs the workload on each engine in its own child process (`--rounds` times, the engines
/// taking turns), then the multi-process rows and Strata's notification rows (each as
/// selected by the options), and prints the comparison.
func runBenchmark(_ options: Options) -> Int32 {
    var rounds: [[Measurement]] = []
    var failed = false
    for _ in 0..<(options.workload ? options.rounds : 0) {
        var round: [Measurement] = []
        for engine in options.engines {
            guard engine.engineType != nil else {
                printToStandardError("strata-bench: \(engine.rawValue): not built into this binary, skipped")
                continue
            }
            do {
                let child = try ChildProcess.run(engine, options: options)
                round += child.measurements
                if child.status != 0 {
                    failed = true
                    printToStandardError("strata-bench: \(engine.rawValue) exited with status \(child.status)")
                }
            } catch {
                failed = true
                printToStandardError("strata-bench: \(engine.rawValue): \(error)")
            }
        }
        rounds.append(round)
    }
    let measurements = Measurement.medians(of: rounds)
    let ran = options.engines.filter { engine in measurements.contains { $0.engine == engine.rawValue } }
    let report = Report(measurements: measurements, engines: ran)
    let agree = report.compareChecks()
    var processes: ProcessReport?
    if options.processes {
        let bench = ProcessBench(options: options)
        processes = ProcessReport(results: bench.run(), engines: bench.engines)
        failed = failed || bench.problems > 0
    }
    var notifications: NotificationReport?
    if options.notifications && options.engines.contains(.strata) {
        do {
            notifications = NotificationReport(results: try NotificationBench.run(base: options.directory ?? NSTemporaryDirectory()))
        } catch {
            failed = true
            printToStandardError("strata-bench: notifications: \(error)")
        }
    }
    do {
        if options.json {
            var sections: [(name: String, value: Any)] = []
            if let processes { sections.append(("processes", try jsonObject(processes.results))) }
            if let notifications { sections.append(("notifications", try jsonObject(notifications.results))) }
            print(options.workload ? try report.json(sections: sections)
                                   : try jsonText(Dictionary(uniqueKeysWithValues: sections.map { ($0.name, $0.value) })))
        } else {
            print([options.workload ? report.table() : nil, processes?.table(), notifications?.table()]
                .compactMap { $0 }.joined(separator: "\n\n"))
        }
    } catch {
        printToStandardError("strata-bench: \(error)")
        return 1
    }
    return agree && !failed ? 0 : 1
}

/// Writes `line` and a newline to stderr (diagnostics and check sums; stdout is for results).
func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Prints what `body` returns, run in a new directory `name-<pid>` under `--dir` (or the
/// temporary directory) that is removed afterwards; exits with status 1 when it throws.
func runInFreshDirectory(_ name: String, _ options: Options, _ body: (URL) throws -> String) {
    do {
        let directory = URL(fileURLWithPath: options.directory ?? NSTemporaryDirectory()).appendingPathComponent("\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        print(try body(directory))
    } catch {
        printToStandardError("strata-bench: \(error)")
        exit(1)
    }
}

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    printToStandardError("strata-bench: \(error)\n\(Options.usage)")
    exit(2)
}
if let role = options.role {
    do {
        try role.serve(options)
    } catch {
        printToStandardError("strata-bench: \(role.rawValue) worker: \(error)")
        exit(1)
    }
} else if options.lists {
    runInFreshDirectory("strata-lists", options) { try ListScale.run(directory: $0) }
} else if options.past {
    runInFreshDirectory("strata-past", options) { try PastVersions.run(directory: $0, n: options.n, durable: options.durable) }
} else if options.replication {
    runInFreshDirectory("strata-replication", options) { try ReplicationBench.run(directory: $0, durable: options.durable) }
} else if let engine = options.childEngine {
    do {
        try ChildProcess.serve(engine, options: options)
    } catch {
        printToStandardError("strata-bench: \(engine.rawValue): \(error)")
        exit(1)
    }
} else {
    exit(runBenchmark(options))
}

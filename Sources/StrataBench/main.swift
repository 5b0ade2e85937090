import Foundation

/// Runs the workload on each engine in its own child process, then prints the comparison.
func runBenchmark(_ options: Options) -> Int32 {
    var measurements: [Measurement] = []
    var failed = false
    for engine in options.engines {
        guard engine.engineType != nil else {
            FileHandle.standardError.write(Data("strata-bench: \(engine.rawValue): not built into this binary, skipped\n".utf8))
            continue
        }
        do {
            measurements += try ChildProcess.run(engine, options: options)
        } catch {
            failed = true
            FileHandle.standardError.write(Data("strata-bench: \(engine.rawValue): \(error)\n".utf8))
        }
    }
    let report = Report(measurements: measurements, engines: options.engines)
    let agree = report.compareChecks()
    do {
        print(options.json ? try report.json() : report.table())
    } catch {
        FileHandle.standardError.write(Data("strata-bench: \(error)\n".utf8))
        return 1
    }
    return agree && !failed ? 0 : 1
}

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("strata-bench: \(error)\n\(Options.usage)\n".utf8))
    exit(2)
}
if let engine = options.childEngine {
    do {
        try ChildProcess.serve(engine, options: options)
    } catch {
        FileHandle.standardError.write(Data("strata-bench: \(engine.rawValue): \(error)\n".utf8))
        exit(1)
    }
} else {
    exit(runBenchmark(options))
}

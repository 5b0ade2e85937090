import Foundation

/// The engines the benchmark can run.
enum EngineKind: String, CaseIterable {
    case lmdb, sqlite, strata
    /// Strata on an encrypted file (`--encrypted`), beside `strata` on a plain one.
    case strataEncrypted = "strata-enc"

    /// The engines a run has unless told otherwise.
    static let standard: [EngineKind] = [.lmdb, .sqlite, .strata]

    /// The engine's implementation, or nil when this binary was built without it.
    var engineType: (any BenchEngine.Type)? {
        switch self {
        case .lmdb: return RawLMDBEngine.self
        case .sqlite: return SQLiteEngine.self
        case .strata, .strataEncrypted:
            return StrataEngine.self
        }
    }

    /// Opens the engine's database in `directory` (see `BenchEngine.init`).
    func open(directory: URL, durable: Bool) throws -> any BenchEngine {
        guard let type = engineType else { throw BenchError("the \(rawValue) engine is not built into this binary") }
        if self == .strataEncrypted { return try StrataEngine(directory: directory, durable: durable, oldValues: true, encryptionKey: StrataEngine.benchKey) }
        return try type.init(directory: directory, durable: durable)
    }
}

/// The command line: `strata-bench [--n N] [--nosync] [--only W1,W3,...] [--json]
/// [--repeat R] [--rounds K] [--engines strata,lmdb,sqlite] [--dir PATH] [--processes] [--notifications]
/// [--seconds S] [--encrypted]`,
/// plus the hidden
/// `--child-engine NAME`, which runs one engine in this process (in the directory `--dir`)
/// and prints its results as JSON lines, and `--role ROLE --worker K`, a worker process of
/// the multi-process rows.
struct Options {
    var n = 1_000_000
    var durable = true
    var ops = Set(Op.allCases)
    var json = false
    var engines = EngineKind.standard
    var directory: String?
    var childEngine: EngineKind?
    /// Run the list-scale measurement instead of the workload.
    var lists = false
    /// Run the old-values and past-version measurement instead of the workload.
    var past = false
    /// Run the replication lag and throughput measurement instead of the workload.
    var replication = false
    /// Run the W1-W17 workload (off with `--processes` or `--notifications`).
    var workload = true
    /// Run the multi-process rows (off with `--only`, unless `--processes` is given too).
    var processes = true
    /// Run Strata's notification rows (off with `--only`, unless `--notifications` is given too).
    var notifications = true
    /// Seconds each throughput cell of the multi-process rows runs.
    var seconds = 1.0
    /// How many times each read-only op runs; its median time is reported (`--repeat`).
    var repeats = 1
    /// How many times the whole workload runs, each engine in a new process each time, the
    /// engines taking turns; each op's median over the rounds is reported (`--rounds`).
    var rounds = 1
    /// This process is a worker of the multi-process rows (hidden `--role`).
    var role: WorkerRole?
    /// The worker's number within its measurement (hidden `--worker`).
    var worker = 0
    /// The Persons loaded before the workers started (hidden `--rows`).
    var rows = 0

    static let usage = """
        usage: strata-bench [--n N] [--nosync] [--only W1,W3,...] [--json] [--repeat R]
                            [--rounds K] [--engines strata,lmdb,sqlite] [--dir PATH]
                            [--processes] [--notifications] [--seconds S] [--encrypted]
                            [--lists | --past | --replication]
          --n N        objects inserted by W1 (default 1000000)
          --nosync     commits without flushing (LMDB MDB_NOSYNC, SQLite synchronous=OFF)
          --only LIST  ops to run, from W1-W17, W8b, RSS (W1 always runs):
                       W11 `id IN` 1,000 ids, W12 `name BEGINSWITH` on the index,
                       W13 `id BETWEEN` 1,000 ids, W14 `ANY` and W15 `SUBQUERY` over lists
                       of objects (a join table in SQLite), each time per query;
                       W16 `pet.owner.name` per link followed, W17 a person's backlink
                       count (`person.pets.count`) per person
          --json       print the results as a JSON array instead of a table
          --repeat R   run each op that changes nothing (W2-W4, W6, W7, W11-W17) R times
                       and report its median time (default 1): steadier ratios on a
                       noisy machine
          --rounds K   run the whole workload K times, each engine in a new process
                       each time and the engines taking turns, and report each op's
                       median over the rounds (default 1): a process's own speed varies
                       on a shared machine, and this evens it out
          --engines    engines to run, in this order (default lmdb,sqlite,strata)
          --dir PATH   where each engine's temporary directory is made (default /tmp)
          --lists      instead: Strata's list append/index/remove and backlink count per
                       operation at 1k, 10k, 100k, 200k and 1M members
          --past       instead: Strata's W5 and W8 with history old values on and
                       off, and the time to open the version 1, 100 and 10,000 commits
                       back with freeze(atVersion:) on the N-object file
          --replication instead: replication through a throwaway local PostgreSQL:
                       origin-to-follower lag at 100 and 1,000 commits/s (p50/p99/max) and
                       push and follow throughput for 5,000 commits
          --processes  only the multi-process rows (also part of the default run, left out
                       when --only is given), each with real child processes on one file:
                       Strata's commit-to-callback latency (p50/p99/max, observer in another
                       process, on its run loop and as a `for await` over `changes`, and in
                       another thread); commits/s with 1, 2, 4, 8 writer
                       processes, one object per transaction, durable and no-sync; reads/s
                       (primary-key lookups) with 1, 2, 4 reader processes beside one
                       writer. Processes beyond the core count oversubscribe the machine.
          --notifications
                       only the notification rows (also part of the default run, left out
                       when --only is given), Strata only, in this process: commit-to-callback
                       latency (p50/p99/max) with the observer on the writer's thread and on
                       another thread; a no-sync commit plus its delivery with 0 and with 100
                       Results observers of a class the commit does not touch; the callback
                       after one modification of a sorted Results of 100,000 objects (moving
                       the object, and not), beside the sorted query alone; one no-sync
                       commit by a thread's write {} and by a task awaiting an actor whose
                       Realm is isolated to it (write {} and asyncWrite {}).
          --seconds S  how long each multi-process throughput cell runs (default 1)
          --encrypted  only the workload, on Strata twice in one run: a plain file
                       (strata) and a file encrypted with a fixed 64-byte key
                       (strata-enc), with the strata-enc/strata ratio of every row
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        var processesOnly = false, notificationsOnly = false, onlyGiven = false, encrypted = false
        func value(_ flag: String) throws -> String {
            guard let v = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--n":
                guard let n = Int(try value(flag)), n > 0 else { throw BenchError("--n needs a positive integer") }
                options.n = n
            case "--nosync":
                options.durable = false
            case "--only":
                onlyGiven = true
                options.ops = try Set(list(try value(flag)).map {
                    guard let op = Op(code: $0) else { throw BenchError("unknown op \($0)") }
                    return op
                })
            case "--lists":
                options.lists = true
            case "--past":
                options.past = true
            case "--replication":
                options.replication = true
            case "--encrypted":
                encrypted = true
            case "--processes":
                processesOnly = true
            case "--notifications":
                notificationsOnly = true
            case "--repeat":
                guard let repeats = Int(try value(flag)), repeats > 0 else { throw BenchError("--repeat needs a positive integer") }
                options.repeats = repeats
            case "--rounds":
                guard let rounds = Int(try value(flag)), rounds > 0 else { throw BenchError("--rounds needs a positive integer") }
                options.rounds = rounds
            case "--seconds":
                guard let seconds = Double(try value(flag)), seconds > 0 else { throw BenchError("--seconds needs a positive number") }
                options.seconds = seconds
            case "--role":
                let name = try value(flag)
                guard let role = WorkerRole(rawValue: name) else { throw BenchError("unknown role \(name)") }
                options.role = role
            case "--worker":
                guard let worker = Int(try value(flag)), worker >= 0 else { throw BenchError("--worker needs a number") }
                options.worker = worker
            case "--rows":
                guard let rows = Int(try value(flag)), rows >= 0 else { throw BenchError("--rows needs a number") }
                options.rows = rows
            case "--json":
                options.json = true
            case "--engines":
                options.engines = try list(try value(flag)).map(engine)
            case "--dir":
                options.directory = try value(flag)
            case "--child-engine":
                options.childEngine = try engine(try value(flag))
            case "--help", "-h":
                print(usage)
                exit(0)
            default:
                throw BenchError("unknown argument \(flag)")
            }
        }
        let allRows = !processesOnly && !notificationsOnly
        options.workload = allRows
        options.processes = processesOnly || allRows && !onlyGiven
        options.notifications = notificationsOnly || allRows && !onlyGiven
        if encrypted {
            (options.engines, options.workload, options.processes, options.notifications) = ([.strata, .strataEncrypted], true, false, false)
        }
        return options
    }

    /// The arguments that make a child process run `engine` in `directory` with these options.
    func childArguments(engine: EngineKind, directory: String) -> [String] {
        var arguments = ["--child-engine", engine.rawValue, "--dir", directory, "--n", String(n), "--repeat", String(repeats)]
        if !durable { arguments.append("--nosync") }
        arguments += ["--only", Op.allCases.filter(ops.contains).map(\.rawValue).joined(separator: ",")]
        return arguments
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func engine(_ name: String) throws -> EngineKind {
        guard let kind = EngineKind(rawValue: name.lowercased()) else { throw BenchError("unknown engine \(name)") }
        return kind
    }
}

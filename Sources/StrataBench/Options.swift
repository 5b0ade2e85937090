import Foundation

/// The engines the benchmark can run.
enum EngineKind: String, CaseIterable {
    case lmdb, sqlite, strata

    /// The engine's implementation, or nil when this binary was built without it.
    var engineType: (any BenchEngine.Type)? {
        switch self {
        case .lmdb: return RawLMDBEngine.self
        case .sqlite: return SQLiteEngine.self
        case .strata:
            return StrataEngine.self
        }
    }
}

/// The command line: `strata-bench [--n N] [--nosync] [--only W1,W3,...] [--json]
/// [--engines strata,lmdb,sqlite] [--dir PATH]`, plus `--child-engine NAME`, which runs one
/// engine in this process (in the directory `--dir`) and prints its results as JSON lines.
struct Options {
    var n = 1_000_000
    var durable = true
    var ops = Set(Op.allCases)
    var json = false
    var engines = EngineKind.allCases
    var directory: String?
    var childEngine: EngineKind?
    /// Run the list-scale measurement instead of the workload.
    var lists = false

    static let usage = """
        usage: strata-bench [--n N] [--nosync] [--only W1,W3,...] [--json]
                            [--engines strata,lmdb,sqlite] [--dir PATH]
          --n N        objects inserted by W1 (default 1000000)
          --nosync     commits without flushing (LMDB MDB_NOSYNC, SQLite synchronous=OFF)
          --only LIST  ops to run, from W1-W15, W8b, RSS (W1 always runs):
                       W11 `id IN` 1,000 ids, W12 `name BEGINSWITH` on the index,
                       W13 `id BETWEEN` 1,000 ids, W14 `ANY` and W15 `SUBQUERY` over lists
                       (Strata only; "–" for the baselines), each time per query
          --json       print the results as a JSON array instead of a table
          --engines    engines to run, in this order (default lmdb,sqlite,strata)
          --dir PATH   where each engine's temporary directory is made (default /tmp)
          --lists      instead: Strata's list append/index/remove and backlink count per
                       operation at 1k, 10k, 100k and 200k members
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
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
                options.ops = try Set(list(try value(flag)).map {
                    guard let op = Op(code: $0) else { throw BenchError("unknown op \($0)") }
                    return op
                })
            case "--lists":
                options.lists = true
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
        return options
    }

    /// The arguments that make a child process run `engine` in `directory` with these options.
    func childArguments(engine: EngineKind, directory: String) -> [String] {
        var arguments = ["--child-engine", engine.rawValue, "--dir", directory, "--n", String(n)]
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

import Foundation
import Strata
import StrataStorage

/// The `bank` scenario: several processes move money between accounts at once.
///
/// `strata-stress bank [--file F] [--processes P] [--transfers N] [--accounts A]` creates A
/// accounts of 1000 each, runs P copies of `worker transfer` (each N writes, each moving a
/// random amount between two random accounts when the payer can afford it), waits for them
/// and checks the invariants:
///
/// - the total of all balances is still A × 1000, and no balance is negative;
/// - the transfer counters add up to 2 × (the transfers the workers report as made);
/// - the file's version grew by exactly P × N (one commit per write, none lost).
///
/// Prints one line per check and exits 0 when all hold, 1 otherwise.
enum Bank {
    static let openingBalance = 1000

    /// Runs the scenario (the parent side).
    static func run(_ options: Arguments) throws {
        let processes = options.int("processes", default: 4)
        let transfers = options.int("transfers", default: 250)
        let accounts = options.int("accounts", default: 10)
        let directory = NSTemporaryDirectory() + "strata-bank-\(getpid())"
        let path = options.string("file", default: directory + "/bank.strata")
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path),
                                                objectTypes: [StressAccount.self])
        try Realm.deleteFiles(for: configuration)
        configuration.syncOnCommit = !options.flag("nosync")
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for id in 0..<accounts { realm.add(StressAccount(value: ["id": id, "balance": openingBalance])) }
        }
        let start = realm.version
        emit("bank: \(accounts) accounts, \(processes) processes × \(transfers) transfers on \(path)")

        let children = try (0..<processes).map { index -> (Process, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            var arguments = ["worker", "transfer", "--file", path, "--count", "\(transfers)",
                             "--accounts", "\(accounts)", "--seed", "\(index + 1)"]
            if options.flag("nosync") { arguments.append("--nosync") }
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            return (process, pipe)
        }
        var made = 0
        var failures: [String] = []
        for (index, (process, pipe)) in children.enumerated() {
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus != 0 { failures.append("worker \(index + 1) exited with \(process.terminationStatus)") }
            if let line = output.split(separator: "\n").last(where: { $0.hasPrefix("DONE") }),
               let n = line.split(separator: " ").first(where: { $0.hasPrefix("made=") }).flatMap({ Int($0.dropFirst(5)) }) {
                made += n
            } else {
                failures.append("worker \(index + 1) did not report its transfers")
            }
        }

        realm.refresh()
        let all = realm.objects(StressAccount.self)
        let total = all.map(\.balance).reduce(0, +)
        let counted = all.map(\.transfers).reduce(0, +)
        let negative = all.filter("balance < 0").count
        let commits = realm.version - start
        failures += check("total balance \(total) == \(accounts * openingBalance)", total == accounts * openingBalance)
        failures += check("negative balances \(negative) == 0", negative == 0)
        failures += check("transfer counters \(counted) == 2 × \(made) made", counted == 2 * made)
        failures += check("commits \(commits) == \(processes * transfers)", commits == UInt64(processes * transfers))
        failures += check("integrity check: \(integrity(path))", integrity(path) == "consistent")
        if options.string("file", default: "").isEmpty { try? FileManager.default.removeItem(atPath: directory) }
        if !failures.isEmpty {
            emit("bank: FAILED: " + failures.joined(separator: "; "))
            exit(1)
        }
        emit("bank: all invariants hold")
    }

    /// The integrity checker's verdict on the file: "consistent" or the first problem.
    private static func integrity(_ path: String) -> String {
        do {
            let txn = try StorageFile.open(path: path, options: .init()).beginRead()
            defer { txn.abort() }
            _ = try IntegrityCheck.run(txn)
            return "consistent"
        } catch {
            return "\(error)"
        }
    }

    private static func check(_ text: String, _ holds: Bool) -> [String] {
        emit("  \(holds ? "ok  " : "FAIL") \(text)")
        return holds ? [] : [text]
    }

    /// `worker transfer --file F --count N --accounts A --seed S`: N writes, each moving a
    /// random amount between two distinct accounts if the payer can afford it; prints
    /// `DONE made=<transfers made> skipped=<n>`.
    static func transferWorker(_ options: Arguments) throws {
        let realm = try Workers.open(options, types: [StressAccount.self])
        let count = options.int("count"), accounts = options.int("accounts")
        var random = SplitMix64(seed: UInt64(options.int("seed", default: Int(getpid()))))
        var made = 0, skipped = 0
        for _ in 0..<count {
            let from = random.next(below: accounts)
            let to = (from + 1 + random.next(below: accounts - 1)) % accounts
            let amount = 1 + random.next(below: 200)
            try realm.write(withDescription: "transfer \(amount) from \(from) to \(to)") {
                guard let payer = realm.object(ofType: StressAccount.self, forPrimaryKey: from),
                      let payee = realm.object(ofType: StressAccount.self, forPrimaryKey: to),
                      payer.balance >= amount
                else { skipped += 1; return }
                payer.balance -= amount
                payee.balance += amount
                payer.transfers += 1
                payee.transfers += 1
                made += 1
            }
        }
        emit("DONE made=\(made) skipped=\(skipped)")
    }
}

/// A small seeded generator, so a worker's choices can be replayed.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound` (bound > 0).
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

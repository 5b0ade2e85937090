import Foundation
import Strata

/// `strata watch FILE [--since VERSION] [--count N] [--json]`: prints each commit as it
/// happens, from any process, until interrupted (or after N commits).
struct WatchCommand: Command {
    static let name = "watch"
    static let runsInWorker = false
    static let summary = "print commits as they happen, from any process"
    static let help = HelpText(
        synopsis: "FILE [--since VERSION] [--count N] [--json]",
        description: [
            "Prints one line per commit to FILE as it happens, whichever process makes it: version, time, "
                + "process name and pid, and per class +inserted -deleted ~modified(properties), as 'strata "
                + "log' does. It sleeps until a commit wakes it (through FILE.lock, not by polling) and holds "
                + "a snapshot only while it reads the new history entries, so it pins no old version.",
            "Commits that coalesce (several before it wakes) are all printed, oldest first. Stop it with "
                + "Ctrl-C, or give --count.",
        ],
        options: [("--since VERSION", "first print the retained entries after VERSION"),
                  ("--count N, -n N", "exit after printing N commits"),
                  ("--json", "one JSON object per commit per line (the entries of 'strata log --json')")],
        examples: ["strata watch app.strata", "strata watch app.strata --json --count 10"],
        exitStatus: [(0, "success (after --count commits)"), (1, "the file cannot be read"), (2, "bad arguments")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"], valued: ["--since", "--count"], short: ["-n": "--count"])
        let path = try options.positional(1, "watch takes one FILE")[0]
        let json = options.has("--json")
        var remaining = try options.count("--count")
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), encryptionKey: try KeySource.keyData(), readOnly: true, objectTypes: []))
        var last = try options.number("--since") ?? realm.version
        var failure: Error?

        /// Prints the entries after `last` (oldest first) and releases the snapshot.
        func printNew() {
            defer { realm.invalidate() }
            do {
                var entries = Array(try realm.history(since: last).reversed())
                if let count = remaining { entries = Array(entries.prefix(count)) }
                guard let newest = entries.last else { return }
                last = newest.version
                remaining = remaining.map { $0 - entries.count }
                if json {
                    for entry in entries {
                        Output.json(HistoryJSON.Entry(entry: entry, classes: entry.classes.map(HistoryJSON.ClassSummary.init)))
                    }
                } else {
                    LogCommand.lines(entries).forEach { Output.line($0) }
                }
            } catch {
                failure = error
            }
        }

        printNew()
        let token = realm.observe { notification, _ in
            if notification == .didChange { printNew() }
        }
        defer { token.invalidate() }
        // A timer far ahead gives the run loop a source, so that it sleeps instead of returning.
        RunLoop.current.add(Timer(timeInterval: 3600, repeats: true) { _ in }, forMode: .default)
        while failure == nil && remaining.map({ $0 > 0 }) != false {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 3600))
        }
        if let failure { throw failure }
        return 0
    }
}

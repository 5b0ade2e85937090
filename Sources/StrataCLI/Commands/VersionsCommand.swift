import Foundation
import StrataStorage

/// `strata versions FILE [--json]`: the processes that have FILE open, the version each pins
/// and since when, and the oldest pin with the space it keeps from reuse.
struct VersionsCommand: Command {
    static let name = "versions"
    static let runsInWorker = false
    static let summary = "list the processes using the file and the versions they pin"
    static let help = HelpText(
        synopsis: "FILE [--json]",
        description: [
            "Lists the processes that have FILE open now, from its coordination file FILE.lock: pid, "
                + "executable name, when it opened the file, the oldest version its snapshots pin (Realms, "
                + "frozen objects), since when, and how many snapshots it holds. Entries of processes that "
                + "died are removed first (with their LMDB reader slots).",
            "Then the newest version and the oldest pinned one, with the bytes that pin keeps from reuse: "
                + "pages freed by later commits, which no write can reuse while that snapshot is open. This "
                + "command itself is left out of the list.",
        ],
        options: [("--json", "one JSON object (its members are in docs/INSPECTOR.md)")],
        examples: ["strata versions app.strata", "strata versions app.strata --json"],
        exitStatus: [(0, "success"), (1, "the file cannot be read"), (2, "bad arguments")])

    /// What `versions` prints, in both forms.
    struct Report: Encodable {
        var file: String
        var newestVersion: UInt64
        var oldestPinnedVersion: UInt64?
        var oldestPinnedBy: Int32?
        var bytesHeld: Int
        var processes: [Process]

        /// One process with the file open.
        struct Process: Encodable {
            var pid: Int32
            var name: String
            var opened: String
            var pinnedVersion: UInt64?
            var pinnedSince: String?
            var snapshots: Int
        }
    }

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"])
        let report = try Self.read(try options.positional(1, "versions takes one FILE")[0])
        if options.has("--json") { Output.json(report) } else { Self.text(report).forEach { Output.line($0) } }
        return 0
    }

    /// The registry of `path`, without this process, and the space the oldest pin holds.
    static func read(_ path: String) throws -> Report {
        let file = try StorageFile.open(path: path, options: .init(readOnly: true, encryptionKey: try KeySource.key()))
        let newest = try { () throws -> UInt64 in
            let txn = try file.beginRead()
            defer { txn.abort() }
            return txn.version
        }()
        let others = file.openProcesses().filter { $0.pid != getpid() }
        let oldest = others.filter { $0.pinnedVersion != nil }.min { $0.pinnedVersion! < $1.pinnedVersion! }
        let held = try oldest?.pinnedTransaction.map { try file.bytesHeld(bySnapshotOf: $0) } ?? 0
        let processes = others.map { p in
            Report.Process(pid: p.pid, name: p.name, opened: HistoryFile.time(p.openedAt), pinnedVersion: p.pinnedVersion,
                           pinnedSince: p.pinnedSince.map(HistoryFile.time), snapshots: p.snapshots)
        }
        return Report(file: path, newestVersion: newest, oldestPinnedVersion: oldest?.pinnedVersion,
                      oldestPinnedBy: oldest?.pid, bytesHeld: held, processes: processes)
    }

    /// Key-value lines, then a table of the processes.
    static func text(_ report: Report) -> [String] {
        var lines = ["file            \(report.file)", "newest version  \(report.newestVersion)"]
        if let version = report.oldestPinnedVersion, let pid = report.oldestPinnedBy {
            let behind = report.newestVersion >= version ? report.newestVersion - version : 0
            lines.append("oldest pin      version \(version) (\(Output.count(Int(behind), "version")) behind), by pid \(pid)")
            lines.append("held by it      \(Output.grouped(report.bytesHeld / 1024)) KiB that later writes cannot reuse")
        } else {
            lines.append("oldest pin      none: no other process holds a snapshot")
        }
        lines.append("")
        guard !report.processes.isEmpty else { return lines + ["no other process has the file open"] }
        let rows = report.processes.map { p in
            [String(p.pid), p.name, p.opened, p.pinnedVersion.map(String.init) ?? "-", p.pinnedSince ?? "-", String(p.snapshots)]
        }
        return lines + Output.table(["pid", "process", "opened", "pins", "since", "snapshots"], rows, indent: "", shrinking: [[1]])
    }
}

import Foundation
import Glibc
import Strata

/// `strata log --chart OUT.svg`: the chart of the entries written to OUT, and its summary
/// as a terminal chart on stdout.
enum ChartFile {
    /// Writes the chart of `entries` (of the file at `path`) to `out`, replacing a file
    /// there, and prints the summary. A failure to write names `out` and leaves no file.
    static func write(_ entries: [Realm.HistoryEntry], of path: String, to out: String) throws {
        guard !entries.isEmpty else {
            throw CommandFailure("'\(path)' has no retained history entries to chart (after the filters given)",
                                 hint: "'strata log \(path)' lists the retained versions")
        }
        let chart = HistoryChart(entries)
        let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64 ?? 0
        let svg = HistoryChartSVG(chart: chart, fileName: URL(fileURLWithPath: path).lastPathComponent, fileBytes: bytes)
        try save(svg.text, to: out)
        Output.lines(["wrote \(out): \(Output.count(chart.commits, "commit")), \(chart.versions)"]
                     + chart.terminalLines())
    }

    /// Writes `text` to a new or truncated file `out`; on failure removes what it wrote.
    private static func save(_ text: String, to out: String) throws {
        let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CommandFailure("cannot write the chart to '\(out)': \(String(cString: strerror(errno)))",
                                 hint: "give --chart a path in a directory you can write")
        }
        let writer = LineWriter(fd: fd)
        do {
            try writer.text(text)
            try writer.flush()
        } catch {
            close(fd)
            unlink(out)
            throw CommandFailure("cannot write the chart to '\(out)': \(CommandFailure(error).message)")
        }
        guard close(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(out)
            throw CommandFailure("cannot write the chart to '\(out)': \(reason)")
        }
    }
}

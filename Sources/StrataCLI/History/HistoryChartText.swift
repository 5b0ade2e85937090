/// `HistoryChart` as a compact terminal chart: a bar per process and per class, and lines
/// of block characters for the commits over time and the size in use over versions.
extension HistoryChart {
    /// The width of the longest bar, in characters.
    private static let barWidth = 30

    /// The lines `log --chart` prints under its first line.
    func terminalLines() -> [String] {
        let all = (0..<Self.timeBins).map { b in processes.reduce(0) { $0 + $1.counts[b] } }
        return ["commits by process:"] + Self.bars(processes) + ["commits that changed each class:"] + Self.bars(classes)
            + ["commits over time, \(HistoryFile.preciseTime(start)) to \(HistoryFile.preciseTime(end)):", "  " + Self.sparkline(all)]
            + sizeLines()
    }

    /// The size in use over versions as a line of block characters, with its largest value;
    /// nothing when no retained entry records a size.
    private func sizeLines() -> [String] {
        let sizes = bytesInUse.map { $0 ?? 0 }
        guard let most = sizes.max(), most > 0 else { return [] }
        return ["size in use over versions \(oldest) to \(newest) (at most \(Output.grouped(most)) bytes):",
                "  " + Self.sparkline(sizes)]
    }

    /// One row per series: its name, a bar of its total (the largest total is the longest
    /// bar; any commit shows), the total.
    private static func bars(_ series: [Series]) -> [String] {
        let most = max(1, series.map(\.total).max() ?? 1)
        return Output.table(nil, series.map { s in
            let length = s.total == 0 ? 0 : max(1, s.total * barWidth / most)
            return [s.name, String(repeating: "█", count: length), Output.grouped(s.total)]
        }, shrinking: [[0]])
    }

    /// A character per count, from "▁" (some) to "█" (the most); a space for none.
    private static func sparkline(_ counts: [Int]) -> String {
        let levels = Array("▁▂▃▄▅▆▇█")
        let most = max(1, counts.max() ?? 1)
        let line = String(counts.map { $0 == 0 ? " " : levels[min(levels.count - 1, ($0 * levels.count - 1) / most)] })
        return String(line.prefix(through: line.lastIndex { $0 != " " } ?? line.startIndex))
    }
}

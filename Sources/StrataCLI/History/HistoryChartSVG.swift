import Foundation

/// `HistoryChart` drawn as an SVG picture: a title, then four panels, each with axes, tick
/// labels, axis titles and a legend: commits over time stacked by process, commits over
/// time per class (one line each), objects changed over versions, and the file's size in
/// use over versions; a note gives the file's length now.
struct HistoryChartSVG {
    let chart: HistoryChart
    /// The file's name, for the title.
    let fileName: String
    /// The file's length now, in bytes.
    let fileBytes: UInt64

    /// The series colours (Okabe and Ito's, told apart with colour blindness), one for each
    /// named series; the series of the others is grey.
    static let colours = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000"]
    static let otherColour = "#999999"

    private static let width = 960, left = 70.0, plotWidth = 640.0, panelHeight = 200.0, panelGap = 90.0, top = 96.0

    /// The SVG text.
    var text: String {
        let height = Int(Self.top + 4 * (Self.panelHeight + Self.panelGap) + 20)
        var svg = SVG(width: Self.width, height: height)
        svg.text(Self.left, 28, "History of \(fileName): \(Output.count(chart.commits, "commit")), \(chart.versions)",
                 size: 16, bold: true)
        svg.text(Self.left, 48, "from \(HistoryFile.preciseTime(chart.start)) to \(HistoryFile.preciseTime(chart.end))")
        var y = Self.top
        timePanel(&svg, y: y, title: "Commits over time, by process (stacked)", series: chart.processes, stacked: true)
        y += Self.panelHeight + Self.panelGap
        timePanel(&svg, y: y, title: "Commits that changed each class, over time", series: chart.classes, stacked: false)
        y += Self.panelHeight + Self.panelGap
        versionPanel(&svg, y: y)
        y += Self.panelHeight + Self.panelGap
        sizePanel(&svg, y: y)
        svg.text(Self.left, Double(height) - 12, "The file is \(Output.grouped(Int(clamping: fileBytes))) bytes long now.", size: 10)
        return svg.text
    }

    /// A panel of counts per time bin: stacked bars, or one line per series.
    private func timePanel(_ svg: inout SVG, y: Double, title: String, series: [HistoryChart.Series], stacked: Bool) {
        let bins = HistoryChart.timeBins
        let peak = stacked ? (0..<bins).map { b in series.reduce(0) { $0 + $1.counts[b] } }.max() ?? 0
                           : series.flatMap(\.counts).max() ?? 0
        let scale = axes(&svg, y: y, title: title, peak: peak, yTitle: "commits")
        let start = chart.start.timeIntervalSince1970, end = chart.end.timeIntervalSince1970
        for tick in ChartScale.times(start, end) {
            xTick(&svg, y: y, x: Self.left + (tick.seconds - start) / (end - start) * Self.plotWidth, label: tick.label)
        }
        svg.text(Self.left + Self.plotWidth / 2, y + Self.panelHeight + 36,
                 "time (UTC), \(bins) spans of \(Self.duration((end - start) / Double(bins))) each", anchor: "middle")
        let barWidth = Self.plotWidth / Double(bins)
        if stacked {
            var base = [Int](repeating: 0, count: bins)
            for (i, s) in series.enumerated() {
                for b in 0..<bins where s.counts[b] > 0 {
                    let y0 = scale(base[b] + s.counts[b]), y1 = scale(base[b])
                    svg.rect(Self.left + Double(b) * barWidth + 0.5, y0, max(0.5, barWidth - 1), y1 - y0, fill: colour(i, s))
                    base[b] += s.counts[b]
                }
            }
        } else {
            for (i, s) in series.enumerated() {
                svg.polyline(s.counts.enumerated().map { (Self.left + (Double($0) + 0.5) * barWidth, scale($1)) }, stroke: colour(i, s))
            }
        }
        legend(&svg, y: y, series)
    }

    /// The panel of objects changed per run of versions.
    private func versionPanel(_ svg: inout SVG, y: Double) {
        let counts = chart.changedObjects
        let scale = axes(&svg, y: y, title: "Objects inserted, deleted or modified, over versions", peak: counts.max() ?? 0,
                         yTitle: "objects")
        versionAxis(&svg, y: y)
        let barWidth = Double(chart.versionsPerBin) / Double(chart.newest - chart.oldest + 1) * Self.plotWidth
        for (b, count) in counts.enumerated() where count > 0 {
            svg.rect(Self.left + Double(b) * barWidth + 0.25, scale(count), max(0.5, barWidth - 0.5),
                     scale(0) - scale(count), fill: Self.colours[0])
        }
        svg.text(Self.left + Self.plotWidth + 20, y + 14, "a cleared class counts one", size: 10)
    }

    /// The panel of the file's size in use per run of versions: a line through the bins whose
    /// entries record it (the largest there), or a note when none does.
    private func sizePanel(_ svg: inout SVG, y: Double) {
        let sizes = chart.bytesInUse
        let peak = sizes.compactMap { $0 }.max() ?? 0
        let unit = Self.byteUnits.last { $0.bytes <= max(1, peak) } ?? Self.byteUnits[0]
        let scale = axes(&svg, y: y, title: "File size in use, over versions", peak: peak, yTitle: "size in use",
                         unit: unit.bytes, unitName: unit.name)
        versionAxis(&svg, y: y)
        svg.text(Self.left + Self.plotWidth + 20, y + 14, "pages each version reaches", size: 10)
        svg.text(Self.left + Self.plotWidth + 20, y + 28, "× page size (largest per bar)", size: 10)
        guard peak > 0 else {
            svg.text(Self.left + Self.plotWidth / 2, y + Self.panelHeight / 2,
                     "no retained entry records the file's size", anchor: "middle")
            return
        }
        let barWidth = Double(chart.versionsPerBin) / Double(chart.newest - chart.oldest + 1) * Self.plotWidth
        let points = sizes.enumerated().compactMap { b, bytes in bytes.map { (Self.left + (Double(b) + 0.5) * barWidth, scale($0)) } }
        svg.polyline(points, stroke: Self.colours[2])
    }

    /// The units of a size axis.
    private static let byteUnits = [(bytes: 1, name: "B"), (bytes: 1 << 10, name: "KiB"), (bytes: 1 << 20, name: "MiB"),
                                    (bytes: 1 << 30, name: "GiB")]

    /// The version ticks and title under the x axis of the panel at `y`.
    private func versionAxis(_ svg: inout SVG, y: Double) {
        let first = Double(chart.oldest), span = Double(chart.newest - chart.oldest + 1)
        for v in ChartScale.versions(chart.oldest, chart.newest) {
            xTick(&svg, y: y, x: Self.left + (Double(v) - first + 0.5) / span * Self.plotWidth, label: Output.grouped(Int(clamping: v)))
        }
        let per = chart.versionsPerBin
        svg.text(Self.left + Self.plotWidth / 2, y + Self.panelHeight + 36,
                 per == 1 ? "version (one bar per version)" : "version (one bar per \(Output.grouped(Int(clamping: per))) versions)",
                 anchor: "middle")
    }

    /// The frame, title, horizontal grid and labels of a panel whose highest value is `peak`,
    /// ticked in multiples of `unit` (labelled with `unitName` when given); returns the y
    /// coordinate of a value.
    private func axes(_ svg: inout SVG, y: Double, title: String, peak: Int, yTitle: String,
                      unit: Int = 1, unitName: String? = nil) -> (Int) -> Double {
        let (topCount, step) = ChartScale.counts(upTo: (peak + unit - 1) / unit)
        let bottom = y + Self.panelHeight
        let scale = { (value: Int) in bottom - Double(value) / Double(topCount) / Double(unit) * Self.panelHeight }
        svg.text(Self.left, y - 12, title, size: 13, bold: true)
        for count in stride(from: 0, through: topCount, by: step) {
            let at = scale(count * unit)
            svg.line(Self.left, at, Self.left + Self.plotWidth, at, stroke: "#dddddd", dashed: count > 0)
            svg.text(Self.left - 6, at + 4, Output.grouped(count) + (unitName.map { " \($0)" } ?? ""), anchor: "end", size: 10)
        }
        svg.line(Self.left, y, Self.left, bottom, stroke: "#333333")
        svg.line(Self.left, bottom, Self.left + Self.plotWidth, bottom, stroke: "#333333")
        svg.text(Self.left - 50, y + Self.panelHeight / 2, yTitle, anchor: "middle", rotated: true)
        return scale
    }

    /// A tick mark and its label under the x axis of the panel at `y`.
    private func xTick(_ svg: inout SVG, y: Double, x: Double, label: String) {
        let bottom = y + Self.panelHeight
        svg.line(x, bottom, x, bottom + 5, stroke: "#333333")
        svg.text(x, bottom + 18, label, anchor: "middle", size: 10)
    }

    /// The legend beside the panel at `y`: a swatch, the name (shortened) and the total.
    private func legend(_ svg: inout SVG, y: Double, _ series: [HistoryChart.Series]) {
        let x = Self.left + Self.plotWidth + 20
        for (i, item) in series.enumerated() {
            let row = y + 4 + Double(i) * 18
            svg.rect(x, row, 12, 12, fill: colour(i, item))
            let name = item.name.count > 26 ? String(item.name.prefix(25)) + "…" : item.name
            svg.text(x + 18, row + 10, "\(name) (\(Output.grouped(item.total)))", size: 11)
        }
    }

    /// The colour of the `i`th series, `series`.
    private func colour(_ i: Int, _ series: HistoryChart.Series) -> String {
        series.isOther ? Self.otherColour : Self.colours[i % Self.colours.count]
    }

    /// A duration in the largest unit that keeps it at least one: "1.5 s", "2 min", "3 h", "4 d".
    static func duration(_ seconds: Double) -> String {
        let units: [(Double, String)] = [(86400, "d"), (3600, "h"), (60, "min"), (1, "s")]
        for (size, name) in units where seconds >= size {
            return "\(Self.short(seconds / size)) \(name)"
        }
        return "\(Self.short(seconds * 1000)) ms"
    }

    /// `x` with at most one decimal, none when whole.
    private static func short(_ x: Double) -> String {
        let tenths = (x * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(format: "%.1f", tenths / 10)
    }
}

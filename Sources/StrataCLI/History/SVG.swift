/// An SVG document built element by element: coordinates written with one decimal (so the
/// same chart is the same text), text escaped for XML.
struct SVG {
    private(set) var elements: [String] = []
    let width: Int
    let height: Int

    /// An empty picture of `width` by `height` pixels.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A rectangle.
    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String) {
        shape("rect", [("x", x), ("y", y), ("width", w), ("height", h)], "fill=\"\(fill)\"")
    }

    /// A straight line.
    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, dashed: Bool = false) {
        shape("line", [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)],
              "stroke=\"\(stroke)\"" + (dashed ? " stroke-dasharray=\"3,3\"" : ""))
    }

    /// A line through `points`, with a dot on each.
    mutating func polyline(_ points: [(Double, Double)], stroke: String) {
        let list = points.map { Self.coordinate($0.0) + "," + Self.coordinate($0.1) }.joined(separator: " ")
        elements.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"1.5\"/>")
        for (x, y) in points { shape("circle", [("cx", x), ("cy", y), ("r", 2)], "fill=\"\(stroke)\"") }
    }

    /// An empty element `name` with the coordinates `at` and the other attributes `style`.
    private mutating func shape(_ name: String, _ at: [(String, Double)], _ style: String) {
        elements.append("<\(name) " + at.map { "\($0.0)=\"\(Self.coordinate($0.1))\" " }.joined() + style + "/>")
    }

    /// Text whose `anchor` (start, middle, end) is at `x`, its baseline at `y`.
    mutating func text(_ x: Double, _ y: Double, _ content: String, anchor: String = "start", size: Int = 11,
                       bold: Bool = false, rotated: Bool = false) {
        let (x, y) = (Self.coordinate(x), Self.coordinate(y))
        let turn = rotated ? " transform=\"rotate(-90 \(x) \(y))\"" : ""
        elements.append("<text x=\"\(x)\" y=\"\(y)\" text-anchor=\"\(anchor)\" font-size=\"\(size)\""
                        + (bold ? " font-weight=\"bold\"" : "") + turn + ">" + Self.escaped(content) + "</text>")
    }

    /// The whole document.
    var text: String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" "
            + "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
            + "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#ffffff\"/>\n"
            + elements.joined(separator: "\n") + "\n</svg>\n"
    }

    /// `value` with one decimal.
    private static func coordinate(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10, fraction = abs(Int(tenths) % 10)
        return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }

    /// `text` with XML's special characters escaped and the characters XML cannot hold
    /// (controls other than tab and line breaks) as U+FFFD.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                out.unicodeScalars.append(v < 0x20 || v == 0xFFFE || v == 0xFFFF ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }
}

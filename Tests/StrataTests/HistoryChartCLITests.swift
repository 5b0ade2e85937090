import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StrataTestSupport
import XCTest
import Strata

/// The elements and the text of an SVG file, read by an XML parser (which fails on any
/// text that is not well-formed XML).
private final class SVGReading: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var texts: [String] = []
    private var current: String?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(name)
        if name == "text" { current = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let current { texts.append(current) }
        current = nil
    }
}

/// `strata log --chart`: an SVG of commits over time per process and per class and of the
/// objects changed over versions, with a terminal chart on stdout.
final class HistoryChartCLITests: StrataTestCase {
    /// Parses the SVG at `path`, requiring well-formed XML with an `svg` root.
    private func read(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> SVGReading {
        let parser = try XCTUnwrap(XMLParser(contentsOf: URL(fileURLWithPath: path)), file: file, line: line)
        let reading = SVGReading()
        parser.delegate = reading
        XCTAssertTrue(parser.parse(), "well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")", file: file, line: line)
        XCTAssertEqual(reading.elements.first, "svg", file: file, line: line)
        return reading
    }

    /// A copy of `strata-stress` under a name that XML must escape, so that the history
    /// records a process name with `<`, `&` and `"`.
    private func oddlyNamedStress() throws -> URL {
        let copy = directory.appendingPathComponent("st<r&\"ss")
        try FileManager.default.copyItem(at: try BuiltProducts.executable("strata-stress"), to: copy)
        return copy
    }

    func testChartIsWellFormedDeterministicSVGWithAxesAndLegends() throws {
        let file = fileURL().path
        let first = try WorkerProcess.stress(["worker", "insert", "--file", file, "--from", "1", "--count", "5"])
        try first.waitForSuccess()
        let odd = try WorkerProcess(try oddlyNamedStress(), ["worker", "insert", "--file", file, "--from", "6", "--count", "3"])
        try odd.waitForSuccess()

        let svg = fileURL("history.svg").path
        let run = try strata(["log", file, "--chart", svg])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        let reading = try read(svg)
        XCTAssertTrue(reading.elements.contains("rect") && reading.elements.contains("line") && reading.elements.contains("polyline"))
        let texts = reading.texts
        XCTAssertEqual(texts.first, "History of test.strata: 9 commits, versions 1 to 9")
        for title in ["Commits over time, by process (stacked)", "Commits that changed each class, over time",
                      "Objects inserted, deleted or modified, over versions", "commits", "objects",
                      "version (one bar per version)", "StressItem (8)",
                      "File size in use, over versions", "size in use", "The file is "] {
            XCTAssertTrue(texts.contains { $0.hasPrefix(title) }, "\(title) in \(texts)")
        }
        XCTAssertTrue(texts.contains("strata-stress[\(first.pid)] (6)"), "the first writer also stored the class: \(texts)")
        XCTAssertTrue(texts.contains("st<r&\"ss[\(odd.pid)] (3)"), "names are escaped and read back whole: \(texts)")
        XCTAssertTrue(texts.contains { $0.hasPrefix("time (UTC), 60 spans of ") }, "\(texts)")
        XCTAssertTrue(texts.contains("1") && texts.contains("9"), "the version axis reaches both ends: \(texts)")

        XCTAssertEqual(run.lines.first, "wrote \(svg): 9 commits, versions 1 to 9")
        XCTAssertTrue(run.lines.contains("commits by process:") && run.lines.contains("commits that changed each class:"), run.transcript)
        XCTAssertTrue(run.lines.contains { $0.hasPrefix("  strata-stress[\(first.pid)]") && $0.contains("█") && $0.hasSuffix(" 6") },
                      run.transcript)
        XCTAssertTrue(run.lines.contains { $0.hasPrefix("  StressItem") && $0.hasSuffix(" 8") }, run.transcript)
        XCTAssertTrue(run.lines.contains { $0.hasPrefix("size in use over versions 1 to 9 (at most ") }, run.transcript)

        let again = fileURL("again.svg").path
        XCTAssertEqual(try strata(["log", file, "--chart=" + again]).process.terminationStatus, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: again)), try Data(contentsOf: URL(fileURLWithPath: svg)),
                       "the same file gives the same picture")
    }

    func testManyProcessesAndVersionsKeepTheChartSmallAndGroupTheRest() throws {
        let file = fileURL().path
        var pids: [Int32] = []
        for n in 0..<9 {
            let worker = try WorkerProcess.stress(["worker", "insert", "--file", file, "--from", String(1 + n * 30), "--count", "30"])
            try worker.waitForSuccess()
            pids.append(worker.pid)
        }
        let svg = fileURL("history.svg").path
        let run = try strata(["log", file, "--chart", svg])
        XCTAssertEqual(run.process.terminationStatus, 0, run.transcript)
        let texts = try read(svg).texts
        XCTAssertEqual(texts.first, "History of test.strata: 271 commits, versions 1 to 271")
        XCTAssertTrue(texts.contains("version (one bar per 3 versions)"), "at most 120 bars: \(texts)")
        let legend = texts.filter { $0.hasPrefix("strata-stress[") || $0.contains("other processes") }
        XCTAssertEqual(legend.count, 7, "six processes by name, then the others as one: \(legend)")
        XCTAssertEqual(legend.last, "3 other processes (90)")
        XCTAssertTrue(legend.contains("strata-stress[\(pids[0])] (31)"), "most commits first: \(legend)")
        XCTAssertEqual(legend.first, "strata-stress[\(pids[0])] (31)")
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: svg)[.size] as? Int)
        XCTAssertLessThan(size, 60_000, "bounded by the bins, not the commits")

        let one = try strata(["log", file, "--process", String(pids[4]), "--chart", svg])
        XCTAssertEqual(one.process.terminationStatus, 0, one.transcript)
        let filtered = try read(svg).texts
        XCTAssertEqual(filtered.first, "History of test.strata: 30 commits, versions 122 to 151")
        XCTAssertEqual(filtered.filter { $0.hasPrefix("strata-stress[") }, ["strata-stress[\(pids[4])] (30)"])
    }

    func testChartFailuresNameThePathAndWriteNothing() throws {
        let file = fileURL().path
        try WorkerProcess.stress(["worker", "insert", "--file", file, "--from", "1", "--count", "2"]).waitForSuccess()

        let missing = directory.appendingPathComponent("no/such/dir/h.svg").path
        let unwritable = try strata(["log", file, "--chart", missing])
        XCTAssertEqual(unwritable.process.terminationStatus, 1, unwritable.transcript)
        XCTAssertTrue(unwritable.errorOutput.contains("cannot write the chart to '\(missing)': No such file or directory"),
                      unwritable.transcript)
        XCTAssertTrue(unwritable.errorOutput.contains("hint: give --chart a path in a directory you can write"), unwritable.transcript)
        XCTAssertEqual(unwritable.lines, [])

        let toDirectory = try strata(["log", file, "--chart", directory.path])
        XCTAssertEqual(toDirectory.process.terminationStatus, 1, toDirectory.transcript)
        XCTAssertTrue(toDirectory.errorOutput.contains("Is a directory"), toDirectory.transcript)

        let none = fileURL("none.svg").path
        let empty = try strata(["log", file, "--since", "3", "--chart", none])
        XCTAssertEqual(empty.process.terminationStatus, 1, empty.transcript)
        XCTAssertTrue(empty.errorOutput.contains("has no retained history entries to chart"), empty.transcript)
        XCTAssertFalse(FileManager.default.fileExists(atPath: none))

        for (arguments, message) in [(["--chart="], "--chart needs a value"), (["--chart"], "--chart needs a value"),
                                     (["--chart", none, "--json"], "--chart and --json cannot be given together")] {
            let run = try strata(["log", file] + arguments)
            XCTAssertEqual(run.process.terminationStatus, 2, run.transcript)
            XCTAssertTrue(run.errorOutput.contains(message), run.transcript)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: none))

        let old = fileURL("old.svg").path
        try Data(repeating: 0x41, count: 200_000).write(to: URL(fileURLWithPath: old))
        XCTAssertEqual(try strata(["log", file, "--chart", old]).process.terminationStatus, 0)
        XCTAssertEqual(try read(old).texts.first, "History of test.strata: 3 commits, versions 1 to 3", "an old file is replaced whole")
        let one = try strata(["log", file, "--since", "2", "--chart", old])
        XCTAssertEqual(one.lines.first, "wrote \(old): 1 commit, version 3", one.transcript)
        let single = try read(old).texts
        XCTAssertEqual(single.first, "History of test.strata: 1 commit, version 3")
        XCTAssertTrue(single.contains("version (one bar per version)") && single.contains("3"), "\(single)")
    }
}

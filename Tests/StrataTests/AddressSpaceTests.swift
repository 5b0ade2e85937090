import Foundation
import StrataTestSupport
import XCTest
import Strata

/// How much address space open files take: the map starts small and grows with the file,
/// so a process opens many files, and one with a limited address space (`ulimit -v`) still
/// writes and reads a large one.
final class AddressSpaceTests: StrataTestCase {
    func testAThousandFilesAreOpenInOneProcess() throws {
        var realms: [Realm] = []
        for index in 0..<1_000 {
            var configuration = configuration("many-\(index).strata", types: [StressItem.self])
            configuration.syncOnCommit = false
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(StressItem(value: ["id": index, "tag": "many", "value": index])) }
            realms.append(realm)
        }
        XCTAssertEqual(realms.reduce(0) { $0 + $1.objects(StressItem.self).count }, 1_000)
        XCTAssertEqual(realms[999].objects(StressItem.self).first?.id, 999)
    }

    /// A child limited to `kilobytes` of address space (`ulimit -v`) writes a gigabyte to a
    /// new file and reads it back; returns its `FILLED` line.
    private func fillUnderLimit(kilobytes: Int, _ name: String) throws -> String {
        let stress = try BuiltProducts.executable("strata-stress").path
        let path = fileURL(name).path
        let child = try WorkerProcess(URL(fileURLWithPath: "/bin/sh"), [
            "-c", "ulimit -v \(kilobytes) && exec \"$0\" worker fill --file \"$1\" --megabytes 1024", stress, path])
        let filled = try child.expectLine(startingWith: "FILLED", timeout: 1_200)
        XCTAssertGreaterThanOrEqual(Int(field("bytes", in: filled) ?? "") ?? 0, 1 << 30, child.transcript)
        try child.waitForSuccess()
        try FileManager.default.removeItem(atPath: path)  // a gigabyte of blobs: not worth checking again
        return filled
    }

    func testAGigabyteIsWrittenAndReadUnderAnEightGigabyteLimit() throws {
        _ = try fillUnderLimit(kilobytes: 8_000_000, "eight.strata")
    }

    /// Under a tighter limit the first map is smaller than the gigabyte: it grows as the
    /// file fills it.
    func testTheMapGrowsAsTheFileFillsItUnderATightLimit() throws {
        let filled = try fillUnderLimit(kilobytes: 2_500_000, "tight.strata")
        let first = try XCTUnwrap(Int(field("first-map", in: filled) ?? ""))
        let last = try XCTUnwrap(Int(field("map", in: filled) ?? ""))
        XCTAssertLessThan(first, 1 << 30 + 1 << 29, filled)
        XCTAssertGreaterThan(last, first, filled)
    }
}

/// A process whose map another process's writes outgrew remaps when it next begins a
/// snapshot (`MDB_MAP_RESIZED`).
final class MapResizeTests: StrataTestCase {
    func testAProcessWithASmallerMapFollowsAFileThatOutgrewIt() throws {
        let stress = try BuiltProducts.executable("strata-stress").path
        let path = fileURL().path
        let realm = try openRealm(types: [StressItem.self])
        try realm.write { realm.add(StressItem(value: ["id": 0, "tag": "small", "value": 0])) }
        let child = try WorkerProcess(URL(fileURLWithPath: "/bin/sh"), [
            "-c", "ulimit -v 2000000 && exec \"$0\" worker serve --file \"$1\"", stress, path])
        _ = try child.expectLine(startingWith: "READY")
        child.send("refresh")
        _ = try child.expectLine(startingWith: "REFRESHED")
        let tag = String(repeating: "m", count: 1 << 20)
        for first in stride(from: 1, to: 1_201, by: 8) {
            try realm.write {
                for id in first..<(first + 8) { realm.add(StressItem(value: ["id": id, "tag": tag, "value": id])) }
            }
        }
        child.send("refresh")
        let refreshed = try child.expectLine(startingWith: "REFRESHED", timeout: 300)
        XCTAssertEqual(field("changed", in: refreshed), "true", child.transcript)
        XCTAssertEqual(field("version", in: refreshed), "\(realm.version)", child.transcript)
        child.send("quit")
        _ = try child.expectLine(startingWith: "BYE")
        try child.waitForSuccess()
        checksIntegrityAfterTest = false
    }
}

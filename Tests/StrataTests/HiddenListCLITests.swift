import Foundation
import StrataTestSupport
import XCTest
@testable import Strata
@testable import StrataStorage

/// A playlist whose tracks are a list of strings.
final class Playlist: Object {
    @Persisted var name = ""
    @Persisted var tracks: List<String>
}

/// A file whose list entries are gone while the owner's row records elements (what a damaged
/// page of the list database leaves): the `strata` tool reports the list as damaged instead
/// of printing it as empty, and `strata check` flags the file.
final class HiddenListCLITests: StrataTestCase {
    func testAListWhoseEntriesAreGoneIsReportedAsDamagedNotEmpty() throws {
        checksIntegrityAfterTest = false
        let path = fileURL("playlists.strata").path
        do {
            let realm = try openRealm("playlists.strata", types: [Playlist.self])
            try realm.write {
                realm.add(Playlist(value: ["name": "full", "tracks": ["one", "two"]]))
                realm.add(Playlist(value: ["name": "empty"]))
            }
        }
        XCTAssertEqual(try strata(["check", path]).process.terminationStatus, 0)

        // Remove the directory of the first playlist's list and nothing else, as damage would.
        do {
            let file = try StorageFile.open(path: path, options: .init())
            let txn = try file.beginWrite()
            let table = try XCTUnwrap(try txn.table("Playlist"))
            let tracks = try XCTUnwrap(table.schema.properties.first { $0.name == "tracks" })
            let owner = try XCTUnwrap(try txn.rows.allKeys(table).first)
            try txn.lists.deleteEntry(table, tracks, key: StrataStorage.ListStore.key(owner))
            txn.commitDescription = "the list's directory removed"
            try txn.commit(processName: "test", pid: getpid())
        }

        let export = try strata(["export", path])
        XCTAssertEqual(export.process.terminationStatus, 1, export.transcript)
        XCTAssertTrue(export.errorOutput.contains("is damaged: the list 'Playlist.tracks' of object 1 has elements"), export.transcript)
        let check = try strata(["check", path])
        XCTAssertEqual(check.process.terminationStatus, 1, check.transcript)
        XCTAssertTrue(check.transcript.contains("'Playlist' object 1: its list 'tracks' cannot be read"), check.transcript)
    }
}

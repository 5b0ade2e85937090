import LMDB
import XCTest
@testable import StrataStorage

/// The one boundary between LMDB's errors and the storage layer's (`StorageError.translating`).
final class StorageErrorBoundaryTests: XCTestCase {
    private struct Unexpected: Error {}

    private func translated(_ error: any Error) -> StorageError? {
        do {
            try StorageError.translating("Reading 'T'") { throw error }
            return nil
        } catch {
            return error
        }
    }

    func testAnLMDBErrorIsTranslatedOnceWithWhatWasBeingDone() {
        let full = translated(LMDBError.mapFull)
        XCTAssertEqual(full?.code, .addressSpaceExhausted)
        XCTAssertEqual(full?.underlying, .mapFull)
        XCTAssertEqual(translated(LMDBError(ENOSPC))?.code, .outOfDiskSpace)
        XCTAssertEqual(translated(LMDBError.mapResized)?.code, .addressSpaceExhausted)
        XCTAssertTrue(full?.message.hasPrefix("Reading 'T': ") == true, full?.message ?? "")
        XCTAssertEqual(translated(LMDBError.invalid)?.code, .invalidDatabase)
        XCTAssertEqual(translated(LMDBError.notFound)?.code, .fail)
    }

    func testAStorageErrorPassesAsItIs() {
        let error = translated(StorageError(.invalidInput, "bad input"))
        XCTAssertEqual(error?.code, .invalidInput)
        XCTAssertEqual(error?.message, "bad input")
        XCTAssertNil(error?.underlying)
    }

    func testAnyOtherErrorFailsWithTheContext() {
        let error = translated(Unexpected())
        XCTAssertEqual(error?.code, .fail)
        XCTAssertTrue(error?.message.hasPrefix("Reading 'T': ") == true, error?.message ?? "")
    }

    func testTheCallersOwnErrorsPassThroughAWalkUnchanged() {
        XCTAssertThrowsError(try StorageError.translatingLMDBErrors("Scanning 'T'") { throw Unexpected() }) {
            XCTAssertTrue($0 is Unexpected)
        }
        XCTAssertThrowsError(try StorageError.translatingLMDBErrors("Scanning 'T'") { throw LMDBError.mapFull }) {
            XCTAssertEqual(($0 as? StorageError)?.code, .addressSpaceExhausted)
        }
    }
}

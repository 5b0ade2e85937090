import Foundation
import XCTest

/// A path for a new storage file in the temporary directory, named after `purpose`.
func temporaryStoragePath(_ purpose: String) -> String {
    NSTemporaryDirectory() + "\(purpose)-\(UUID().uuidString).strata"
}

/// Removes a storage file and the files beside it: LMDB's `-lock` and the coordination
/// file `.lock`.
func removeStorageFile(_ path: String) {
    for p in [path, path + "-lock", path + ".lock"] { try? FileManager.default.removeItem(atPath: p) }
}

/// A test case whose tests each get the path of a new storage file (`path`, not created),
/// removed with the files beside it after the test.
class StorageFileTestCase: XCTestCase {
    /// The running test's storage file.
    private(set) var path = ""

    override func setUp() {
        super.setUp()
        path = temporaryStoragePath(String(describing: type(of: self)))
    }

    override func tearDown() {
        removeStorageFile(path)
        super.tearDown()
    }
}

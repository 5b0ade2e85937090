import Foundation

/// A path for a new storage file in the temporary directory, named after `purpose`.
func temporaryStoragePath(_ purpose: String) -> String {
    NSTemporaryDirectory() + "\(purpose)-\(UUID().uuidString).strata"
}

/// Removes a storage file and the files beside it: LMDB's `-lock` and the coordination
/// file `.lock`.
func removeStorageFile(_ path: String) {
    for p in [path, path + "-lock", path + ".lock"] { try? FileManager.default.removeItem(atPath: p) }
}

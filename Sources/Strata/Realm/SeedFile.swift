import Foundation
import Glibc

/// `Realm.Configuration.seedFilePath`: the file copied into place when the configured one
/// does not exist yet.
enum SeedFile {
    /// Copies `seed` to `path` unless a file is there: into a temporary file beside it first,
    /// then linked into place, so another process opening `path` meanwhile finds it whole or
    /// not at all, and a file another process put there first is kept.
    static func copy(_ seed: URL, to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let seedPath = seed.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: seedPath) else {
            throw Realm.Error(.fileNotFound, "Cannot seed '\(path)': the seed file '\(seedPath)' does not exist", path: path)
        }
        let temporary = path + ".seed-\(getpid())"
        unlink(temporary)
        defer { unlink(temporary) }
        do {
            try FileManager.default.copyItem(atPath: seedPath, toPath: temporary)
        } catch {
            throw Realm.Error(.fileAccess, "Cannot seed '\(path)' from '\(seedPath)': \(error.localizedDescription)", path: path)
        }
        guard link(temporary, path) == 0 || errno == EEXIST else {
            throw Realm.Error(.fileAccess, "Cannot seed '\(path)' from '\(seedPath)': \(String(cString: strerror(errno)))", path: path)
        }
    }
}

import Foundation
import StrataStorage

/// A file rebuilt at a past version (`StorageFile.writeCopy(atVersion:to:)`) in a directory of
/// its own under the temporary directory, removed when this goes: what `query --at` reads.
final class PastVersionCopy {
    /// The rebuilt copy, open.
    let file: StorageFile
    private let directory: URL

    /// Rebuilds `source` at `version`; throws `.invalidInput` naming the oldest readable
    /// version when it is too old, or the newest when it does not exist yet.
    init(of source: StorageFile, at version: UInt64) throws {
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("strata-version-\(version)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            file = try source.writeCopy(atVersion: version, to: directory.appendingPathComponent("copy.strata").path)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

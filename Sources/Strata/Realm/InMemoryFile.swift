import Foundation
import Glibc
import Synchronization

/// An in-memory Realm's file: in a directory of this process under /dev/shm (or the temporary
/// directory), shared by every instance with the same identifier, deleted with its directory
/// when the last instance goes.
final class InMemoryFile: Sendable {
    let path: String
    /// The files in use, by identifier.
    private static let open = Mutex<[String: Weak]>([:])
    private struct Weak { weak var file: InMemoryFile? }

    private init(path: String) { self.path = path }

    /// The file for `identifier`, shared while any instance holds it.
    static func forIdentifier(_ identifier: String) throws -> InMemoryFile {
        try open.withLock { open in
            if let file = open[identifier]?.file { return file }
            let directory = try Self.directory()
            let safe = identifier.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "_" }.joined()
            let name = String(safe.prefix(40)) + "-" + String(UInt64(bitPattern: Int64(identifier.hashValue)), radix: 16)
            let path = directory + "/" + name + ".strata"
            for p in [path, path + "-lock", path + ".lock"] { try? FileManager.default.removeItem(atPath: p) }
            let file = InMemoryFile(path: path)
            open[identifier] = Weak(file: file)
            return file
        }
    }

    deinit {
        for p in [path, path + "-lock", path + ".lock"] { try? FileManager.default.removeItem(atPath: p) }
        let directory = (path as NSString).deletingLastPathComponent
        if (try? FileManager.default.contentsOfDirectory(atPath: directory))?.isEmpty ?? false {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// This process's directory for in-memory files (created on first use); directories of
    /// processes that died are removed.
    private static func directory() throws -> String {
        var isDirectory: ObjCBool = false
        let base = FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory) && isDirectory.boolValue
            ? "/dev/shm" : NSTemporaryDirectory()
        let prefix = "strata-memory-\(getuid())-"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where entry.hasPrefix(prefix) {
            if let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: base + "/" + entry)
            }
        }
        let directory = base + "/" + prefix + "\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Realm.Error(.fileAccess, "Cannot create the directory of in-memory Realms '\(directory)': \(error.localizedDescription)", path: directory)
        }
        return directory
    }
}

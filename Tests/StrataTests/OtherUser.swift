import Foundation
import StrataTestSupport
import XCTest

/// A second Unix user, created for a test (which needs root: others skip, saying so) and
/// removed after it, that runs `strata-stress` workers as itself (`setpriv`).
final class OtherUser {
    let name: String
    let uid: UInt32
    let gid: UInt32

    /// Creates the user, in a group of its own. Skips the test when not running as root.
    init() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to create a second Unix user (CI runs as root)") }
        name = "strata\(getpid() % 10_000)x\(UInt32.random(in: 0..<100_000))"
        try Self.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name])
        var entry = passwd(), result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else {
            throw WorkerError("the user \(name) was created but cannot be found")
        }
        uid = entry.pw_uid
        gid = entry.pw_gid
    }

    deinit { try? Self.run("/usr/sbin/userdel", [name]) }

    /// Starts `strata-stress` with `arguments` as this user.
    func stress(_ arguments: [String]) throws -> WorkerProcess {
        let executable = try BuiltProducts.executable("strata-stress")
        return try WorkerProcess(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                 ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", executable.path] + arguments)
    }

    /// Gives this user's group ownership of `paths` (their group permissions then apply to it).
    func shareGroup(of paths: [String]) {
        for path in paths { chown(path, UInt32.max, gid) }  // -1: the owner stays
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let status = try runSystemTool(tool, arguments)
        guard status == 0 else { throw WorkerError("\(tool) \(arguments) failed with status \(status)") }
    }
}

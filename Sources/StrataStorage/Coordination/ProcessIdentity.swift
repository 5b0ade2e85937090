import Foundation
import Glibc

/// Who a process is, for the coordination file's registry: its pid alone can be reused by a
/// later process, so an entry also records the process's start time.
package struct ProcessIdentity: Equatable, Sendable {
    package let pid: Int32
    /// Clock ticks after boot at which the process started (`/proc/PID/stat`, field 22);
    /// 0 when unknown.
    package let startTime: UInt64

    /// This process.
    package static let current = ProcessIdentity(pid: getpid(), startTime: startTime(of: getpid()) ?? 0)

    /// This process's executable name, as stored in the registry.
    package static let currentName = ProcessInfo.processInfo.processName

    /// Whether the process this identity names still runs: the pid exists and, when both
    /// start times are known, started when the entry says.
    package var isAlive: Bool {
        if !SystemCalls.processExists(pid) { return false }
        guard startTime != 0, let now = Self.startTime(of: pid) else { return true }
        return now == startTime
    }

    /// The start time of process `pid`, or nil when it does not exist (or /proc is missing).
    static func startTime(of pid: Int32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm)" come fields 3...; the start time is field 22.
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}

import Foundation
import Glibc

/// Collects output lines and writes them to a file descriptor in large pieces (`export`
/// writes millions of lines; one `write` per line would dominate its time).
final class LineWriter {
    private var buffer: [UInt8] = []
    private let fd: Int32

    /// A writer to `fd` (stdout by default).
    init(fd: Int32 = 1) {
        self.fd = fd
        buffer.reserveCapacity(1 << 17)
    }

    /// Adds `text` and a newline, writing out the buffer once it holds 64 KiB.
    func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Adds `text` as it is, writing out the buffer once it holds 64 KiB.
    func text(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes out everything added so far.
    func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot write the output: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

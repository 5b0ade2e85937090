import Foundation

/// A writer's record of the transactions it saw committed: one id per line, appended after
/// `write` returned (the commit is durable then) and flushed with `fsync` before the next
/// transaction begins. The coordinator checks every logged id is in the file at the end.
///
/// Each start of a writer slot has its own file, `writer-<slot>-<start>.log`. A writer killed
/// while appending leaves a last line without its newline, which is not read back (the
/// transaction is in the file or not; the writer never finished seeing it).
final class CommitLog {
    private let descriptor: Int32

    /// Creates the log of start `incarnation` of writer `slot` in `directory`.
    init(directory: String, slot: Int, incarnation: Int) throws {
        let path = directory + "/writer-\(slot)-\(incarnation).log"
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CommitLogError("cannot create \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }

    /// Appends `id` and flushes it to disk.
    func append(_ id: Int) throws {
        let line = Array("\(id)\n".utf8)
        guard line.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == line.count, fsync(descriptor) == 0 else {
            throw CommitLogError("cannot append to the commit log: \(String(cString: strerror(errno)))")
        }
    }

    /// Every complete line of every log in `directory`.
    static func readAll(directory: String) throws -> [Int] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".log") }
        return try names.flatMap { name -> [Int] in
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { Int($0) }
        }
    }
}

/// A commit log that cannot be written or read.
struct CommitLogError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

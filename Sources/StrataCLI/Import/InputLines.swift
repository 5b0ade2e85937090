import Foundation

/// The lines of an import's input, numbered from 1, as UTF-8 bytes (blank lines skipped).
struct InputLines: Sequence {
    let data: Data

    /// Reads `input` (`-` for stdin; a file is mapped, not copied); nil when it cannot be read.
    static func read(_ input: String) -> InputLines? {
        if input == "-" { return InputLines(data: FileHandle.standardInput.readDataToEndOfFile()) }
        return (try? Data(contentsOf: URL(fileURLWithPath: input), options: .alwaysMapped)).map(InputLines.init)
    }

    /// The number of lines (for the progress line's total).
    var count: Int {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int in
            var lines = 0, offset = 0
            while offset < buffer.count {
                lines += 1
                guard let newline = memchr(buffer.baseAddress! + offset, 0x0A, buffer.count - offset) else { break }
                offset = buffer.baseAddress!.distance(to: UnsafeRawPointer(newline)) + 1
            }
            return lines
        }
    }

    func makeIterator() -> Iterator { Iterator(data: data) }

    /// Yields `(number, bytes)` of each line that is not blank.
    struct Iterator: IteratorProtocol {
        let data: Data
        var offset = 0
        var number = 0

        mutating func next() -> (number: Int, bytes: [UInt8])? {
            while let bytes = nextLine() {
                number += 1
                if !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return (number, bytes) }
            }
            return nil
        }

        /// The bytes up to the next newline, or nil at the end.
        private mutating func nextLine() -> [UInt8]? {
            data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> [UInt8]? in
                guard offset < buffer.count else { return nil }
                let start = buffer.baseAddress! + offset
                let end = memchr(start, 0x0A, buffer.count - offset).map { buffer.baseAddress!.distance(to: UnsafeRawPointer($0)) } ?? buffer.count
                let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: end - offset))
                offset = end + 1
                return bytes
            }
        }
    }
}

/// A bad input line: its number and what is wrong with it.
struct LineError: Error {
    let line: Int
    let message: String
}

import Foundation
import StrataStorage

/// The key every command opens an encrypted file with: the file named by `--key-file PATH`
/// (128 hex digits, or 64 raw bytes), else the environment variable `STRATA_KEY` (128 hex
/// digits); none for a plain file. Never a key in the arguments, which `ps` shows.
enum KeySource {
    /// The path given with `--key-file`, taken out of the arguments by `extract`.
    nonisolated(unsafe) private static var keyFilePath: String?

    /// `arguments` without `--key-file PATH`, remembering the path; a usage error when the
    /// path is missing.
    static func extract(_ arguments: [String]) throws -> [String] {
        guard let i = arguments.firstIndex(of: "--key-file") else { return arguments }
        guard i + 1 < arguments.count else { throw UsageError("--key-file needs the path of a file holding the key") }
        keyFilePath = arguments[i + 1]
        return Array(arguments[..<i] + arguments[(i + 2)...])
    }

    /// The key, or nil when none is given.
    static func key() throws -> EncryptionKey? {
        if let path = keyFilePath { return try key(inFile: path) }
        guard let hex = ProcessInfo.processInfo.environment["STRATA_KEY"] else { return nil }
        guard let key = hexBytes(hex) else { throw StorageError(.invalidInput, "STRATA_KEY holds something other than 128 hex digits") }
        return try EncryptionKey(key)
    }

    /// The key held by the file at `path`: 64 bytes, or 128 hex digits.
    static func key(inFile path: String) throws -> EncryptionKey {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw StorageError(.fileNotFound, "Cannot read the key file '\(path)'")
        }
        if bytes.count == 64 { return try EncryptionKey([UInt8](bytes)) }
        guard let key = hexBytes(String(decoding: bytes, as: UTF8.self)) else {
            throw StorageError(.invalidInput, "The key file '\(path)' holds neither 128 hex digits nor 64 bytes")
        }
        return try EncryptionKey(key)
    }

    /// The key as a configuration takes it.
    static func keyData() throws -> Data? { try key().map { Data($0.bytes) } }

    /// The bytes of `text`'s hex digits (surrounding white space ignored), or nil.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

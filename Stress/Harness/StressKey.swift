import Foundation
import Strata

/// The encryption key of the files a stress run uses: 64 bytes given as 128 hex digits in the
/// environment variable `STRATA_KEY`, which every worker the coordinator starts inherits,
/// never in the arguments, which `ps` shows. Without it the files are plain.
enum StressKey {
    /// The key, or nil for plain files; a malformed `STRATA_KEY` stops the process.
    static let key: Data? = {
        guard let hex = ProcessInfo.processInfo.environment["STRATA_KEY"] else { return nil }
        guard let key = bytes(ofHex: hex) else { fail("STRATA_KEY must be an even number of hex digits") }
        return key
    }()

    /// `configuration` opening its file with the key, if there is one.
    static func applied(to configuration: Realm.Configuration) -> Realm.Configuration {
        var configuration = configuration
        configuration.encryptionKey = key
        return configuration
    }

    /// How a scenario's opening line names its file's kind: "encrypted file" or "file".
    static var fileKind: String { key == nil ? "file" : "encrypted file" }

    /// The bytes of an even number of hex digits, or nil.
    private static func bytes(ofHex hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

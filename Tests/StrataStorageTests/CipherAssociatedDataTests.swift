import CStrataCrypto
import XCTest

/// A record's additional data (database name, then record key) authenticates as one stream,
/// however it is handed to OpenSSL: records sealed with it in two parts (as long additional
/// data still is, and as files written before it was joined were) open with it joined, and
/// the other way round; a record under another name or key does not open.
final class CipherAssociatedDataTests: XCTestCase {
    private let key = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
    private let plain = Array("a row's bytes".utf8)

    private func sealed(_ cipher: OpaquePointer, _ aad1: [UInt8], _ aad2: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(STRATA_NONCE_BYTES) + plain.count + Int(STRATA_TAG_BYTES))
        XCTAssertEqual(strata_cipher_seal(cipher, aad1, aad1.count, aad2, aad2.count, plain, plain.count, &out), 0)
        return out
    }

    private func opens(_ cipher: OpaquePointer, _ record: [UInt8], _ aad1: [UInt8], _ aad2: [UInt8]) -> Bool {
        var out = [UInt8](repeating: 0, count: plain.count)
        let opened = strata_cipher_open(cipher, aad1, aad1.count, aad2, aad2.count, record, record.count, &out) == 0
        return opened && out == plain
    }

    func testTheDataAuthenticatesAsOneStreamHoweverItIsSplit() throws {
        let cipher = try XCTUnwrap(strata_cipher_new(key))
        defer { strata_cipher_free(cipher) }
        let name = Array("rows.Person".utf8), recordKey: [UInt8] = [0x80, 0, 0, 0, 0, 0, 0, 42]
        for (aad1, aad2) in [(name, recordKey), (name + recordKey, []), ([], name + recordKey),
                             (Array(repeating: 7, count: 300), recordKey)] {
            let whole = aad1 + aad2
            let record = sealed(cipher, aad1, aad2)
            XCTAssertTrue(opens(cipher, record, whole, []), "joined after sealing in two parts")
            XCTAssertTrue(opens(cipher, record, Array(whole.prefix(3)), Array(whole.dropFirst(3))), "split elsewhere")
            XCTAssertTrue(opens(cipher, record, [], whole))
            var other = whole
            other[other.count - 1] ^= 1
            XCTAssertFalse(opens(cipher, record, other, []), "another key")
        }
    }
}

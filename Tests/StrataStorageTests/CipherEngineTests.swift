import CStrataCrypto
import XCTest
@testable import StrataStorage

/// The fastest engine against libcrypto's EVP interface: a record sealed by either opens on
/// the other with the same plaintext, for every length of record and additional data around
/// the block size, a record with any byte changed opens on neither, and keyed hashes agree.
final class CipherEngineTests: XCTestCase {
    private var random = SplitMix64(seed: 0x5EA1_5EA1)

    private func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// The two engines for one random key; skips when the CPU has no AES-NI.
    private func engines() throws -> (aesni: OpaquePointer, libcrypto: OpaquePointer) {
        let key = bytes(64)
        let aesni = try XCTUnwrap(strata_cipher_new_on(key, STRATA_CIPHER_FASTEST))
        let libcrypto = try XCTUnwrap(strata_cipher_new_on(key, STRATA_CIPHER_LIBCRYPTO))
        XCTAssertEqual(strata_cipher_uses_aesni(libcrypto), 0)
        guard strata_cipher_uses_aesni(aesni) != 0 else {
            strata_cipher_free(aesni)
            strata_cipher_free(libcrypto)
            throw XCTSkip("this CPU has no AES-NI and PCLMULQDQ: every cipher runs on libcrypto")
        }
        return (aesni, libcrypto)
    }

    private func seal(_ cipher: OpaquePointer, _ aad1: [UInt8], _ aad2: [UInt8], _ plain: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: plain.count + RecordCipher.overhead)
        XCTAssertEqual(strata_cipher_seal(cipher, aad1, aad1.count, aad2, aad2.count, plain, plain.count, &out), 0)
        return out
    }

    /// The plaintext of `record`, or nil when it does not open (then `out` must be zeroed).
    private func open(_ cipher: OpaquePointer, _ aad1: [UInt8], _ aad2: [UInt8], _ record: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0xA5, count: record.count - RecordCipher.overhead)
        guard strata_cipher_open(cipher, aad1, aad1.count, aad2, aad2.count, record, record.count, &out) == 0 else {
            XCTAssertTrue(out.allSatisfy { $0 == 0 } || out.allSatisfy { $0 == 0xA5 }, "no plaintext of a record that did not open")
            return nil
        }
        return out
    }

    func testEachEngineOpensTheOthersRecords() throws {
        let (aesni, libcrypto) = try engines()
        defer { strata_cipher_free(aesni); strata_cipher_free(libcrypto) }
        let lengths = Array(0...130) + [255, 256, 257, 1_000, 4_096 + 7, 70_000]
        for length in lengths {
            let plain = bytes(length)
            let aad1 = bytes(random.next(below: 40)), aad2 = bytes(random.next(below: 40))
            for (sealer, opener) in [(aesni, libcrypto), (libcrypto, aesni), (aesni, aesni)] {
                let record = seal(sealer, aad1, aad2, plain)
                XCTAssertEqual(open(opener, aad1, aad2, record), plain, "\(length) bytes")
                XCTAssertEqual(open(opener, [], aad1 + aad2, record), plain, "the additional data is one stream")
            }
        }
    }

    func testAdditionalDataOfEveryLengthAuthenticates() throws {
        let (aesni, libcrypto) = try engines()
        defer { strata_cipher_free(aesni); strata_cipher_free(libcrypto) }
        let plain = bytes(23)
        for length in Array(0...70) + [300] {
            let aad = bytes(length)
            let split = random.next(below: length + 1)
            let (aad1, aad2) = (Array(aad[..<split]), Array(aad[split...]))
            XCTAssertEqual(open(libcrypto, aad, [], seal(aesni, aad1, aad2, plain)), plain, "\(length) bytes of additional data")
            XCTAssertEqual(open(aesni, aad1, aad2, seal(libcrypto, aad, [], plain)), plain, "\(length) bytes of additional data")
        }
    }

    func testKeyedHashesAgreeForEveryLengthAndSplit() throws {
        let key = bytes(64)
        let fast = try XCTUnwrap(strata_cipher_new_on(key, STRATA_CIPHER_FASTEST))
        let libcrypto = try XCTUnwrap(strata_cipher_new_on(key, STRATA_CIPHER_LIBCRYPTO))
        defer { strata_cipher_free(fast); strata_cipher_free(libcrypto) }
        func hash(_ cipher: OpaquePointer, _ a: [UInt8], _ b: [UInt8], _ c: [UInt8]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            XCTAssertEqual(strata_cipher_hash(cipher, a, a.count, b, b.count, c, c.count, &out), 0)
            return out
        }
        for length in Array(0...140) + [1_000, 10_000] {
            let message = bytes(length)
            let i = random.next(below: length + 1), j = random.next(below: length + 1)
            let (first, second) = (min(i, j), max(i, j))
            let parts = (Array(message[..<first]), Array(message[first..<second]), Array(message[second...]))
            let expected = hash(libcrypto, message, [], [])
            XCTAssertEqual(hash(fast, parts.0, parts.1, parts.2), expected, "\(length) bytes")
            XCTAssertEqual(hash(libcrypto, parts.0, parts.1, parts.2), expected, "\(length) bytes")
            XCTAssertEqual(hash(fast, message, [], []), expected, "the same hash a second time")
        }
        // RFC 4231, test case 2: the key "Jefe" (zero-padded, as any key shorter than a block).
        var jefe = [UInt8](repeating: 0, count: 64)
        jefe.replaceSubrange(32..<36, with: Array("Jefe".utf8))
        let rfc = try XCTUnwrap(strata_cipher_new(jefe))
        defer { strata_cipher_free(rfc) }
        let digest = hash(rfc, Array("what do ya want ".utf8), Array("for nothing?".utf8), [])
        XCTAssertEqual(digest.map { String(format: "%02x", $0) }.joined(),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// A run of records (a cursor's entries) opens back to back until the first that does not
    /// fit or does not open, on either engine.
    func testARunOpensUpToTheFirstRecordThatDoesNotFitOrOpen() throws {
        let (aesni, libcrypto) = try engines()
        defer { strata_cipher_free(aesni); strata_cipher_free(libcrypto) }
        let name = Array("rows.Person".utf8)
        let keys = (0..<6).map { i in withUnsafeBytes(of: UInt64(i).bigEndian) { Array($0) } }
        let plains = [5, 0, 40, 17, 64, 3].map { bytes($0) }
        let sealed = zip(keys, plains).map { seal(aesni, name, $0, $1) }
        /// How many of `records` open into `capacity` bytes, and the bytes they fill.
        func run(_ cipher: OpaquePointer, _ records: [[UInt8]], capacity: Int) -> (opened: Int, out: [UInt8]) {
            var out = [UInt8](repeating: 0, count: capacity)
            var written = 0
            let opened = keys.withSpans { keySpans in
                records.withSpans { recordSpans in
                    strata_cipher_open_run(cipher, name, name.count, keySpans, recordSpans, records.count, &out, capacity, &written)
                }
            }
            return (opened, Array(out.prefix(written)))
        }
        let whole = plains.reduce([], +)
        for cipher in [aesni, libcrypto] {
            XCTAssertEqual(run(cipher, sealed, capacity: whole.count).opened, 6)
            XCTAssertEqual(run(cipher, sealed, capacity: whole.count).out, whole, "back to back, in order")
            XCTAssertEqual(run(cipher, sealed, capacity: 61).opened, 3, "the fourth (17 bytes) does not fit in the 16 left")
            XCTAssertEqual(run(cipher, sealed, capacity: 62).opened, 4, "it fits in 17")
            var damaged = sealed
            damaged[3][20] ^= 1
            XCTAssertEqual(run(cipher, damaged, capacity: whole.count).opened, 3, "stops at the damaged one")
            var short = sealed
            short[2] = Array(short[2].prefix(RecordCipher.overhead - 1))
            XCTAssertEqual(run(cipher, short, capacity: whole.count).opened, 2, "stops at one shorter than a nonce and a tag")
            var moved = sealed
            moved.swapAt(0, 1)
            XCTAssertEqual(run(cipher, moved, capacity: whole.count).opened, 0, "a record under another key does not open")
        }
    }

    /// Rows open in runs straight from where they lie: every length of row around the block
    /// size, under names that put the 8-byte record key at every offset of its block, with and
    /// without room past the run; a changed byte of any record, or a record under another
    /// key, stops the run there.
    func testRunsOfRowsOpenForEveryLengthAndNameLength() throws {
        let (aesni, libcrypto) = try engines()
        defer { strata_cipher_free(aesni); strata_cipher_free(libcrypto) }
        for nameLength in 0...40 {
            let name = bytes(nameLength)
            let count = 12
            let keys = (0..<count).map { _ in bytes(8) }
            // Rows of one length and of random lengths.
            let sameLength = 1 + random.next(below: 70)
            let plains = (0..<count).map { i in bytes(i < count / 2 ? sameLength : random.next(below: 100)) }
            let sealed = zip(keys, plains).map { seal(random.next(below: 2) == 0 ? aesni : libcrypto, name, $0, $1) }
            let whole = plains.reduce([], +)
            func run(_ cipher: OpaquePointer, _ records: [[UInt8]], _ recordKeys: [[UInt8]], slack: Int) -> (opened: Int, out: [UInt8]) {
                var out = [UInt8](repeating: 0xA5, count: whole.count + slack)
                var written = 0
                let opened = recordKeys.withSpans { keySpans in
                    records.withSpans { strata_cipher_open_run(cipher, name, name.count, keySpans, $0, records.count, &out, out.count, &written) }
                }
                return (opened, Array(out.prefix(written)))
            }
            for cipher in [aesni, libcrypto] {
                for slack in [0, 15, 64] {
                    let opened = run(cipher, sealed, keys, slack: slack)
                    XCTAssertEqual(opened.opened, count, "name of \(nameLength) bytes, slack \(slack)")
                    XCTAssertEqual(opened.out, whole, "name of \(nameLength) bytes, slack \(slack)")
                }
                for victim in [random.next(below: count / 2), random.next(below: count)] {
                    var damaged = sealed
                    damaged[victim][random.next(below: damaged[victim].count)] ^= 0x10
                    XCTAssertEqual(run(cipher, damaged, keys, slack: 64).opened, victim, "stops at the changed record")
                    var otherKeys = keys
                    otherKeys[victim][random.next(below: 8)] ^= 0x01
                    XCTAssertEqual(run(cipher, sealed, otherKeys, slack: 64).opened, victim, "stops at the record under another key")
                }
            }
        }
    }

    func testAnyChangedByteFailsToOpen() throws {
        let (aesni, libcrypto) = try engines()
        defer { strata_cipher_free(aesni); strata_cipher_free(libcrypto) }
        let plain = bytes(50), aad = Array("rows.Person".utf8)
        let record = seal(aesni, aad, [], plain)
        for index in record.indices {
            var damaged = record
            damaged[index] ^= UInt8(1 << random.next(below: 8))
            XCTAssertNil(open(aesni, aad, [], damaged), "byte \(index) changed")
            XCTAssertNil(open(libcrypto, aad, [], damaged), "byte \(index) changed")
        }
        var otherData = aad
        otherData[0] ^= 1
        XCTAssertNil(open(aesni, otherData, [], record))
        XCTAssertNil(open(aesni, aad + [0], [], record), "longer additional data")
        XCTAssertNil(open(aesni, Array(aad.dropLast()), [], record), "shorter additional data")
        let otherKey = try XCTUnwrap(strata_cipher_new(bytes(64)))
        defer { strata_cipher_free(otherKey) }
        XCTAssertNil(open(otherKey, aad, [], record), "another key")
    }
}

private extension Array where Element == [UInt8] {
    /// Calls `body` with the arrays as `strata_span`s, valid while it runs.
    func withSpans<R>(_ body: (UnsafePointer<strata_span>) -> R) -> R {
        func spans(_ rest: ArraySlice<[UInt8]>, _ made: [strata_span]) -> R {
            guard let first = rest.first else { return made.withUnsafeBufferPointer { body($0.baseAddress!) } }
            return first.withUnsafeBytes { spans(rest.dropFirst(), made + [strata_span(count: $0.count, bytes: $0.baseAddress)]) }
        }
        return spans(self[...], [])
    }
}

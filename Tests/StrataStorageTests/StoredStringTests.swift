import XCTest
@testable import StrataStorage

/// `StoredString` builds short ASCII strings inline: the bits must be the standard library's.
final class StoredStringTests: XCTestCase {
    /// The two words of `string`, as laid out in memory.
    private func words(_ string: String) -> [UInt64] {
        let pair = unsafeBitCast(string, to: (UInt64, UInt64).self)
        return [pair.0, pair.1]
    }

    func testEveryShortASCIILengthHasTheStandardLibrarysBits() {
        let sample = Array("Strata-0123456789".utf8)
        for length in 0...15 {
            sample.withUnsafeBytes { all in
                let bytes = UnsafeRawBufferPointer(rebasing: all[..<length])
                guard let built = StoredString.smallASCII(bytes) else { return XCTFail("length \(length) was not built inline") }
                let standard = String(decoding: bytes, as: UTF8.self)
                XCTAssertEqual(words(built), words(standard), "length \(length)")
                XCTAssertEqual(built, standard)
                XCTAssertEqual(built.utf8.count, length)
                XCTAssertEqual(Array(built.utf8), Array(bytes))
            }
        }
    }

    func testEveryASCIIByteRoundTrips() {
        // Every ASCII byte, NUL and DEL included, at every place of a 15-byte string.
        for byte in UInt8(0)...0x7F {
            let bytes = (0..<15).map { $0 % 3 == 0 ? byte : UInt8(ascii: "a") + UInt8($0) }
            bytes.withUnsafeBytes { raw in
                let built = StoredString.decode(raw)
                XCTAssertEqual(words(built), words(String(decoding: raw, as: UTF8.self)), "byte \(byte)")
                XCTAssertEqual(Array(built.utf8), bytes)
            }
        }
    }

    func testNonASCIIAndLongStringsAreMadeByTheStandardLibrary() {
        let cases: [[UInt8]] = [
            Array("héllo".utf8),                 // two-byte sequence
            Array("日本".utf8),                   // three-byte sequences
            [0x61, 0xFF, 0x62],                  // invalid: read as U+FFFD
            [0xC3],                              // truncated sequence
            Array("a string of more than fifteen bytes".utf8),
            Array(repeating: UInt8(ascii: "x"), count: 16),
        ]
        for bytes in cases {
            bytes.withUnsafeBytes { raw in
                if raw.count <= 15 { XCTAssertNil(StoredString.smallASCII(raw), "\(bytes)") }
                let decoded = StoredString.decode(raw)
                XCTAssertEqual(decoded, String(decoding: raw, as: UTF8.self))
                XCTAssertEqual(Array(decoded.unicodeScalars), Array(String(decoding: raw, as: UTF8.self).unicodeScalars))
            }
        }
    }

    func testANonASCIIByteAnywhereInAShortStringIsSeen() {
        // The bytes are read with overlapping loads: each place must reach the check.
        for length in 1...15 {
            for place in 0..<length {
                var bytes = Array("abcdefghijklmno".utf8.prefix(length))
                bytes[place] = 0xE9
                // Between other bytes, so that a load reaching outside the string would show.
                let framed: [UInt8] = [0xFF] + bytes + [0x41]
                framed.withUnsafeBytes { all in
                    let raw = UnsafeRawBufferPointer(rebasing: all[1...length])
                    XCTAssertNil(StoredString.smallASCII(raw), "length \(length), place \(place)")
                    XCTAssertEqual(StoredString.decode(raw), String(decoding: raw, as: UTF8.self))
                }
            }
        }
    }

    func testAShortStringInsideOtherBytesReadsOnlyItsOwn() {
        let framed = Array("\u{7F}Strata-0123456789\u{7F}".utf8)
        framed.withUnsafeBytes { all in
            for length in 0...15 {
                let raw = UnsafeRawBufferPointer(rebasing: all[1..<(1 + length)])
                XCTAssertEqual(StoredString.decode(raw), String(decoding: raw, as: UTF8.self), "length \(length)")
            }
        }
    }
}

import CStrataChecksum
import XCTest

/// The CRC-32C behind every seal: the hardware path agrees with the table-driven one and with
/// the standard check value, at every length a tail can have.
final class ChecksumTests: XCTestCase {
    func testTheStandardCheckValue() {
        let bytes = Array("123456789".utf8)
        XCTAssertEqual(strata_crc32c(0, bytes, bytes.count), 0xE306_9283)
        XCTAssertEqual(strata_crc32c_portable(0, bytes, bytes.count), 0xE306_9283)
    }

    func testASealIsTheCRCOfItsKeyThenItsBodyAtEveryLength() {
        let bytes = (0..<80).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
        for keyCount in [0, 1, 3, 8, 13] {
            for bodyCount in 0...(bytes.count - keyCount) {
                let key = Array(bytes[0..<keyCount]), body = Array(bytes[keyCount..<(keyCount + bodyCount)])
                let seed: UInt32 = 0x5EA1_0000 | UInt32(bodyCount)
                let expected = strata_crc32c_portable(strata_crc32c_portable(seed, key, key.count), body, body.count)
                XCTAssertEqual(strata_seal_crc(seed, key, key.count, body, body.count), expected, "key \(keyCount), body \(bodyCount)")
                XCTAssertEqual(strata_crc32c(strata_crc32c(seed, key, key.count), body, body.count), expected)
            }
        }
    }
}

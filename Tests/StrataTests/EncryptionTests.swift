import Foundation
import StrataStorage
import XCTest
@testable import Strata

final class ZirconLedger: Object {
    @Persisted var quartzNote = ""
    @Persisted var serialNumber = 0
    @Persisted var smallNumber: Int32 = 0
    @Persisted var ratio = 0.0
    @Persisted var fraction: Float = 0
    @Persisted var flag = false
    @Persisted var blob = Data()
    @Persisted var stamp = Date(timeIntervalSince1970: 0)
    @Persisted var token = UUID()
    @Persisted var objectID = ObjectId()
    @Persisted var amount = Decimal128(number: 0)
    @Persisted var anything: AnyRealmValue = .none
    @Persisted var maybeNote: String?
    @Persisted var maybeNumber: Int?
    @Persisted var labels: List<String>
    @Persisted var codes: MutableSet<Int>
    @Persisted var attributes: Map<String, String>
}

/// Encryption at rest (docs/ENCRYPTION.md): what an encrypted file holds, and how opening it
/// with a wrong key, no key, or a key on a plain file fails.
final class EncryptionTests: StrataTestCase {
    static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    static let otherKey = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 3) })

    /// Values no encoding of Strata's puts in a file by chance.
    private static let note = "quartz-harbour-7731", label = "label-marigold-5519", mapKey = "key-obsidian-2288",
                       mapValue = "value-saffron-4406", description = "commit-juniper-9902", serial = 0x1357_9BDF_2468_ACE0
    private static let blob = Data("blob-vermilion-6623".utf8)
    private var note: String { Self.note }
    private var label: String { Self.label }
    private var mapKey: String { Self.mapKey }
    private var mapValue: String { Self.mapValue }
    private var description: String { Self.description }
    private var serial: Int { Self.serial }
    private var blob: Data { Self.blob }

    func encryptedConfiguration(_ name: String = "test.strata", key: Data? = EncryptionTests.key) -> Realm.Configuration {
        var config = configuration(name, types: [ZirconLedger.self])
        config.encryptionKey = key
        return config
    }

    /// Writes one ledger holding every value type, a list, a set and a map, in one commit
    /// described as "commit-juniper-9902".
    static func fill(_ realm: Realm) throws {
        try realm.write(withDescription: description) {
            let ledger = ZirconLedger()
            ledger.quartzNote = note
            ledger.serialNumber = serial
            ledger.smallNumber = -1_234_567
            ledger.ratio = 2.718281828
            ledger.fraction = 1.5
            ledger.flag = true
            ledger.blob = blob
            ledger.stamp = Date(timeIntervalSince1970: 1_700_000_000)
            ledger.token = UUID(uuidString: "8D1E7F3A-5B2C-4E6D-9A0B-C1D2E3F40516")!
            ledger.objectID = try ObjectId(string: "65f1a2b3c4d5e6f708192a3b")
            ledger.amount = Decimal128(number: 98765)
            ledger.anything = .string("mixed-tangerine-3317")
            ledger.maybeNote = "optional-cobalt-8845"
            ledger.maybeNumber = 424242
            ledger.labels.append(objectsIn: [label, "second"])
            ledger.codes.insert(objectsIn: [31337, 7])
            ledger.attributes[mapKey] = mapValue
            realm.add(ledger)
        }
    }

    private func assertFilled(_ realm: Realm, file: StaticString = #filePath, line: UInt = #line) throws {
        let ledger = try XCTUnwrap(realm.objects(ZirconLedger.self).first, file: file, line: line)
        XCTAssertEqual(ledger.quartzNote, note, file: file, line: line)
        XCTAssertEqual(ledger.serialNumber, serial, file: file, line: line)
        XCTAssertEqual(ledger.smallNumber, -1_234_567, file: file, line: line)
        XCTAssertEqual(ledger.ratio, 2.718281828, file: file, line: line)
        XCTAssertEqual(ledger.fraction, 1.5, file: file, line: line)
        XCTAssertTrue(ledger.flag, file: file, line: line)
        XCTAssertEqual(ledger.blob, blob, file: file, line: line)
        XCTAssertEqual(ledger.stamp, Date(timeIntervalSince1970: 1_700_000_000), file: file, line: line)
        XCTAssertEqual(ledger.token, UUID(uuidString: "8D1E7F3A-5B2C-4E6D-9A0B-C1D2E3F40516")!, file: file, line: line)
        XCTAssertEqual(ledger.objectID, try ObjectId(string: "65f1a2b3c4d5e6f708192a3b"), file: file, line: line)
        XCTAssertEqual(ledger.amount, Decimal128(number: 98765), file: file, line: line)
        XCTAssertEqual(ledger.anything, .string("mixed-tangerine-3317"), file: file, line: line)
        XCTAssertEqual(ledger.maybeNote, "optional-cobalt-8845", file: file, line: line)
        XCTAssertEqual(ledger.maybeNumber, 424242, file: file, line: line)
        XCTAssertEqual(Array(ledger.labels), [label, "second"], file: file, line: line)
        XCTAssertEqual(Set(ledger.codes), [31337, 7], file: file, line: line)
        XCTAssertEqual(ledger.attributes[mapKey], mapValue, file: file, line: line)
        XCTAssertEqual(try realm.history().compactMap(\.description), [description], file: file, line: line)
    }

    /// The byte strings that would give away what was written, as any of Strata's encodings
    /// would store them in a plain file.
    private var giveaways: [(String, [UInt8])] {
        var found: [(String, [UInt8])] = [note, label, mapKey, mapValue, description, "mixed-tangerine-3317", "optional-cobalt-8845",
                                          "quartzNote", "serialNumber", "attributes", "labels"].map { ($0, Array($0.utf8)) }
        found.append(("blob", Array(blob)))
        found.append(("serial", withUnsafeBytes(of: serial.littleEndian) { Array($0) }))
        found.append(("ratio", withUnsafeBytes(of: 2.718281828.bitPattern.littleEndian) { Array($0) }))
        found.append(("uuid", withUnsafeBytes(of: UUID(uuidString: "8D1E7F3A-5B2C-4E6D-9A0B-C1D2E3F40516")!.uuid) { Array($0) }))
        found.append(("objectId", [0x65, 0xf1, 0xa2, 0xb3, 0xc4, 0xd5, 0xe6, 0xf7, 0x08, 0x19, 0x2a, 0x3b]))
        return found
    }

    private func assertNoPlaintext(_ name: String = "test.strata", file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try Data(contentsOf: fileURL(name))
        for (what, pattern) in giveaways {
            XCTAssertNil(bytes.firstRange(of: Data(pattern)), "the file holds \(what) in plain", file: file, line: line)
        }
    }

    func testEveryValueTypeRoundTripsAndNoneIsInTheFileInPlain() throws {
        try closingRealms {
            let realm = try Realm(configuration: encryptedConfiguration())
            try Self.fill(realm)
            try assertFilled(realm)
            try assertNoPlaintext()
        }
        let reopened = try Realm(configuration: encryptedConfiguration())
        try assertFilled(reopened)
        try assertNoPlaintext()
    }

    func testTheSameWritesOnAPlainFileLeaveThemInPlain() throws {
        // The check above can fail: without a key, the file gives every value away.
        let realm = try Realm(configuration: encryptedConfiguration("plain.strata", key: nil))
        try Self.fill(realm)
        let bytes = try Data(contentsOf: fileURL("plain.strata"))
        for (what, pattern) in giveaways where ["quartz-harbour-7731", "label-marigold-5519", "serial", "commit-juniper-9902"].contains(what) {
            XCTAssertNotNil(bytes.firstRange(of: Data(pattern)), "the plain file should hold \(what)")
        }
    }

    func testAWrongKeyIsAClearErrorAndTheFileStaysReadable() throws {
        try closingRealms { try Self.fill(try Realm(configuration: encryptedConfiguration())) }
        assertOpenFails(encryptedConfiguration(key: Self.otherKey), .invalidDatabase, mentioning: "wrong encryption key")
        try assertFilled(try Realm(configuration: encryptedConfiguration()))
    }

    func testAKeyOfAnotherLengthIsRefused() throws {
        assertOpenFails(encryptedConfiguration(key: Self.key.prefix(63)), .invalidInput, mentioning: "must be exactly 64 bytes")
        assertOpenFails(encryptedConfiguration(key: Self.key + Data([0])), .invalidInput, mentioning: "must be exactly 64 bytes")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL().path), "a refused key creates no file")
    }

    func testNoKeyOnAnEncryptedFileSaysItNeedsOne() throws {
        try closingRealms { try Self.fill(try Realm(configuration: encryptedConfiguration())) }
        assertOpenFails(encryptedConfiguration(key: nil), .invalidDatabase, mentioning: "is encrypted: open it with its encryptionKey")
    }

    func testAKeyOnAPlainFileSaysItIsNotEncrypted() throws {
        try closingRealms { try Self.fill(try Realm(configuration: encryptedConfiguration(key: nil))) }
        assertOpenFails(encryptedConfiguration(), .invalidDatabase, mentioning: "is not encrypted")
    }

    func testAnotherKeyInTheSameProcessIsRefusedWhileTheFileIsOpen() throws {
        let realm = try Realm(configuration: encryptedConfiguration())
        try Self.fill(realm)
        assertOpenFails(encryptedConfiguration(key: Self.otherKey), .invalidDatabase, mentioning: "wrong encryption key")
        assertOpenFails(encryptedConfiguration(key: nil), .invalidDatabase, mentioning: "is encrypted")
        XCTAssertEqual(realm.objects(ZirconLedger.self).count, 1)
    }

    /// A read transaction of the encrypted test file, at the storage level, where reads throw.
    private func storageRead() throws -> StorageTransaction {
        try StorageFile.open(path: fileURL().path, options: .init(encryptionKey: try EncryptionKey([UInt8](Self.key)))).beginRead()
    }

    private func assertDamaged(_ read: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains("is damaged"), "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains("does not match its checksum"), "\(error)", file: file, line: line)
        }
    }

    func testAFlippedBitInARowIsReportedAsDamage() throws {
        checksIntegrityAfterTest = false
        try closingRealms { try Self.fill(try Realm(configuration: encryptedConfiguration())) }
        let row = try XCTUnwrap(StorageFixtures.firstValues(path: fileURL().path, databasesStartingWith: "rows.").first)
        try StorageFixtures.flipBit(inStored: row, path: fileURL().path)
        let txn = try storageRead()
        defer { txn.abort() }
        let table = try XCTUnwrap(try txn.table("ZirconLedger"))
        assertDamaged { try txn.rows.allKeys(table).map { try txn.rows.read(table, $0) as Any } }
        assertDamaged { try IntegrityCheck.run(txn) }
    }

    /// A loop decrypts its rows a run at a time: a damaged row in the middle of a run ends the
    /// walk there, after every row before it.
    func testAFlippedBitInARowEndsAWalkAtThatRow() throws {
        checksIntegrityAfterTest = false
        try closingRealms {
            let realm = try Realm(configuration: encryptedConfiguration())
            try realm.write {
                for i in 0..<300 { realm.add(ZirconLedger(value: ["serialNumber": i, "quartzNote": "row \(i)"])) }
            }
        }
        let rows = try StorageFixtures.values(path: fileURL().path, databaseStartingWith: "rows.")
        XCTAssertEqual(rows.count, 300)
        try StorageFixtures.flipBit(inStored: rows[200], path: fileURL().path)
        let txn = try storageRead()
        defer { txn.abort() }
        let cursor = txn.rows.scan(try XCTUnwrap(try txn.table("ZirconLedger")))
        var serials: [Int] = []
        let serial = try XCTUnwrap(try txn.table("ZirconLedger")?.schema.property(named: "serialNumber"))
        assertDamaged {
            while let (_, row) = try cursor.next() {
                guard case .int(let value) = row.value(serial) else { return XCTFail("serialNumber is an integer") }
                serials.append(Int(value))
            }
            return serials
        }
        XCTAssertEqual(serials, Array(0..<200), "the rows before the damaged one, each as written")
    }

    func testAFlippedBitInAListChunkIsReportedAsDamage() throws {
        checksIntegrityAfterTest = false
        try closingRealms { try Self.fill(try Realm(configuration: encryptedConfiguration())) }
        let values = try StorageFixtures.firstValues(path: fileURL().path, databasesStartingWith: "list.")
        XCTAssertEqual(values.count, 3, "the list, the set and the map")
        try StorageFixtures.flipBit(inStored: try XCTUnwrap(values.first), path: fileURL().path)
        let txn = try storageRead()
        defer { txn.abort() }
        let table = try XCTUnwrap(try txn.table("ZirconLedger"))
        let owner = try XCTUnwrap(try txn.rows.allKeys(table).first)
        let collections = table.listProperties.map { property in Result { try txn.lists.values(table, property, owner: owner) } }
        XCTAssertEqual(collections.filter { (try? $0.get()) == nil }.count, 1, "exactly the damaged collection fails")
        for case .failure(let error) in collections { assertDamaged { throw error } }
        assertDamaged { try IntegrityCheck.run(txn) }
    }

    func testAFlippedBitInAHistoryEntryIsReportedAsDamage() throws {
        checksIntegrityAfterTest = false
        try closingRealms { try Self.fill(try Realm(configuration: encryptedConfiguration())) }
        let values = try StorageFixtures.firstValues(path: fileURL().path, databasesStartingWith: "strata.history")
        try StorageFixtures.flipBit(inStored: try XCTUnwrap(values.first), path: fileURL().path)
        let txn = try storageRead()
        defer { txn.abort() }
        assertDamaged { try txn.history.entry(1) as Any }
    }
}

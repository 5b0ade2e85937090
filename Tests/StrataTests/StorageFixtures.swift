import Foundation
import LMDB
import StrataStorage

/// Direct manipulation of a database file, for tests of what Strata does with damaged or
/// foreign files.
enum StorageFixtures {
    /// Rewrites the stored format version of the file at `path`.
    static func setFormatVersion(_ version: UInt32, path: String) throws {
        let env = try Environment(path: path, options: .init())
        let txn = try Transaction(env, readOnly: false)
        let meta = try txn.openDatabase("strata.meta")!
        var value = version.littleEndian
        var key = "format"
        try key.withUTF8 { k in
            try withUnsafeBytes(of: &value) { try txn.put(meta, key: UnsafeRawBufferPointer(k), value: $0) }
        }
        try txn.commit()
    }

    /// Empties every index database of class `className` (an inconsistency for the checker).
    static func removeIndexEntries(path: String, className: String) throws {
        let env = try Environment(path: path, options: .init())
        let txn = try Transaction(env, readOnly: false)
        var names: [String] = []
        try txn.withCursor(Database(handle: 1)) { main in
            var entry = try main.first()
            while let e = entry {
                let name = String(decoding: e.key, as: UTF8.self)
                if name.hasPrefix("index.\(className).") { names.append(name) }
                entry = try main.next()
            }
        }
        for name in names { try txn.empty(try txn.openDatabase(name)!) }
        try txn.commit()
    }

    /// Empties the named database `name` or, when `deleting`, removes it from the file (as a
    /// file written before that database existed).
    static func clearDatabase(path: String, name: String, deleting: Bool = false) throws {
        let env = try Environment(path: path, options: .init())
        let txn = try Transaction(env, readOnly: false)
        let db = try txn.openDatabase(name)!
        if deleting { try txn.drop(db) } else { try txn.empty(db) }
        try txn.commit()
    }

    /// Overwrites the row of object `key` of class `className` with bytes that are not a row.
    static func damageRow(path: String, className: String, key: ObjectKey) throws {
        let env = try Environment(path: path, options: .init())
        let txn = try Transaction(env, readOnly: false)
        let rows = try txn.openDatabase("rows.\(className)")!
        var encoded = ObjectKeyCoding.encode(key)
        let garbage: [UInt8] = [0xFF]
        try withUnsafeBytes(of: &encoded) { k in
            try garbage.withUnsafeBytes { try txn.put(rows, key: k, value: $0) }
        }
        try txn.commit()
    }
}

extension StorageFixtures {
    /// Deletes the row of object `key` of class `className`, as damage that loses it would:
    /// links and backlinks naming the object remain, unless `clearingBacklinks` empties every
    /// backlinks database too (then nothing in the file records the links to it).
    static func removeRow(path: String, className: String, key: ObjectKey, clearingBacklinks: Bool = false) throws {
        let env = try Environment(path: path, options: .init())
        let txn = try Transaction(env, readOnly: false)
        var encoded = ObjectKeyCoding.encode(key)
        _ = try withUnsafeBytes(of: &encoded) { try txn.delete(txn.openDatabase("rows.\(className)")!, key: $0) }
        if clearingBacklinks {
            for name in try databaseNames(txn, startingWith: "backlinks.") { try txn.empty(txn.openDatabase(name)!) }
        }
        try txn.commit()
    }

    /// The value bytes of the first record of every named database whose name starts with
    /// `prefix`, read straight from LMDB.
    static func firstValues(path: String, databasesStartingWith prefix: String) throws -> [[UInt8]] {
        try reading(path) { txn in
            try databaseNames(txn, startingWith: prefix).compactMap { name in
                try txn.withCursor(try txn.openDatabase(name)!) { try $0.first().map { Array($0.value) } }
            }
        }
    }

    /// The value bytes of every record, in key order, of the first named database whose name
    /// starts with `prefix`, read straight from LMDB.
    static func values(path: String, databaseStartingWith prefix: String) throws -> [[UInt8]] {
        try reading(path) { txn in
            guard let name = try databaseNames(txn, startingWith: prefix).first,
                  let database = try txn.openDatabase(name) else { return [] }
            return try txn.withCursor(database) { cursor in
                var values: [[UInt8]] = []
                var entry = try cursor.first()
                while let e = entry {
                    values.append(Array(e.value))
                    entry = try cursor.next()
                }
                return values
            }
        }
    }

    /// `body` in a read transaction of the LMDB file at `path`.
    private static func reading<T>(_ path: String, _ body: (Transaction) throws -> T) throws -> T {
        let env = try Environment(path: path, options: .init())
        let txn = try Transaction(env, readOnly: true)
        defer { txn.abort() }
        return try body(txn)
    }

    /// The names of the named databases that start with `prefix`, in name order.
    private static func databaseNames(_ txn: Transaction, startingWith prefix: String) throws -> [String] {
        try txn.withCursor(Database(handle: 1)) { main in
            var names: [String] = []
            var entry = try main.first()
            while let e = entry {
                let name = String(decoding: e.key, as: UTF8.self)
                if name.hasPrefix(prefix) { names.append(name) }
                entry = try main.next()
            }
            return names
        }
    }

    /// Flips one bit in the middle of every place in the file at `path` where `record`'s bytes
    /// lie (the current page and the older copies LMDB left), as damage on the disk would;
    /// fails when they lie nowhere.
    static func flipBit(inStored record: [UInt8], path: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var start = bytes.startIndex, found = 0
        while let range = bytes[start...].firstRange(of: Data(record)) {
            bytes[range.lowerBound + record.count / 2] ^= 0x10
            start = range.upperBound
            found += 1
        }
        guard found > 0 else { throw CocoaError(.fileReadCorruptFile) }
        try bytes.write(to: URL(fileURLWithPath: path))
    }
}

import CLMDB
import Foundation

/// The floor: the workload on LMDB's C API with a compact hand-written row
/// `[age i64][score f64][name_len u32][name]` keyed by the id (8 bytes, big-endian, sign bit
/// flipped), and a `name → id` index database (`MDB_DUPSORT | MDB_DUPFIXED`) written in the
/// same transaction. W14 and W15's teams are a `team` database: id → its members' keys; W16
/// and W17's pets a `pet` database (id → owner's key) with its backlinks beside it.
final class RawLMDBEngine: BenchEngine {
    static let ageOffset = 0, scoreOffset = 8, nameLengthOffset = 16, nameOffset = 20

    private var env: OpaquePointer?
    private(set) var table: MDB_dbi = 0
    private var nameIndex: MDB_dbi = 0
    /// W14 and W15: team id → the keys of its members, 8 bytes each, in order.
    private(set) var teamTable: MDB_dbi = 0
    /// W16 and W17: pet id → its owner's key, and owner key → pet keys (one duplicate each).
    private(set) var petTable: MDB_dbi = 0
    private(set) var petOwners: MDB_dbi = 0
    /// Scratch space for one encoded key, one row and one name, reused by every call.
    private let keyBuffer = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    let rowBuffer = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 8)
    private let nameBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    private let prefix = Array(Workload.queryPrefix.utf8)

    init(directory: URL, durable: Bool) throws {
        try lmdbCheck(mdb_env_create(&env), "mdb_env_create")
        try lmdbCheck(mdb_env_set_mapsize(env, 64 << 30), "mdb_env_set_mapsize")
        try lmdbCheck(mdb_env_set_maxdbs(env, 5), "mdb_env_set_maxdbs")
        let flags = UInt32(MDB_NOSUBDIR) | (durable ? 0 : UInt32(MDB_NOSYNC))
        let path = directory.appendingPathComponent("bench.mdb").path
        try lmdbCheck(mdb_env_open(env, path, flags, 0o644), "mdb_env_open")
        try transaction { txn in
            try lmdbCheck(mdb_dbi_open(txn, "person", UInt32(MDB_CREATE), &table), "mdb_dbi_open")
            let indexFlags = UInt32(MDB_CREATE | MDB_DUPSORT | MDB_DUPFIXED)
            try lmdbCheck(mdb_dbi_open(txn, "person.name", indexFlags, &nameIndex), "mdb_dbi_open")
            try lmdbCheck(mdb_dbi_open(txn, "team", UInt32(MDB_CREATE), &teamTable), "mdb_dbi_open")
            try lmdbCheck(mdb_dbi_open(txn, "pet", UInt32(MDB_CREATE), &petTable), "mdb_dbi_open")
            try lmdbCheck(mdb_dbi_open(txn, "pet.owner", indexFlags, &petOwners), "mdb_dbi_open")
        }
    }

    deinit {
        mdb_env_close(env)
        keyBuffer.deallocate()
        rowBuffer.deallocate()
        nameBuffer.deallocate()
    }

    // MARK: Operations

    func insert(count n: Int) throws {
        for batch in stride(from: 0, to: n, by: Workload.batchRows) {
            try transaction { txn in
                for i in batch..<min(batch + Workload.batchRows, n) { try insertPerson(i, txn) }
            }
        }
    }

    func rowCount() throws -> Int { try entries(table) }

    func fileSize() throws -> Int {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        try lmdbCheck(mdb_env_info(env, &info), "mdb_env_info")
        try lmdbCheck(mdb_env_stat(env, &stat), "mdb_env_stat")
        return (info.me_last_pgno + 1) * Int(stat.ms_psize)
    }

    func countQuery() throws -> Int {
        var count = 0
        let minAge = Int64(Workload.queryMinAge)
        try forEachRow { _, row in
            guard row.mv_data.loadUnaligned(fromByteOffset: Self.ageOffset, as: Int64.self) > minAge
            else { return }
            let length = Int(row.mv_data.loadUnaligned(fromByteOffset: Self.nameLengthOffset, as: UInt32.self))
            if length >= prefix.count,
               memcmp(row.mv_data + Self.nameOffset, prefix, prefix.count) == 0 {
                count += 1
            }
        }
        return count
    }

    func pkLookup(_ ids: [Int]) throws -> Int {
        var sum = 0
        try transaction(readOnly: true) { txn in
            for id in ids {
                var key = encodeKey(id)
                var row = MDB_val()
                try lmdbCheck(mdb_get(txn, table, &key, &row), "mdb_get")
                let length = Int(row.mv_data.loadUnaligned(fromByteOffset: Self.nameLengthOffset, as: UInt32.self))
                let last = row.mv_data.load(fromByteOffset: Self.nameOffset + length - 1, as: UInt8.self)
                sum += age(row) + length + Int(last)
            }
        }
        return sum
    }

    func indexLookup(_ ids: [Int]) throws -> Int {
        var sum = 0, found = 0
        try transaction(readOnly: true) { txn in
            for k in ids {
                var name = MDB_val(mv_size: writeName(k, into: nameBuffer), mv_data: nameBuffer)
                var id = MDB_val()
                var row = MDB_val()
                try lmdbCheck(mdb_get(txn, nameIndex, &name, &id), "mdb_get(index)")
                try lmdbCheck(mdb_get(txn, table, &id, &row), "mdb_get")
                sum += age(row)
                found += 1
            }
        }
        return sum * 100_000 + found
    }

    func update(_ ids: [Int]) throws -> Int {
        var updated = 0
        try transaction { txn in
            try withCursor(txn, table) { cursor in
                for (j, id) in ids.enumerated() {
                    var key = encodeKey(id)
                    var row = MDB_val()
                    try lmdbCheck(mdb_cursor_get(cursor, &key, &row, MDB_SET_KEY), "mdb_cursor_get")
                    rowBuffer.copyMemory(from: row.mv_data, byteCount: row.mv_size)
                    rowBuffer.storeBytes(of: Double(j), toByteOffset: Self.scoreOffset, as: Double.self)
                    var newRow = MDB_val(mv_size: row.mv_size, mv_data: rowBuffer)
                    try lmdbCheck(mdb_cursor_put(cursor, &key, &newRow, UInt32(MDB_CURRENT)), "mdb_cursor_put")
                    updated += 1
                }
            }
        }
        return updated
    }

    func scoreSum2() throws -> Int {
        var sum = 0
        try forEachRow { _, row in
            sum += Int(row.mv_data.loadUnaligned(fromByteOffset: Self.scoreOffset, as: Double.self) * 2)
        }
        return sum
    }

    func enumerate() throws -> (rows: Int, sum: Int) {
        var rows = 0, sum = 0
        try forEachRow { _, row in
            sum += age(row) + Int(row.mv_data.loadUnaligned(fromByteOffset: Self.nameLengthOffset, as: UInt32.self))
            rows += 1
        }
        return (rows, sum)
    }

    func sortLimit() throws -> Int {
        // Names point into the map, so the ranking finishes inside the transaction.
        try transaction(readOnly: true) { txn in
            var heap = TopK(limit: Workload.sortLimit)
            try forEachRow(txn) { key, row in
                let age = age(row)
                if heap.isFull, age > heap.worst.age { return }
                let length = Int(row.mv_data.loadUnaligned(fromByteOffset: Self.nameLengthOffset, as: UInt32.self))
                heap.offer(TopK.Entry(age: age, name: UnsafeRawPointer(row.mv_data + Self.nameOffset),
                                      nameLength: length, id: decodeKey(key)))
            }
            return Workload.sortHash(heap.sorted().map { ($0.id, $0.age, $0.nameLength) })
        }
    }

    func inQuery(_ ids: [Int]) throws -> QueryResult {
        var result = QueryResult()
        try transaction(readOnly: true) { txn in
            for id in ids {
                var key = encodeKey(id)
                var row = MDB_val()
                let rc = mdb_get(txn, table, &key, &row)
                if rc == MDB_NOTFOUND { continue }
                try lmdbCheck(rc, "mdb_get")
                result.count += 1
                result.sum += age(row)
            }
        }
        return result
    }

    func prefixQuery(_ prefix: String) throws -> QueryResult {
        var result = QueryResult()
        let bytes = Array(prefix.utf8)
        try transaction(readOnly: true) { txn in
            try withCursor(txn, nameIndex) { cursor in
                try bytes.withUnsafeBytes { prefixBytes in
                    var name = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: prefixBytes.baseAddress!))
                    var id = MDB_val()
                    var rc = mdb_cursor_get(cursor, &name, &id, MDB_SET_RANGE)
                    while rc == MDB_SUCCESS, name.mv_size >= bytes.count,
                          memcmp(name.mv_data, prefixBytes.baseAddress!, bytes.count) == 0 {
                        var row = MDB_val()
                        try lmdbCheck(mdb_get(txn, table, &id, &row), "mdb_get")
                        result.count += 1
                        result.sum += age(row)
                        rc = mdb_cursor_get(cursor, &name, &id, MDB_NEXT)
                    }
                    if rc != MDB_SUCCESS && rc != MDB_NOTFOUND { try lmdbCheck(rc, "mdb_cursor_get") }
                }
            }
        }
        return result
    }

    func rangeQuery(_ range: ClosedRange<Int>) throws -> QueryResult {
        var result = QueryResult()
        try transaction(readOnly: true) { txn in
            try withCursor(txn, table) { cursor in
                var key = encodeKey(range.lowerBound)
                var row = MDB_val()
                var rc = mdb_cursor_get(cursor, &key, &row, MDB_SET_RANGE)
                while rc == MDB_SUCCESS, decodeKey(key) <= range.upperBound {
                    result.count += 1
                    result.sum += age(row)
                    rc = mdb_cursor_get(cursor, &key, &row, MDB_NEXT)
                }
                if rc != MDB_SUCCESS && rc != MDB_NOTFOUND { try lmdbCheck(rc, "mdb_cursor_get") }
            }
        }
        return result
    }

    func smallCommits(from first: Int, count: Int) throws {
        for j in 0..<count {
            try transaction { txn in try insertPerson(first + j, txn) }
        }
    }

    func deleteAll() throws {
        try transaction { txn in
            try withCursor(txn, table) { cursor in
                var key = MDB_val()
                var row = MDB_val()
                var rc = mdb_cursor_get(cursor, &key, &row, MDB_FIRST)
                while rc == MDB_SUCCESS {
                    let length = Int(row.mv_data.loadUnaligned(fromByteOffset: Self.nameLengthOffset, as: UInt32.self))
                    keyBuffer.copyMemory(from: key.mv_data, byteCount: 8)
                    nameBuffer.update(from: row.mv_data.advanced(by: Self.nameOffset)
                        .assumingMemoryBound(to: UInt8.self), count: length)
                    var name = MDB_val(mv_size: length, mv_data: nameBuffer)
                    var id = MDB_val(mv_size: 8, mv_data: keyBuffer)
                    try lmdbCheck(mdb_del(txn, nameIndex, &name, &id), "mdb_del(index)")
                    try lmdbCheck(mdb_cursor_del(cursor, 0), "mdb_cursor_del")
                    rc = mdb_cursor_get(cursor, &key, &row, MDB_NEXT)
                }
                if rc != MDB_NOTFOUND { try lmdbCheck(rc, "mdb_cursor_get") }
            }
        }
    }

    func entriesLeft() throws -> Int { try entries(table) + entries(nameIndex) }

    // MARK: Helpers

    /// Encodes Person(i) into the row buffer and puts it and its index entry.
    @inline(__always)
    private func insertPerson(_ i: Int, _ txn: OpaquePointer) throws {
        let nameLength = writeName(i, into: (rowBuffer + Self.nameOffset).assumingMemoryBound(to: UInt8.self))
        rowBuffer.storeBytes(of: Int64(Workload.age(i)), toByteOffset: Self.ageOffset, as: Int64.self)
        rowBuffer.storeBytes(of: Workload.score(i), toByteOffset: Self.scoreOffset, as: Double.self)
        rowBuffer.storeBytes(of: UInt32(nameLength), toByteOffset: Self.nameLengthOffset, as: UInt32.self)
        var key = encodeKey(i)
        var row = MDB_val(mv_size: Self.nameOffset + nameLength, mv_data: rowBuffer)
        try lmdbCheck(mdb_put(txn, table, &key, &row, UInt32(MDB_NOOVERWRITE)), "mdb_put")
        var name = MDB_val(mv_size: nameLength, mv_data: rowBuffer + Self.nameOffset)
        try lmdbCheck(mdb_put(txn, nameIndex, &name, &key, 0), "mdb_put(index)")
    }

    /// Writes the key of `id` into the key buffer and returns a value pointing at it.
    @inline(__always)
    func encodeKey(_ id: Int) -> MDB_val {
        keyBuffer.storeBytes(of: (UInt64(bitPattern: Int64(id)) ^ (1 << 63)).bigEndian, as: UInt64.self)
        return MDB_val(mv_size: 8, mv_data: keyBuffer)
    }

    @inline(__always)
    func decodeKey(_ key: MDB_val) -> Int {
        Int(Int64(bitPattern: UInt64(bigEndian: key.mv_data.loadUnaligned(as: UInt64.self)) ^ (1 << 63)))
    }

    @inline(__always)
    func age(_ row: MDB_val) -> Int {
        Int(row.mv_data.loadUnaligned(fromByteOffset: Self.ageOffset, as: Int64.self))
    }

    private func entries(_ dbi: MDB_dbi) throws -> Int {
        try transaction(readOnly: true) { txn in
            var stat = MDB_stat()
            try lmdbCheck(mdb_stat(txn, dbi, &stat), "mdb_stat")
            return stat.ms_entries
        }
    }

    /// Runs `body` in a transaction: a write transaction is committed, a read-only one ended.
    func transaction<T>(readOnly: Bool = false, _ body: (OpaquePointer) throws -> T) throws -> T {
        var txn: OpaquePointer?
        try lmdbCheck(mdb_txn_begin(env, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn), "mdb_txn_begin")
        let result: T
        do {
            result = try body(txn!)
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        if readOnly {
            mdb_txn_abort(txn)
        } else {
            try lmdbCheck(mdb_txn_commit(txn), "mdb_txn_commit")
        }
        return result
    }

    func withCursor<T>(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ body: (OpaquePointer) throws -> T) throws -> T {
        var cursor: OpaquePointer?
        try lmdbCheck(mdb_cursor_open(txn, dbi, &cursor), "mdb_cursor_open")
        defer { mdb_cursor_close(cursor) }
        return try body(cursor!)
    }

    /// Calls `body` with each (key, row) of the table in key order, in its own read transaction.
    @inline(__always)
    private func forEachRow(_ body: (MDB_val, MDB_val) -> Void) throws {
        try transaction(readOnly: true) { txn in try forEachRow(txn, body) }
    }

    /// Calls `body` with each (key, row) of the table in key order, inside `txn`.
    @inline(__always)
    private func forEachRow(_ txn: OpaquePointer, _ body: (MDB_val, MDB_val) -> Void) throws {
        try withCursor(txn, table) { cursor in
            var key = MDB_val()
            var row = MDB_val()
            var rc = mdb_cursor_get(cursor, &key, &row, MDB_FIRST)
            while rc == MDB_SUCCESS {
                body(key, row)
                rc = mdb_cursor_get(cursor, &key, &row, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { try lmdbCheck(rc, "mdb_cursor_get") }
        }
    }
}

/// Throws a `BenchError` naming `call` and LMDB's message unless `rc` is `MDB_SUCCESS`.
@inline(__always)
func lmdbCheck(_ rc: Int32, _ call: String) throws {
    if rc != MDB_SUCCESS { throw BenchError("\(call): \(String(cString: mdb_strerror(rc)))") }
}

import CLMDB
import Foundation

/// W16 and W17 on raw LMDB: a pet's value is its owner's key (one `mdb_get` to follow), and
/// the owner → pet backlinks are duplicates of one key (`mdb_cursor_count` counts them, once
/// W17 has found the person's row, as `object(forPrimaryKey:)` does).
extension RawLMDBEngine {
    func makePets(below n: Int) throws {
        let petKey = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        defer { petKey.deallocate() }
        try transaction { txn in
            for (p, owner) in Workload.petOwners(below: n).enumerated() {
                petKey.storeBytes(of: (UInt64(bitPattern: Int64(p)) ^ (1 << 63)).bigEndian, as: UInt64.self)
                var pet = MDB_val(mv_size: 8, mv_data: petKey)
                var ownerKey = encodeKey(owner)
                try lmdbCheck(mdb_put(txn, petTable, &pet, &ownerKey, 0), "mdb_put(pet)")
                try lmdbCheck(mdb_put(txn, petOwners, &ownerKey, &pet, 0), "mdb_put(pet.owner)")
            }
        }
    }

    func followOwners() throws -> QueryResult {
        var result = QueryResult()
        try transaction(readOnly: true) { txn in
            for _ in 0..<Workload.linkPasses {
                try withCursor(txn, petTable) { cursor in
                    var key = MDB_val(), owner = MDB_val()
                    var rc = mdb_cursor_get(cursor, &key, &owner, MDB_FIRST)
                    while rc == MDB_SUCCESS {
                        var row = MDB_val()
                        try lmdbCheck(mdb_get(txn, table, &owner, &row), "mdb_get(owner)")
                        result.sum += Int(row.mv_data.loadUnaligned(fromByteOffset: Self.nameLengthOffset, as: UInt32.self))
                        result.count += 1
                        rc = mdb_cursor_get(cursor, &key, &owner, MDB_NEXT)
                    }
                    if rc != MDB_NOTFOUND { try lmdbCheck(rc, "mdb_cursor_get(pet)") }
                }
            }
        }
        return result
    }

    func countPets(_ ids: [Int]) throws -> QueryResult {
        var result = QueryResult()
        try transaction(readOnly: true) { txn in
            try withCursor(txn, petOwners) { cursor in
                for id in ids {
                    var key = encodeKey(id), pet = MDB_val(), row = MDB_val()
                    try lmdbCheck(mdb_get(txn, table, &key, &row), "mdb_get(person)")
                    let rc = mdb_cursor_get(cursor, &key, &pet, MDB_SET)
                    if rc == MDB_SUCCESS {
                        var count = 0
                        try lmdbCheck(mdb_cursor_count(cursor, &count), "mdb_cursor_count")
                        result.sum += count
                    } else if rc != MDB_NOTFOUND {
                        try lmdbCheck(rc, "mdb_cursor_get(pet.owner)")
                    }
                    result.count += 1
                }
            }
        }
        return result
    }

    func deletePets() throws {
        try transaction { txn in
            try lmdbCheck(mdb_drop(txn, petTable, 0), "mdb_drop(pet)")
            try lmdbCheck(mdb_drop(txn, petOwners, 0), "mdb_drop(pet.owner)")
        }
    }
}

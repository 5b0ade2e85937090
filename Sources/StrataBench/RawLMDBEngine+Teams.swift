import CLMDB
import Foundation

/// W14 and W15 on raw LMDB: each team's members are the keys of their rows, read with one
/// `mdb_get` each (the layout Strata's lists of objects need as well: keys to look up).
extension RawLMDBEngine {
    func makeTeams(below n: Int) throws {
        try transaction { txn in
            for (t, members) in Workload.teamMembers(below: n).enumerated() {
                for (position, id) in members.enumerated() {
                    rowBuffer.storeBytes(of: (UInt64(bitPattern: Int64(id)) ^ (1 << 63)).bigEndian, toByteOffset: 8 * position, as: UInt64.self)
                }
                var key = encodeKey(t)
                var value = MDB_val(mv_size: 8 * members.count, mv_data: rowBuffer)
                try lmdbCheck(mdb_put(txn, teamTable, &key, &value, 0), "mdb_put(team)")
            }
        }
    }

    func anyQuery() throws -> QueryResult {
        try teamsMatching { members in
            members.contains { self.age($0) > Workload.anyMinAge }
        }
    }

    func subqueryQuery() throws -> QueryResult {
        try teamsMatching { members in
            members.count {
                self.age($0) > Workload.subqueryMinAge
                    && $0.mv_data.loadUnaligned(fromByteOffset: Self.scoreOffset, as: Double.self) > Workload.subqueryMinScore
            } > Workload.subqueryMinCount
        }
    }

    func deleteTeams() throws {
        try transaction { txn in try lmdbCheck(mdb_drop(txn, teamTable, 0), "mdb_drop(team)") }
    }

    /// The number of teams whose member rows pass `matches`, and the sum of their ids.
    private func teamsMatching(_ matches: ([MDB_val]) -> Bool) throws -> QueryResult {
        var result = QueryResult()
        var rows: [MDB_val] = []
        rows.reserveCapacity(Workload.teamSize)
        try transaction(readOnly: true) { txn in
            try withCursor(txn, teamTable) { cursor in
                var key = MDB_val(), value = MDB_val()
                var rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
                while rc == MDB_SUCCESS {
                    rows.removeAll(keepingCapacity: true)
                    for position in 0..<value.mv_size / 8 {
                        var member = MDB_val(mv_size: 8, mv_data: value.mv_data + 8 * position)
                        var row = MDB_val()
                        try lmdbCheck(mdb_get(txn, table, &member, &row), "mdb_get(member)")
                        rows.append(row)
                    }
                    if matches(rows) {
                        result.count += 1
                        result.sum += decodeKey(key)
                    }
                    rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
                }
                if rc != MDB_NOTFOUND { try lmdbCheck(rc, "mdb_cursor_get(team)") }
            }
        }
        return result
    }
}

import CSQLite
import Foundation

/// W16 and W17 on SQLite: a pet table with its owner's id, indexed, joined to `person` by its
/// primary key (W16); W17 finds the person by its primary key, as `object(forPrimaryKey:)`
/// does, and counts its pets through the index.
extension SQLiteEngine {
    private static let followSQL = "SELECT p.name FROM pet JOIN person p ON p.id = pet.owner_id"
    private static let countSQL = "SELECT (SELECT count(*) FROM pet WHERE owner_id = person.id) FROM person WHERE id = ?1"

    func makePets(below n: Int) throws {
        try execute("CREATE TABLE pet(id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL)")
        try execute("CREATE INDEX pet_owner ON pet(owner_id)")
        let insert = try statement("INSERT INTO pet(id, owner_id) VALUES (?1, ?2)")
        try transaction(writing: true) {
            for (p, owner) in Workload.petOwners(below: n).enumerated() {
                sqlite3_bind_int64(insert, 1, Int64(p))
                sqlite3_bind_int64(insert, 2, Int64(owner))
                try step(insert, expecting: SQLITE_DONE)
                sqlite3_reset(insert)
            }
        }
    }

    func followOwners() throws -> QueryResult {
        try explainOnce(Self.followSQL)
        let select = try statement(Self.followSQL)
        var result = QueryResult()
        try transaction {
            for _ in 0..<Workload.linkPasses {
                try forEachRow(select) {
                    result.sum += Int(sqlite3_column_bytes(select, 0))
                    result.count += 1
                }
            }
        }
        return result
    }

    func countPets(_ ids: [Int]) throws -> QueryResult {
        try explainOnce(Self.countSQL)
        let select = try statement(Self.countSQL)
        var result = QueryResult()
        try transaction {
            for id in ids {
                sqlite3_bind_int64(select, 1, Int64(id))
                try step(select, expecting: SQLITE_ROW)
                result.sum += Int(sqlite3_column_int64(select, 0))
                result.count += 1
                sqlite3_reset(select)
            }
        }
        return result
    }

    func deletePets() throws {
        try execute("DROP TABLE pet")
    }
}

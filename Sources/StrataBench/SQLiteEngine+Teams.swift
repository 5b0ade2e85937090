import CSQLite
import Foundation

/// W14 and W15 on SQLite: a join table of team members (its primary key indexes the team),
/// queried with EXISTS and a counting subquery joined to `person` by its primary key.
extension SQLiteEngine {
    private static let anySQL = "SELECT count(*), sum(t.id) FROM team t WHERE EXISTS (SELECT 1 FROM team_member m "
        + "JOIN person p ON p.id = m.person_id WHERE m.team_id = t.id AND p.age > \(Workload.anyMinAge))"
    private static let subquerySQL = "SELECT count(*), sum(t.id) FROM team t WHERE (SELECT count(*) FROM team_member m "
        + "JOIN person p ON p.id = m.person_id WHERE m.team_id = t.id AND p.age > \(Workload.subqueryMinAge) "
        + "AND p.score > \(Workload.subqueryMinScore)) > \(Workload.subqueryMinCount)"

    func makeTeams(below n: Int) throws {
        try execute("CREATE TABLE team(id INTEGER PRIMARY KEY)")
        try execute("CREATE TABLE team_member(team_id INTEGER NOT NULL, position INTEGER NOT NULL, "
                    + "person_id INTEGER NOT NULL, PRIMARY KEY(team_id, position)) WITHOUT ROWID")
        let team = try statement("INSERT INTO team(id) VALUES (?1)")
        let member = try statement("INSERT INTO team_member(team_id, position, person_id) VALUES (?1, ?2, ?3)")
        try transaction(writing: true) {
            for (t, members) in Workload.teamMembers(below: n).enumerated() {
                sqlite3_bind_int64(team, 1, Int64(t))
                try step(team, expecting: SQLITE_DONE)
                sqlite3_reset(team)
                for (position, id) in members.enumerated() {
                    sqlite3_bind_int64(member, 1, Int64(t))
                    sqlite3_bind_int64(member, 2, Int64(position))
                    sqlite3_bind_int64(member, 3, Int64(id))
                    try step(member, expecting: SQLITE_DONE)
                    sqlite3_reset(member)
                }
            }
        }
    }

    func anyQuery() throws -> QueryResult { try teamQuery(Self.anySQL) }

    func subqueryQuery() throws -> QueryResult { try teamQuery(Self.subquerySQL) }

    func deleteTeams() throws {
        try execute("DROP TABLE team_member")
        try execute("DROP TABLE team")
    }

    private func teamQuery(_ sql: String) throws -> QueryResult {
        try explainOnce(sql)
        var result = QueryResult()
        try transaction { result = try countAndSum(try statement(sql)) }
        return result
    }
}

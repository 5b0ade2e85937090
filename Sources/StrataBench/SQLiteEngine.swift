import CSQLite
import Foundation

/// What users pick instead: the workload on SQLite in WAL mode with prepared statements,
/// bound parameters and an index on `name`.
final class SQLiteEngine: BenchEngine {
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// The statements whose plan was printed.
    private var explained = Set<String>()
    private let nameBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 32)

    private static let insertSQL = "INSERT INTO person(id, name, age, score) VALUES (?1, ?2, ?3, ?4)"
    /// `NOT INDEXED` keeps the GLOB prefix from becoming an index range scan; GLOB is
    /// case-sensitive, so this is exactly BEGINSWITH.
    private static let countSQL = "SELECT count(*) FROM person NOT INDEXED WHERE age > \(Workload.queryMinAge) "
        + "AND name GLOB '\(Workload.queryPrefix)*'"
    /// How long a statement waits for a lock held by another connection before failing.
    private static let busyTimeoutMilliseconds: Int32 = 60_000
    private static let sortSQL = "SELECT id, name, age FROM person ORDER BY age, name LIMIT \(Workload.sortLimit)"

    init(directory: URL, durable: Bool) throws {
        let path = directory.appendingPathComponent("bench.sqlite").path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK else { throw error("open \(path)") }
        // Other processes writing the file make a writer wait for SQLite's lock, not fail.
        sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
        try execute("PRAGMA journal_mode=WAL")
        try execute(durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=OFF")
        try execute("CREATE TABLE IF NOT EXISTS person(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, score REAL)")
        try execute("CREATE INDEX IF NOT EXISTS person_name ON person(name)")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(db)
        nameBuffer.deallocate()
    }

    // MARK: Operations

    func insert(count n: Int) throws {
        let insert = try statement(Self.insertSQL)
        for batch in stride(from: 0, to: n, by: Workload.batchRows) {
            try transaction(writing: true) {
                for i in batch..<min(batch + Workload.batchRows, n) { try insertPerson(i, insert) }
            }
        }
    }

    func rowCount() throws -> Int { try queryInt("SELECT count(*) FROM person") }

    func fileSize() throws -> Int {
        try queryInt("PRAGMA page_count") * queryInt("PRAGMA page_size")
    }

    func countQuery() throws -> Int { try queryInt(Self.countSQL) }

    func pkLookup(_ ids: [Int]) throws -> Int {
        let select = try statement("SELECT name, age FROM person WHERE id = ?1")
        var sum = 0
        try transaction {
            for id in ids {
                sqlite3_bind_int64(select, 1, Int64(id))
                try step(select, expecting: SQLITE_ROW)
                let name = sqlite3_column_text(select, 0)!
                let length = Int(sqlite3_column_bytes(select, 0))
                sum += Int(sqlite3_column_int64(select, 1)) + length + Int(name[length - 1])
                sqlite3_reset(select)
            }
        }
        return sum
    }

    func indexLookup(_ ids: [Int]) throws -> Int {
        let select = try statement("SELECT age FROM person WHERE name = ?1")
        var sum = 0, found = 0
        try transaction {
            for k in ids {
                let length = writeName(k, into: nameBuffer)
                sqlite3_bind_text(select, 1, nameBuffer, Int32(length), sqliteStatic)
                try step(select, expecting: SQLITE_ROW)
                sum += Int(sqlite3_column_int64(select, 0))
                found += 1
                sqlite3_reset(select)
            }
        }
        return sum * 100_000 + found
    }

    func update(_ ids: [Int]) throws -> Int {
        let update = try statement("UPDATE person SET score = ?1 WHERE id = ?2")
        var updated = 0
        try transaction(writing: true) {
            for (j, id) in ids.enumerated() {
                sqlite3_bind_double(update, 1, Double(j))
                sqlite3_bind_int64(update, 2, Int64(id))
                try step(update, expecting: SQLITE_DONE)
                sqlite3_reset(update)
                updated += Int(sqlite3_changes(db))
            }
        }
        return updated
    }

    func scoreSum2() throws -> Int { try queryInt("SELECT sum(CAST(score * 2 AS INTEGER)) FROM person") }

    func enumerate() throws -> (rows: Int, sum: Int) {
        let select = try statement("SELECT age, name FROM person")
        var rows = 0, sum = 0
        try transaction {
            try forEachRow(select) {
                sum += Int(sqlite3_column_int64(select, 0)) + Int(sqlite3_column_bytes(select, 1))
                rows += 1
            }
        }
        return (rows, sum)
    }

    func sortLimit() throws -> Int {
        let select = try statement(Self.sortSQL)
        var top: [(id: Int, age: Int, nameLength: Int)] = []
        try transaction {
            try forEachRow(select) {
                _ = sqlite3_column_text(select, 1)
                top.append((Int(sqlite3_column_int64(select, 0)), Int(sqlite3_column_int64(select, 2)),
                            Int(sqlite3_column_bytes(select, 1))))
            }
        }
        return Workload.sortHash(top)
    }

    func inQuery(_ ids: [Int]) throws -> QueryResult {
        let placeholders = (1...max(ids.count, 1)).map { "?\($0)" }.joined(separator: ", ")
        let sql = "SELECT count(*), coalesce(sum(age), 0) FROM person WHERE id IN (\(placeholders))"
        let select = try statement(sql)
        try explainOnce(sql)
        for (j, id) in ids.enumerated() { sqlite3_bind_int64(select, Int32(j + 1), Int64(id)) }
        return try countAndSum(select)
    }

    func prefixQuery(_ prefix: String) throws -> QueryResult {
        // BEGINSWITH as a range of the name index: [prefix, prefix with its last byte + 1).
        let sql = "SELECT count(*), coalesce(sum(age), 0) FROM person WHERE name >= ?1 AND name < ?2"
        let select = try statement(sql)
        try explainOnce(sql)
        var upper = Array(prefix.utf8)
        upper[upper.count - 1] += 1
        sqlite3_bind_text(select, 1, prefix, -1, sqliteTransient)
        sqlite3_bind_text(select, 2, String(decoding: upper, as: UTF8.self), -1, sqliteTransient)
        return try countAndSum(select)
    }

    func rangeQuery(_ range: ClosedRange<Int>) throws -> QueryResult {
        let sql = "SELECT count(*), coalesce(sum(age), 0) FROM person WHERE id BETWEEN ?1 AND ?2"
        let select = try statement(sql)
        try explainOnce(sql)
        sqlite3_bind_int64(select, 1, Int64(range.lowerBound))
        sqlite3_bind_int64(select, 2, Int64(range.upperBound))
        return try countAndSum(select)
    }

    func smallCommits(from first: Int, count: Int) throws {
        let insert = try statement(Self.insertSQL)
        for j in 0..<count {
            try transaction(writing: true) { try insertPerson(first + j, insert) }
        }
    }

    func deleteAll() throws {
        // `WHERE 1` turns off the truncate optimization: rows and index entries go one by one.
        let delete = try statement("DELETE FROM person WHERE 1")
        try transaction(writing: true) {
            try step(delete, expecting: SQLITE_DONE)
            sqlite3_reset(delete)
        }
    }

    func entriesLeft() throws -> Int {
        try queryInt("SELECT count(*) FROM person NOT INDEXED")
            + queryInt("SELECT count(*) FROM person INDEXED BY person_name")
    }

    // MARK: Helpers

    private func insertPerson(_ i: Int, _ insert: OpaquePointer) throws {
        let length = writeName(i, into: nameBuffer)
        sqlite3_bind_int64(insert, 1, Int64(i))
        sqlite3_bind_text(insert, 2, nameBuffer, Int32(length), sqliteStatic)
        sqlite3_bind_int64(insert, 3, Int64(Workload.age(i)))
        sqlite3_bind_double(insert, 4, Workload.score(i))
        try step(insert, expecting: SQLITE_DONE)
        sqlite3_reset(insert)
    }

    /// Runs `body` between BEGIN and COMMIT (ROLLBACK if it throws). A write transaction
    /// takes the write lock at BEGIN (`IMMEDIATE`), where the busy timeout waits for other
    /// processes' writers; a deferred one could fail at its first write instead.
    func transaction(writing: Bool = false, _ body: () throws -> Void) throws {
        let begin = try statement(writing ? "BEGIN IMMEDIATE" : "BEGIN"), commit = try statement("COMMIT")
        try step(begin, expecting: SQLITE_DONE)
        sqlite3_reset(begin)
        do {
            try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        try step(commit, expecting: SQLITE_DONE)
        sqlite3_reset(commit)
    }

    /// The statement for `sql`, prepared once and kept for the engine's lifetime.
    func statement(_ sql: String) throws -> OpaquePointer {
        if let prepared = statements[sql] { return prepared }
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK,
              let prepared
        else { throw error("prepare \(sql)") }
        statements[sql] = prepared
        return prepared
    }

    func step(_ statement: OpaquePointer, expecting expected: Int32) throws {
        let rc = sqlite3_step(statement)
        if rc != expected {
            sqlite3_reset(statement)
            throw error(String(cString: sqlite3_sql(statement)))
        }
    }

    /// Steps `statement` to the end, calling `body` on each row, then resets it.
    func forEachRow(_ statement: OpaquePointer, _ body: () -> Void) throws {
        var rc = sqlite3_step(statement)
        while rc == SQLITE_ROW {
            body()
            rc = sqlite3_step(statement)
        }
        sqlite3_reset(statement)
        if rc != SQLITE_DONE { throw error(String(cString: sqlite3_sql(statement))) }
    }

    /// Steps a `SELECT count(*), sum(...)` statement once, then resets it.
    func countAndSum(_ select: OpaquePointer) throws -> QueryResult {
        try step(select, expecting: SQLITE_ROW)
        defer { sqlite3_reset(select) }
        return QueryResult(count: Int(sqlite3_column_int64(select, 0)), sum: Int(sqlite3_column_int64(select, 1)))
    }

    /// Prints SQLite's plan for `sql` on stderr, the first time only (to show it uses an index).
    func explainOnce(_ sql: String) throws {
        guard explained.insert(sql).inserted else { return }
        var plan: OpaquePointer?
        guard sqlite3_prepare_v2(db, "EXPLAIN QUERY PLAN " + sql, -1, &plan, nil) == SQLITE_OK else {
            throw error("explain \(sql)")
        }
        defer { sqlite3_finalize(plan) }
        var details: [String] = []
        while sqlite3_step(plan) == SQLITE_ROW {
            details.append(String(cString: sqlite3_column_text(plan, 3)))
        }
        let shown = sql.count > 100 ? String(sql.prefix(100)) + "…" : sql
        printToStandardError("# sqlite plan of \(shown): \(details.joined(separator: "; "))")
    }

    private func queryInt(_ sql: String) throws -> Int {
        let select = try statement(sql)
        try step(select, expecting: SQLITE_ROW)
        defer { sqlite3_reset(select) }
        return Int(sqlite3_column_int64(select, 0))
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
    }

    private func error(_ context: String) -> BenchError {
        BenchError("sqlite: \(context): \(String(cString: sqlite3_errmsg(db)))")
    }
}

/// `SQLITE_STATIC`: SQLite uses the bound bytes in place, without copying them.
private let sqliteStatic = unsafeBitCast(0, to: sqlite3_destructor_type.self)
/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

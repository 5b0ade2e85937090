import Foundation
import StrataValues

/// The log tables in PostgreSQL (docs/REPLICATION.md, "The log"): `strata_origin`, one row
/// per origin file, and `strata_log`, one row per pushed commit, unique by origin and version.
struct ReplicationLog {
    let connection: PostgresConnection

    /// One commit as it goes into `strata_log`.
    struct Row {
        var version: UInt64
        /// Commit time, seconds since 1970.
        var time: Double
        var pid: Int32
        var process: String
        /// The history entry, in its unsealed record layout (docs/FILE-FORMAT.md, "History").
        var entry: [UInt8]
    }

    /// Creates the tables when they are absent and records `origin` (the file at `path`).
    func prepare(origin: String, path: String) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS strata_origin (
                origin text PRIMARY KEY, file text NOT NULL, created timestamptz NOT NULL DEFAULT now())
            """)
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS strata_log (
                origin text NOT NULL REFERENCES strata_origin (origin), version bigint NOT NULL,
                time timestamptz NOT NULL, pid int NOT NULL, process text NOT NULL, entry bytea NOT NULL,
                PRIMARY KEY (origin, version))
            """)
        try connection.execute("INSERT INTO strata_origin (origin, file) VALUES ($1, $2) ON CONFLICT (origin) DO NOTHING",
                               [.text(origin), .text(path)])
    }

    /// Whether the log has a row of `origin` in `strata_origin` (false when the tables do not
    /// exist yet).
    func knows(origin: String) throws -> Bool {
        let exists = try connection.execute("SELECT to_regclass('strata_origin') IS NOT NULL").scalar
        guard exists == "t" else { return false }
        return try connection.execute("SELECT 1 FROM strata_origin WHERE origin = $1", [.text(origin)]).scalar != nil
    }

    /// Up to `limit` rows of `origin` after `version`, oldest first: each version and its entry.
    func rows(of origin: String, after version: UInt64, limit: Int) throws -> [(version: UInt64, entry: [UInt8])] {
        let result = try connection.execute(
            "SELECT version, entry FROM strata_log WHERE origin = $1 AND version > $2::bigint ORDER BY version LIMIT $3::int",
            [.text(origin), .text(String(version)), .text(String(limit))])
        return try result.rows.map { row in
            guard let text = row[0], let v = UInt64(text), let entry = row[1].flatMap(Self.bytea) else {
                throw ReplicationError.unreadableEntry(origin: origin, version: UInt64(row[0] ?? "") ?? 0)
            }
            return (v, entry)
        }
    }

    /// The bytes of a `bytea` in PostgreSQL's hex text form (`\x0a1b…`); nil for other text.
    static func bytea(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2 - 1)
        var i = 2
        while i < utf8.count {
            guard let high = TextEscapes.hexDigit(utf8[i]), let low = TextEscapes.hexDigit(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        return bytes
    }

    /// The newest version of `origin` the log holds, 0 when it holds none.
    func lastVersion(of origin: String) throws -> UInt64 {
        guard let text = try connection.execute("SELECT max(version) FROM strata_log WHERE origin = $1", [.text(origin)]).scalar else { return 0 }
        guard let version = UInt64(text) else { throw ReplicationError.unreadableLog(origin: origin, lastVersion: text) }
        return version
    }

    /// Appends `rows` (consecutive versions, oldest first) for `origin` in one transaction,
    /// leaving out those another pusher appended first. The origin's row is locked first, so
    /// pushers of one origin take turns. Returns the rows appended; throws
    /// `ReplicationError.logShrank` when the first of them would not follow the log's last
    /// version (versions were removed from the log since it was read).
    func append(_ rows: [Row], origin: String) throws -> [Row] {
        try connection.transaction {
            try connection.execute("SELECT origin FROM strata_origin WHERE origin = $1 FOR UPDATE", [.text(origin)])
            let last = try lastVersion(of: origin)
            let fresh = rows.filter { $0.version > last }
            guard let first = fresh.first else { return [] }
            guard first.version == last + 1 else { throw ReplicationError.logShrank(origin: origin, logHolds: last, expectedAtLeast: first.version - 1) }
            var sql = "INSERT INTO strata_log (origin, version, time, pid, process, entry) VALUES "
            var parameters: [PostgresParameter] = [.text(origin)]
            for (i, row) in fresh.enumerated() {
                let n = parameters.count
                sql += (i == 0 ? "" : ", ") + "($1, $\(n + 1)::bigint, to_timestamp($\(n + 2)::float8), $\(n + 3)::int, $\(n + 4), $\(n + 5))"
                parameters += [.text(String(row.version)), .text(String(row.time)), .text(String(row.pid)), .text(row.process), .bytes(row.entry)]
            }
            try connection.execute(sql, parameters)
            return fresh
        }
    }
}

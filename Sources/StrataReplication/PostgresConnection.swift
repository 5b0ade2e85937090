import CLibPQ
import Foundation

/// One connection to a PostgreSQL server, through libpq. Not shared between threads: use it
/// from one thread at a time.
public final class PostgresConnection {
    private let connection: OpaquePointer

    /// Connects with `conninfo` (libpq's keyword string, e.g. `host=/tmp/pg dbname=app`, or a
    /// `postgresql://` URI). Throws `PostgresError` with libpq's message when the string is
    /// malformed or the server cannot be reached or refuses.
    public init(_ conninfo: String) throws {
        guard let connection = PQconnectdb(conninfo) else {
            throw PostgresError("libpq could not allocate a connection", isConnectionFailure: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(message, isConnectionFailure: true)
        }
        // The server's notices (e.g. "relation already exists, skipping") are not failures.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    /// Whether the connection is up (as far as libpq last saw).
    public var isConnected: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Reconnects with the same settings after the connection was lost; throws libpq's
    /// message when the server still cannot be reached.
    public func reconnect() throws {
        PQreset(connection)
        guard isConnected else {
            throw PostgresError(String(cString: PQerrorMessage(connection)), isConnectionFailure: true)
        }
    }

    /// Runs one statement with `parameters` (`$1`, `$2`, …) and returns its rows (none for a
    /// statement that returns none). Throws `PostgresError` with the server's message when it
    /// refuses the statement or the connection is lost.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresParameter] = []) throws -> PostgresRows {
        let buffers = parameters.map { $0.wireBytes.map(Self.copy) }
        defer { buffers.forEach { $0?.deallocate() } }
        let values: [UnsafePointer<CChar>?] = buffers.map { $0.map { UnsafePointer($0) } }
        let lengths = parameters.map { Int32($0.wireBytes?.count ?? 0) }
        let formats = parameters.map(\.format)
        let result = PQexecParams(connection, sql, Int32(parameters.count), nil, values, lengths, formats, 0)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return Self.rows(of: result)
        default:
            let message = result.map { String(cString: PQresultErrorMessage($0)) } ?? ""
            let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
            // A lost connection is reported by libpq itself (no SQLSTATE), or by a server that
            // is shutting down (class 08, connection exception; class 57P, operator intervention).
            let lost = !isConnected || state == nil || state!.hasPrefix("08") || state!.hasPrefix("57P")
            throw PostgresError(message.isEmpty ? String(cString: PQerrorMessage(connection)) : message,
                                sqlState: state, isConnectionFailure: lost)
        }
    }

    /// Runs `body` in one PostgreSQL transaction: committed when it returns, rolled back when
    /// it (or the commit) throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isConnected { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// A copy of `bytes` that libpq can read until it is deallocated.
    private static func copy(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count) }
        }
        return buffer
    }

    /// The rows of a successful result, as text.
    private static func rows(of result: OpaquePointer?) -> PostgresRows {
        guard let result else { return PostgresRows(columns: [], rows: []) }
        let columnCount = PQnfields(result), rowCount = PQntuples(result)
        let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        let rows = (0..<rowCount).map { row in
            (0..<columnCount).map { column -> String? in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
        return PostgresRows(columns: columns, rows: rows)
    }
}

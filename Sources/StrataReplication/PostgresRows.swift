/// The rows a statement returned, in PostgreSQL's text form: `rows[i][j]` is column `j` of
/// row `i`, nil for NULL.
public struct PostgresRows: Sendable {
    /// The column names, in order.
    public let columns: [String]
    /// The values, row by row.
    public let rows: [[String?]]

    /// The first column of the first row, nil when there is no row or it is NULL.
    public var scalar: String? { rows.first?.first ?? nil }
}

import StrataStorage

/// The rows of a query's matches, kept as the walk that found them reads them, while they
/// are few (`limit`): a plain file's row lies in the memory map and stays valid for the
/// transaction, so an aggregate after a count (`count` then `sum(ofProperty:)`) reads them
/// without another walk. An encrypted file's rows are decrypted into a buffer each walk
/// reuses, so none are kept there.
package struct KeptRows {
    /// The most rows kept; past it, none are.
    static let limit = 4_096
    /// The rows, in the order of the keys found; nil when not kept.
    package private(set) var rows: [RowView]?

    /// Keeps rows read through `txn` if it reads a plain file.
    package init(_ txn: StorageTransaction) {
        rows = txn.crypto == nil ? [] : nil
    }

    mutating func keep(_ row: RowView) {
        if rows?.count == Self.limit { rows = nil }
        rows?.append(row)
    }

    /// Keeps none: the matches were found without reading their rows.
    mutating func drop() { rows = nil }
}

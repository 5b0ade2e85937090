import StrataStorage

/// The rows of a query's matches, kept as the walk that found them reads them, while they
/// are few (`limit`): a plain file's row lies in the memory map and stays valid for the
/// transaction, so an aggregate after a count (`count` then `sum(ofProperty:)`) reads them
/// without another walk. An encrypted file's rows are decrypted into a buffer each walk
/// reuses, so none are kept there.
package struct KeptRows {
    /// The rows of the matches, in the order of their keys.
    package enum Rows {
        /// Read and verified.
        case views([RowView])
        /// As stored, found by a walk that read no row: verified when read
        /// (`RowStore.forEach(_:keys:stored:_:)`).
        case stored([UnsafeRawBufferPointer])
    }

    /// The most rows kept; past it, none are.
    static let limit = 4_096
    /// Whether rows are still being kept.
    private(set) var isKeeping: Bool
    private var views: [RowView] = []
    private var stored: [UnsafeRawBufferPointer]?

    /// The rows; nil when not kept.
    package var rows: Rows? {
        guard isKeeping else { return nil }
        return stored.map(Rows.stored) ?? .views(views)
    }

    /// Keeps rows read through `txn` if it reads a plain file.
    package init(_ txn: StorageTransaction) {
        isKeeping = txn.crypto == nil
    }

    mutating func keep(_ row: RowView) {
        guard isKeeping else { return }
        guard views.count < Self.limit else { return drop() }
        views.append(row)
    }

    /// Keeps the matches' rows as stored (all of them, or none past `limit`).
    mutating func keep(stored: [UnsafeRawBufferPointer]) {
        guard isKeeping, stored.count <= Self.limit else { return drop() }
        self.stored = stored
    }

    /// Keeps none: the matches were found without reading their rows.
    mutating func drop() {
        isKeeping = false
        views = []
        stored = nil
    }
}

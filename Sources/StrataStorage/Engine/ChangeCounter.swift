/// Counts the events after which a row view held from a transaction may be stale: its owner
/// bumps it when it moves to another transaction, and the transaction bumps it on each write
/// (`StorageTransaction.changeCounter`), because LMDB may move pages on a write.
///
/// A raw word rather than a property, so that a reader on a hot path (every managed
/// property read compares it) needs no call, reference count or exclusivity check.
@usableFromInline
package final class ChangeCounter {
    /// The count. Read and bumped by one thread at a time (the owner's).
    @usableFromInline package let word: UnsafeMutablePointer<UInt64>

    package init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    deinit { word.deallocate() }

    /// Counts one more event.
    @inlinable @inline(__always)
    package func bump() { word.pointee &+= 1 }
}

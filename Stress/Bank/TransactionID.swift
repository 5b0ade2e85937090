/// A bank transaction's unique id: the writer's slot, which start of that slot made it (a
/// killed writer is started again with the next number) and its sequence number there.
enum TransactionID {
    /// The id of transaction `sequence` of start `incarnation` of writer `slot`.
    static func make(slot: Int, incarnation: Int, sequence: Int) -> Int {
        precondition(slot < 1 << 14 && incarnation < 1 << 16 && sequence < 1 << 32, "transaction id out of range")
        return slot << 48 | incarnation << 32 | sequence
    }

    /// `writer 2 (start 3) #17`, for reports.
    static func describe(_ id: Int) -> String {
        "writer \(id >> 48) (start \((id >> 32) & 0xFFFF)) #\(id & 0xFFFF_FFFF)"
    }
}

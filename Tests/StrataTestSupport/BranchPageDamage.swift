import Foundation

/// Damage that hides rows without breaking a page: a branch page that lost its last child.
public enum BranchPageDamage {
    /// Drops the last child of every branch page of the file at `path` (LMDB's page header:
    /// flags at byte 10, `lower` at 12, one 2-byte node offset per child from byte 16), as a
    /// damaged page would: the rows under that child can no longer be reached, and the
    /// table's count still includes them. Returns the number of pages changed.
    public static func dropLastChildOfEachBranchPage(path: String, pageSize: Int = 4096) throws -> Int {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var changed = 0
        for page in stride(from: 2 * pageSize, to: bytes.count, by: pageSize) {
            let flags = UInt16(bytes[page + 10]) | UInt16(bytes[page + 11]) << 8
            let lower = Int(bytes[page + 12]) | Int(bytes[page + 13]) << 8
            guard flags == 1, lower >= 16 + 2 * 2, lower <= pageSize else { continue }
            let dropped = lower - 2
            bytes[page + 12] = UInt8(dropped & 0xFF)
            bytes[page + 13] = UInt8(dropped >> 8)
            changed += 1
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        return changed
    }
}

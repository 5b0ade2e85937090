import Foundation
import StrataStorage

/// One way of damaging a copy of a database file, as disks, copies and people do: the kind
/// (for the corpus summary) and the change to the file's bytes.
struct FileDamage {
    let kind: String
    let apply: (inout Data) -> Void

    /// LMDB's page size in Strata files.
    static let pageSize = 4096
    /// Where an LMDB meta page keeps its last used page number and its transaction id.
    private static let lastPageOffset = 136, txnIDOffset = 144

    /// The damages of the corpus for `file`, drawn from `random`: single bit flips, runs of
    /// random bytes, garbled, zeroed, swapped and copied pages among the pages in use, truncations,
    /// bit flips in the meta pages, and meta pages damaged so that LMDB opens the previous
    /// commit.
    static func corpus(for file: Data, _ random: inout SplitMix64) -> [FileDamage] {
        let newer = newerMeta(of: file)
        let pages = pagesInUse(of: file)
        func page() -> Int { Int.random(in: pages, using: &random) }
        func byte(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
        var damages: [FileDamage] = []
        func add(_ count: Int, _ kind: String, _ make: () -> (inout Data) -> Void) {
            for _ in 0..<count { damages.append(FileDamage(kind: kind, apply: make())) }
        }
        add(50, "bit flip in a page in use") {
            let offset = page() * pageSize + byte(0..<pageSize), bit = UInt8(1) << UInt8(byte(0..<8))
            return { $0[offset] ^= bit }
        }
        add(20, "16 random bytes in a page in use") {
            let offset = page() * pageSize + byte(0..<(pageSize - 16))
            let bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return { $0.replaceSubrange(offset..<(offset + 16), with: bytes) }
        }
        add(20, "garbled page") {
            let offset = page() * pageSize
            let bytes = (0..<pageSize).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return { $0.replaceSubrange(offset..<(offset + pageSize), with: bytes) }
        }
        add(20, "zeroed page") {
            let offset = page() * pageSize
            return { $0.replaceSubrange(offset..<(offset + pageSize), with: Data(count: pageSize)) }
        }
        add(20, "two pages swapped") {
            let a = page() * pageSize, b = page() * pageSize
            return { data in
                let first = data.subdata(in: a..<(a + pageSize))
                data.replaceSubrange(a..<(a + pageSize), with: data.subdata(in: b..<(b + pageSize)))
                data.replaceSubrange(b..<(b + pageSize), with: first)
            }
        }
        add(20, "page copied over another") {
            // A misdirected write: often a page of the same table, freed by a later commit.
            let from = page() * pageSize, to = page() * pageSize
            return { data in data.replaceSubrange(to..<(to + pageSize), with: data.subdata(in: from..<(from + pageSize))) }
        }
        add(15, "truncated") {
            let length = random.next() & 1 == 0 ? byte(0..<file.count) : page() * pageSize
            return { $0 = $0.prefix(length) }
        }
        add(15, "bit flip in a meta page") {
            let offset = byte(0..<2) * pageSize + byte(0..<(txnIDOffset + 8)), bit = UInt8(1) << UInt8(byte(0..<8))
            return { $0[offset] ^= bit }
        }
        let older = 1 - newer
        damages.append(FileDamage(kind: "older meta page's txnid raised above the newer's") { data in
            setWord(&data, at: older * pageSize + txnIDOffset, txnID(data, meta: newer) + 1)
        })
        damages.append(FileDamage(kind: "newer meta page zeroed") { data in
            data.replaceSubrange((newer * pageSize)..<((newer + 1) * pageSize), with: Data(count: pageSize))
        })
        damages.append(FileDamage(kind: "older meta page zeroed") { data in
            data.replaceSubrange((older * pageSize)..<((older + 1) * pageSize), with: Data(count: pageSize))
        })
        return damages
    }

    /// The numbers of the pages of `file` in use after its meta pages (0 and 1), by its newer
    /// meta page.
    static func pagesInUse(of file: Data) -> ClosedRange<Int> {
        let lastPage = Int(word(file, at: newerMeta(of: file) * pageSize + lastPageOffset))
        return 2...max(2, min(lastPage, file.count / pageSize - 1))
    }

    /// Which meta page (0 or 1) has the higher transaction id: the one LMDB opens.
    private static func newerMeta(of file: Data) -> Int { txnID(file, meta: 0) > txnID(file, meta: 1) ? 0 : 1 }

    private static func txnID(_ data: Data, meta: Int) -> UInt64 { word(data, at: meta * pageSize + txnIDOffset) }

    private static func word(_ data: Data, at offset: Int) -> UInt64 {
        data.subdata(in: offset..<(offset + 8)).withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    }

    private static func setWord(_ data: inout Data, at offset: Int, _ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { data.replaceSubrange(offset..<(offset + 8), with: $0) }
    }
}

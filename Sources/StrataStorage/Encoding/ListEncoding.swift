/// How a list is laid out in its property's database (docs/FILE-FORMAT.md, "Lists"). Changing
/// it breaks the file format.
///
///   key owner(8 BE)                → directory := [81 00] total:varint nextChunk:varint count:varint
///                                                  (entryId:varint elements:varint)*
///   key owner(8 BE) chunkId(4 BE)  → chunk     := element*
///   key owner(8 BE) nodeId(4 BE)   → node      := count:varint (chunkId:varint elements:varint)*
///   element := 0 (null) | (length + 1):varint bytes (ValueCodec's encoding)
///
/// A chunk holds up to `chunkCapacity` elements and `chunkBytes` bytes (or one larger
/// element), so an insert or remove rewrites one chunk and the directory, not the list. A flat
/// directory (no `81 00`) lists the chunks; a nested one, the nodes, each listing up to
/// `nodeCapacity` chunks, so that a write to a long list rewrites one chunk, one node and a
/// directory of one entry per node. Chunks and nodes take their ids from `nextChunk`.
package enum ListEncoding {
    /// The most elements in one chunk.
    static let chunkCapacity = 256
    /// The bytes at which a chunk is full (a single larger element gets a chunk of its own):
    /// below LMDB's largest in-page value on 4 KiB pages (about 2,040 bytes), so that a chunk
    /// rewrite changes one page rather than allocating overflow pages.
    package static let chunkBytes = 1900
    /// The most chunks a flat directory lists before it nests, and a node lists before it
    /// splits in two: about 1.3 KB of entries, in one LMDB page.
    static let nodeCapacity = 256
    /// What starts a nested directory: a two-byte varint 1, which a flat directory (starting
    /// with its total as a minimal varint) never starts with.
    static let nestedTag: [UInt8] = [0x81, 0x00]

    /// An entry of a directory or node: a chunk (or node) and how many elements it holds.
    typealias Entry = (id: UInt32, count: Int)

    /// A list's directory: its size, the next chunk or node id, and its entries in list order:
    /// its chunks, or when `isNested` its nodes.
    struct Directory: Equatable {
        var total = 0
        var nextChunk: UInt32 = 0
        /// Whether the entries are nodes (each listing chunks) rather than chunks.
        var isNested = false
        var entries: [Entry] = []

        static func == (a: Directory, b: Directory) -> Bool {
            a.total == b.total && a.nextChunk == b.nextChunk && a.isNested == b.isNested && a.entries.elementsEqual(b.entries) { $0 == $1 }
        }

        func encoded() -> [UInt8] {
            var out = isNested ? ListEncoding.nestedTag : []
            Varint.append(UInt64(total), to: &out)
            Varint.append(UInt64(nextChunk), to: &out)
            ListEncoding.append(entries, to: &out)
            return out
        }

        init() {}

        init?(_ bytes: UnsafeRawBufferPointer) {
            var o = 0
            isNested = ListEncoding.skipNestedTag(bytes, at: &o)
            guard let total = Varint.read(bytes, at: &o), let next = Varint.read(bytes, at: &o),
                  let entries = ListEncoding.entries(bytes, at: &o, totalling: Int(total)) else { return nil }
            self.total = Int(total)
            nextChunk = UInt32(truncatingIfNeeded: next)
            self.entries = entries
        }

        /// The size of the list an encoded directory describes; nil if it is damaged.
        static func total(in bytes: UnsafeRawBufferPointer) -> Int? {
            var o = 0
            _ = ListEncoding.skipNestedTag(bytes, at: &o)
            return Varint.read(bytes, at: &o).map { Int($0) }
        }

        /// Reads only as much of an encoded directory as it takes to find position `index`:
        /// the list's size, the entry holding the position (a chunk, or a node when nested)
        /// and the offset in it (for an index out of bounds, the size and entry 0). Nil if the
        /// directory is damaged.
        static func find(_ index: Int, in bytes: UnsafeRawBufferPointer) -> (total: Int, isNested: Bool, entry: UInt32, offset: Int)? {
            var o = 0
            let nested = ListEncoding.skipNestedTag(bytes, at: &o)
            guard let total = Varint.read(bytes, at: &o), Varint.read(bytes, at: &o) != nil else { return nil }
            guard index >= 0, index < Int(total) else { return (Int(total), nested, 0, 0) }
            guard let (entry, offset) = ListEncoding.find(index, inEntriesOf: bytes, at: &o) else { return nil }
            return (Int(total), nested, entry, offset)
        }
    }

    /// One node of a nested directory: the chunks of one run of the list, in order.
    struct Node {
        var chunks: [Entry]

        init(_ chunks: [Entry]) { self.chunks = chunks }

        /// Decodes a node whose chunks hold `count` elements; nil if it is damaged.
        init?(_ bytes: UnsafeRawBufferPointer, count: Int) {
            var o = 0
            guard let chunks = ListEncoding.entries(bytes, at: &o, totalling: count), o == bytes.count else { return nil }
            self.chunks = chunks
        }

        func encoded() -> [UInt8] {
            var out: [UInt8] = []
            ListEncoding.append(chunks, to: &out)
            return out
        }

        /// The chunk of an encoded node holding its element `index`, and the offset in it.
        static func find(_ index: Int, in bytes: UnsafeRawBufferPointer) -> (chunk: UInt32, offset: Int)? {
            var o = 0
            return ListEncoding.find(index, inEntriesOf: bytes, at: &o)
        }
    }

    /// The entry holding position `index` of `entries` and the offset in it. For `index` equal
    /// to their total (an append), the last entry and its end.
    static func locate(_ index: Int, in entries: [Entry]) -> (entry: Int, offset: Int)? {
        var start = 0
        for (i, e) in entries.enumerated() {
            if index < start + e.count || (index == start + e.count && i == entries.count - 1) {
                return (i, index - start)
            }
            start += e.count
        }
        return nil
    }

    /// Skips a nested directory's tag at `offset`; whether there was one.
    private static func skipNestedTag(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Bool {
        guard bytes.count >= offset + 2, bytes[offset] == nestedTag[0], bytes[offset + 1] == nestedTag[1] else { return false }
        offset += 2
        return true
    }

    /// Appends `count (id elements)*`.
    private static func append(_ entries: [Entry], to out: inout [UInt8]) {
        Varint.append(UInt64(entries.count), to: &out)
        for e in entries {
            Varint.append(UInt64(e.id), to: &out)
            Varint.append(UInt64(e.count), to: &out)
        }
    }

    /// Reads `count (id elements)*` at `offset`: nil if damaged or their elements do not add
    /// up to `total`.
    private static func entries(_ bytes: UnsafeRawBufferPointer, at o: inout Int, totalling total: Int) -> [Entry]? {
        guard let n = Varint.read(bytes, at: &o), n <= bytes.count else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(n))
        var sum = 0
        for _ in 0..<n {
            guard let id = Varint.read(bytes, at: &o), let count = Varint.read(bytes, at: &o), count <= UInt64(Int.max - sum) else { return nil }
            entries.append((UInt32(truncatingIfNeeded: id), Int(count)))
            sum += Int(count)
        }
        return sum == total ? entries : nil
    }

    /// Reads `count (id elements)*` at `offset` up to the entry holding position `index`.
    private static func find(_ index: Int, inEntriesOf bytes: UnsafeRawBufferPointer, at o: inout Int) -> (UInt32, Int)? {
        guard let n = Varint.read(bytes, at: &o) else { return nil }
        var start = 0
        for _ in 0..<n {
            guard let id = Varint.read(bytes, at: &o), let count = Varint.read(bytes, at: &o) else { return nil }
            if index < start + Int(count) { return (UInt32(truncatingIfNeeded: id), index - start) }
            start += Int(count)
        }
        return nil
    }

    /// The element bytes of one value (null as nil) of a list of `type`.
    static func element(_ value: Value, of type: PropertyType) -> [UInt8]? {
        if case .null = value { return nil }
        var out: [UInt8] = []
        ValueCodec.encode(value, mixed: type == .mixed, into: &out)
        return out
    }

    /// Encodes a chunk.
    static func chunk(_ elements: ArraySlice<[UInt8]?>) -> [UInt8] {
        var out: [UInt8] = []
        for e in elements { append(element: e, to: &out) }
        return out
    }

    /// Appends one element's encoding to a chunk's bytes.
    static func append(element: [UInt8]?, to out: inout [UInt8]) {
        guard let element else { return out.append(0) }
        Varint.append(UInt64(element.count + 1), to: &out)
        out.append(contentsOf: element)
    }

    /// Walks an encoded chunk without decoding it: its element count, and the byte offsets at
    /// which elements `first` and `second` (`first <= second`) start, or the chunk's end for
    /// the element past its last. Nil if the chunk is damaged or has fewer elements.
    static func boundaries(_ first: Int, _ second: Int, in bytes: UnsafeRawBufferPointer) -> (count: Int, first: Int, second: Int)? {
        var o = 0, i = 0
        var a = first == 0 ? 0 : -1, b = second == 0 ? 0 : -1
        while o < bytes.count {
            guard let n = Varint.read(bytes, at: &o), n == 0 || n - 1 <= bytes.count - o else { return nil }
            o += n == 0 ? 0 : Int(n - 1)
            i += 1
            if i == first { a = o }
            if i == second { b = o }
        }
        guard a >= 0, b >= 0 else { return nil }
        return (i, a, b)
    }

    /// Decodes a chunk's elements; nil if it is damaged.
    static func elements(_ bytes: UnsafeRawBufferPointer) -> [[UInt8]?]? {
        var result: [[UInt8]?] = []
        let whole = forEachElement(in: bytes) { result.append($0.map(Array.init)) }
        return whole ? result : nil
    }

    /// Calls `body` with the bytes of each element of a chunk in order (nil for null), in
    /// place; false if the chunk is damaged (after the elements before the damage).
    @discardableResult
    static func forEachElement(in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) throws -> Void) rethrows -> Bool {
        var o = 0
        while o < bytes.count {
            guard let n = Varint.read(bytes, at: &o) else { return false }
            if n == 0 { try body(nil); continue }
            guard n - 1 <= bytes.count - o else { return false }
            try body(UnsafeRawBufferPointer(rebasing: bytes[o..<(o + Int(n - 1))]))
            o += Int(n - 1)
        }
        return true
    }

    /// The bytes of element `offset` of an encoded chunk (nil inside for null), without
    /// decoding the others; nil if the chunk is damaged or shorter.
    static func element(at offset: Int, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer?? {
        var o = 0
        for i in 0...offset {
            guard let n = Varint.read(bytes, at: &o), n == 0 || n - 1 <= bytes.count - o else { return nil }
            let length = n == 0 ? 0 : Int(n - 1)
            if i == offset { return n == 0 ? .some(nil) : UnsafeRawBufferPointer(rebasing: bytes[o..<(o + length)]) }
            o += length
        }
        return nil
    }

    /// Splits elements into chunk-sized runs.
    static func runs(_ elements: [[UInt8]?]) -> [ArraySlice<[UInt8]?>] {
        var result: [ArraySlice<[UInt8]?>] = []
        var start = 0, bytes = 0
        for (i, e) in elements.enumerated() {
            let size = (e?.count ?? 0) + 1
            if i > start && (i - start == chunkCapacity || bytes + size > chunkBytes) {
                result.append(elements[start..<i])
                start = i
                bytes = 0
            }
            bytes += size
        }
        if start < elements.count { result.append(elements[start...]) }
        return result
    }
}

/// How a list is laid out in its property's database (docs/FILE-FORMAT.md, "Lists"). Changing
/// it breaks the file format.
///
///   key owner(8 BE)                → directory := total:varint nextChunk:varint count:varint
///                                                  (chunkId:varint elements:varint)*
///   key owner(8 BE) chunkId(4 BE)  → chunk     := element*
///   element := 0 (null) | (length + 1):varint bytes (ValueCodec's encoding)
///
/// A chunk holds up to `chunkCapacity` elements and `chunkBytes` bytes (or one larger
/// element), so an insert or remove rewrites one chunk and the directory, not the list.
package enum ListEncoding {
    /// The most elements in one chunk.
    static let chunkCapacity = 256
    /// The bytes at which a chunk is full (a single larger element gets a chunk of its own):
    /// below LMDB's largest in-page value on 4 KiB pages (about 2,040 bytes), so that a chunk
    /// rewrite changes one page rather than allocating overflow pages.
    package static let chunkBytes = 1900

    /// A list's directory: its size and its chunks in order.
    struct Directory: Equatable {
        var total = 0
        var nextChunk: UInt32 = 0
        var chunks: [(id: UInt32, count: Int)] = []

        static func == (a: Directory, b: Directory) -> Bool {
            a.total == b.total && a.nextChunk == b.nextChunk && a.chunks.elementsEqual(b.chunks) { $0 == $1 }
        }

        func encoded() -> [UInt8] {
            var out: [UInt8] = []
            Varint.append(UInt64(total), to: &out)
            Varint.append(UInt64(nextChunk), to: &out)
            Varint.append(UInt64(chunks.count), to: &out)
            for c in chunks {
                Varint.append(UInt64(c.id), to: &out)
                Varint.append(UInt64(c.count), to: &out)
            }
            return out
        }

        init() {}

        init?(_ bytes: UnsafeRawBufferPointer) {
            var o = 0
            guard let total = Varint.read(bytes, at: &o), let next = Varint.read(bytes, at: &o),
                  let n = Varint.read(bytes, at: &o), n <= bytes.count else { return nil }
            self.total = Int(total)
            nextChunk = UInt32(truncatingIfNeeded: next)
            for _ in 0..<n {
                guard let id = Varint.read(bytes, at: &o), let count = Varint.read(bytes, at: &o) else { return nil }
                chunks.append((UInt32(truncatingIfNeeded: id), Int(count)))
            }
            guard chunks.reduce(0, { $0 + $1.count }) == self.total else { return nil }
        }

        /// Reads only as much of an encoded directory as it takes to find position `index`:
        /// the list's size, the chunk holding the position and the offset in it (for an index
        /// out of bounds, the size and chunk 0). Nil if the directory is damaged.
        static func find(_ index: Int, in bytes: UnsafeRawBufferPointer) -> (total: Int, chunk: UInt32, offset: Int)? {
            var o = 0
            guard let total = Varint.read(bytes, at: &o), Varint.read(bytes, at: &o) != nil,
                  let n = Varint.read(bytes, at: &o) else { return nil }
            guard index >= 0, index < Int(total) else { return (Int(total), 0, 0) }
            var start = 0
            for _ in 0..<n {
                guard let id = Varint.read(bytes, at: &o), let count = Varint.read(bytes, at: &o) else { return nil }
                if index < start + Int(count) { return (Int(total), UInt32(truncatingIfNeeded: id), index - start) }
                start += Int(count)
            }
            return nil
        }

        /// The chunk holding position `index` and the position's offset in it. For
        /// `index == total` (an append), the last chunk and its end.
        func locate(_ index: Int) -> (chunk: Int, offset: Int)? {
            var start = 0
            for (i, c) in chunks.enumerated() {
                if index < start + c.count || (index == start + c.count && i == chunks.count - 1) {
                    return (i, index - start)
                }
                start += c.count
            }
            return nil
        }
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
        for e in elements {
            if let e {
                Varint.append(UInt64(e.count + 1), to: &out)
                out.append(contentsOf: e)
            } else {
                out.append(0)
            }
        }
        return out
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

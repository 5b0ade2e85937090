import CLMDB
import CStrataFaultGuard
import Glibc

/// What a transaction knows of where the keys and values LMDB hands it may lie, checked
/// before any byte of them is read: a damaged page (a node's size field, an overflow page's
/// count) could otherwise send a read past the end of the file into the map, where the
/// process dies of SIGBUS. A failed check is `MDB_CORRUPTED`, as LMDB reports damage it finds.
///
/// Every page committed before the transaction began lies within the file's pages in use
/// then, and, when the file's page size is the system's, the map is page-aligned, so a
/// value's offset in its page is its address modulo the page size: a value inside a leaf
/// page ends within that page, and a value on overflow pages (which starts right after the
/// first one's header) ends within the pages that header counts. The page a value lies in
/// is also the page its header names (LMDB 0.9 does not check): a page moved or copied over
/// another one, such as an older version of the same table's page, holds records whose
/// checksums still match.
///
/// Where the map lies is known (`MapAddress`), bytes outside it are not checked: a key LMDB
/// hands back as the caller passed it, or a write transaction's new pages, which LMDB keeps
/// in its own memory until the commit (or writes to the file early, past the pages in use,
/// when it has too many). Where it is not, a read transaction still checks sizes and
/// offsets, and a write transaction has no bounds.
struct ReadBounds {
    /// The bytes of the file in use when the transaction began.
    let fileBytes: Int
    /// The file's page size, or 0 when it is not the system's (the map's alignment then says
    /// nothing of a page's start, and only `fileBytes` bounds a read).
    let alignedPageSize: Int
    /// The address of the map's first byte, where page 0 lies, or 0 when it is not known.
    let mapStart: UInt
    /// The bytes of the map.
    let mapBytes: UInt
    /// Whether the transaction writes: its new pages may lie past the pages in use.
    let forWriting: Bool

    /// LMDB's page header: 16 bytes, the page number first, flags at byte 10, and at byte 12
    /// an overflow page's count of pages, or another page's two offsets (16 bits each) that
    /// bound its free space.
    private static let headerSize = 16
    private static let overflowFlag: UInt16 = 0x04

    /// The bounds of a transaction beginning when `fileBytes` of the file are in use; nil for
    /// a write transaction when the map's start is not known.
    init?(fileBytes: Int, pageSize: Int, map: (start: UInt?, bytes: Int), forWriting: Bool) {
        if forWriting, map.start == nil { return nil }
        self.fileBytes = fileBytes
        alignedPageSize = pageSize == Int(sysconf(Int32(_SC_PAGESIZE))) ? pageSize : 0
        mapStart = map.start ?? 0
        mapBytes = UInt(map.bytes)
        self.forWriting = forWriting
    }

    /// Where the file's committed pages lie, for the checks of the pages a write changes
    /// (`strata_page_bounds`, strata_write_pages.c): zeros, nothing checked, when the map's
    /// start or its alignment to pages is not known.
    var committedPages: strata_page_bounds {
        strata_page_bounds(map_start: mapStart, file_bytes: fileBytes, page_size: alignedPageSize)
    }

    /// The bytes of `val`, once they are known to lie where an intact page puts them.
    @inline(__always)
    func bytes(_ val: MDB_val) throws(LMDBError) -> UnsafeRawBufferPointer {
        guard holds(val) else { throw LMDBError.corrupted }
        return UnsafeRawBufferPointer(start: val.mv_data, count: val.mv_size)
    }

    /// Whether the bytes of `val` lie where an intact page puts them.
    @inline(__always)
    func holds(_ val: MDB_val) -> Bool {
        guard let page = page(of: val) else { return false }
        return isWhereItsHeaderSays(page)
    }

    /// How many of the `count` entries `keys` and `values` lie where intact pages put them,
    /// checked in order (the first that does not ends them): `holds` for each key and value
    /// (or for the two as one, when the value follows the key as in a leaf node), with each
    /// page's number checked once for a run of entries in it.
    @inline(__always)
    func heldCount(keys: UnsafePointer<MDB_val>, values: UnsafePointer<MDB_val>, count: Int) -> Int {
        var checked: UInt = 0
        func isInPlace(_ page: UInt) -> Bool {
            if page == checked { return true }
            checked = page
            return isWhereItsHeaderSays(page)
        }
        for i in 0..<count {
            let key = keys[i], value = values[i]
            // A leaf node's value follows its key: the two are one range, checked once (sizes
            // no larger than a page cannot add up past `Int.max`).
            if 0 <= key.mv_size, key.mv_size <= alignedPageSize, 0 <= value.mv_size, value.mv_size <= alignedPageSize,
               let start = key.mv_data, value.mv_data == start + key.mv_size {
                guard let page = page(of: MDB_val(mv_size: key.mv_size + value.mv_size, mv_data: start)), isInPlace(page) else { return i }
                continue
            }
            guard let keyPage = page(of: key), let valuePage = page(of: value), isInPlace(keyPage), isInPlace(valuePage) else { return i }
        }
        return count
    }

    /// The address of the page of the map `val` lies in, once its bytes lie within that page
    /// (or the overflow pages its header counts); 0 when there is no page to check its number
    /// against (no bytes, bytes outside the map or a write's new page, or the map's start not
    /// known), or nil when they run past their page or, in a snapshot, the pages in use, or
    /// lie at no address.
    @inline(__always)
    private func page(of val: MDB_val) -> UInt? {
        // A size past `Int.max` (a damaged node's) reads as negative here.
        guard val.mv_size > 0 else { return val.mv_size == 0 ? 0 : nil }
        guard let start = val.mv_data else { return nil }  // bytes at no address: a damaged node
        if mapStart != 0 {
            let index = UInt(bitPattern: start) &- mapStart
            if index >= mapBytes { return isInWrittenPage(start, val.mv_size) ? 0 : nil }
            if index >= UInt(fileBytes) { return forWriting ? 0 : nil }
        }
        guard val.mv_size <= fileBytes else { return nil }
        guard alignedPageSize != 0 else { return 0 }
        let offset = Int(bitPattern: UInt(bitPattern: start)) & (alignedPageSize - 1)
        guard offset + val.mv_size <= alignedPageSize || overflowPagesHold(start, offset, val.mv_size) else { return nil }
        return mapStart == 0 ? 0 : UInt(bitPattern: start - offset)
    }

    /// Whether `size` bytes at `start`, outside the map, may be what they seem: anything in a
    /// snapshot (a key it was handed as it passed it), and in a write, a value in one of its
    /// own pages, which LMDB keeps in its own memory (copied from the file when the write
    /// changes them, damage included): readable at both ends, and at most a page unless the
    /// header before it is that of the overflow pages that hold it. Those bytes are read
    /// behind the fault guard, as a damaged page's pointer may lead anywhere.
    @inline(__always)
    private func isInWrittenPage(_ start: UnsafeMutableRawPointer, _ size: Int) -> Bool {
        guard forWriting, alignedPageSize != 0 else { return true }
        var ends = (UInt8(0), UInt8(0))
        guard strata_guarded_copy(&ends.0, start, 1) == 0, strata_guarded_copy(&ends.1, start + size - 1, 1) == 0 else { return false }
        guard size > alignedPageSize - Self.headerSize else { return true }
        var header = (UInt64(0), UInt64(0))
        guard strata_guarded_copy(&header, start - Self.headerSize, Self.headerSize) == 0 else { return false }
        return withUnsafeBytes(of: &header) { overflowPagesHold(header: $0, size) }
    }

    /// Whether `page`, a page of the map (or 0, no page), is the page its header's number
    /// names, and, unless it is an overflow page, its free space lies between the end of its
    /// node offsets and the start of its nodes, within the page: a write that adds a node to a
    /// page whose header says otherwise writes past the page (LMDB 0.9 trusts it).
    @inline(__always)
    private func isWhereItsHeaderSays(_ page: UInt) -> Bool {
        guard page != 0 else { return true }
        let header = UnsafeRawPointer(bitPattern: page).unsafelyUnwrapped
        // A multiplication, not a division (tens of cycles): the header's number times the
        // page size is the page's offset in the map.
        guard header.load(as: UInt.self) &* UInt(alignedPageSize) == page &- mapStart else { return false }
        if header.load(fromByteOffset: 10, as: UInt16.self) & Self.overflowFlag != 0 { return true }
        let lower = Int(header.load(fromByteOffset: 12, as: UInt16.self)), upper = Int(header.load(fromByteOffset: 14, as: UInt16.self))
        return Self.headerSize <= lower && lower <= upper && upper <= alignedPageSize
    }

    /// Whether `size` bytes at `start` (at `offset` in its page, running past the page) are
    /// the value of overflow pages that hold them.
    private func overflowPagesHold(_ start: UnsafeMutableRawPointer, _ offset: Int, _ size: Int) -> Bool {
        guard offset == Self.headerSize else { return false }
        return overflowPagesHold(header: UnsafeRawBufferPointer(start: start - Self.headerSize, count: Self.headerSize), size)
    }

    /// Whether `header`, a page's header, is that of overflow pages holding `size` bytes.
    private func overflowPagesHold(header: UnsafeRawBufferPointer, _ size: Int) -> Bool {
        let flags = header.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
        let pages = Int(header.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        return flags & Self.overflowFlag != 0 && size <= pages * alignedPageSize - Self.headerSize
    }
}

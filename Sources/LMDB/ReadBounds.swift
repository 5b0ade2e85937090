import CLMDB
import Glibc

/// What a read transaction knows of where its keys and values may lie, checked before any
/// byte of them is read: a damaged page (a node's size field, an overflow page's count)
/// could otherwise send a read past the end of the file into the map, where the process
/// dies of SIGBUS. A failed check is `MDB_CORRUPTED`, as LMDB reports damage it finds.
///
/// Every page of a read snapshot lies within the file's pages in use when the snapshot
/// began, and, when the file's page size is the system's, the map is page-aligned, so a
/// value's offset in its page is its address modulo the page size: a value inside a leaf
/// page ends within that page, and a value on overflow pages (which starts right after the
/// first one's header) ends within the pages that header counts. The page a value lies in
/// is also the page its header names (LMDB 0.9 does not check): a page moved or copied over
/// another one, such as an older version of the same table's page, holds records whose
/// checksums still match. A write transaction also reads its own new pages, which are not
/// in the map, so it has no bounds.
struct ReadBounds {
    /// The bytes of the file in use when the snapshot began.
    let fileBytes: Int
    /// The file's page size, or 0 when it is not the system's (the map's alignment then says
    /// nothing of a page's start, and only `fileBytes` bounds a read).
    let alignedPageSize: Int
    /// The address of the map's first byte, where page 0 lies (0 when it is not known: the
    /// pages' numbers are then not checked).
    let mapStart: UInt

    /// LMDB's page header: 16 bytes, the page number first, flags at byte 10, and an overflow
    /// page's count of pages at byte 12.
    private static let headerSize = 16
    private static let overflowFlag: UInt16 = 0x04

    init(fileBytes: Int, pageSize: Int, mapStart: UInt?) {
        self.fileBytes = fileBytes
        alignedPageSize = pageSize == Int(sysconf(Int32(_SC_PAGESIZE))) ? pageSize : 0
        self.mapStart = mapStart ?? 0
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
    /// checked in order (the first that does not ends them): `holds` for each key and value,
    /// with each page's number checked once for a run of entries in it.
    @inline(__always)
    func heldCount(keys: UnsafePointer<MDB_val>, values: UnsafePointer<MDB_val>, count: Int) -> Int {
        var checked: UInt = 0
        func isInPlace(_ page: UInt) -> Bool {
            if page == checked { return true }
            checked = page
            return isWhereItsHeaderSays(page)
        }
        for i in 0..<count {
            guard let keyPage = page(of: keys[i]), let valuePage = page(of: values[i]),
                  isInPlace(keyPage), isInPlace(valuePage) else { return i }
        }
        return count
    }

    /// The address of the page `val` lies in, once its bytes lie within that page (or the
    /// overflow pages its header counts), 0 when they are not in a page (no bytes, or no
    /// pages to check against), or nil when they run past their page.
    @inline(__always)
    private func page(of val: MDB_val) -> UInt? {
        guard val.mv_size <= fileBytes else { return nil }
        guard alignedPageSize != 0, val.mv_size != 0, let start = val.mv_data else { return 0 }
        let offset = Int(bitPattern: UInt(bitPattern: start)) & (alignedPageSize - 1)
        guard offset + val.mv_size <= alignedPageSize || overflowPagesHold(start, offset, val.mv_size) else { return nil }
        return UInt(bitPattern: start - offset)
    }

    /// Whether `page`, when it is a page of the map (LMDB hands back some keys as the caller
    /// passed them), is the page its header's number names.
    @inline(__always)
    private func isWhereItsHeaderSays(_ page: UInt) -> Bool {
        let index = page &- mapStart
        guard mapStart != 0, index < UInt(fileBytes) else { return true }
        return UnsafeRawPointer(bitPattern: page).unsafelyUnwrapped.load(as: UInt.self) == index / UInt(alignedPageSize)
    }

    /// Whether `size` bytes at `start` (at `offset` in its page, running past the page) are
    /// the value of overflow pages that hold them.
    private func overflowPagesHold(_ start: UnsafeMutableRawPointer, _ offset: Int, _ size: Int) -> Bool {
        guard offset == Self.headerSize else { return false }
        let header = UnsafeRawPointer(start - Self.headerSize)
        let flags = header.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
        let pages = Int(header.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        return flags & Self.overflowFlag != 0 && size <= pages * alignedPageSize - Self.headerSize
    }
}

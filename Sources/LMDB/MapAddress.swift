import CLMDB
import Glibc

/// Where the memory map of an environment's file begins in this process, which LMDB does not
/// say (`mdb_env_info`'s map address is only set for fixed maps): the mapping of the file at
/// offset 0 in `/proc/self/maps` of the map's size, matched by the file's device and inode
/// (not a deleted file's, whose inode a new file may have), whose first two pages are LMDB
/// meta pages. Nil when the kernel does not list it so (no `/proc`, or a file system that
/// lists other device numbers than `stat` gives), and page numbers are then not checked
/// (`ReadBounds`).
enum MapAddress {
    /// The start of the mapping, `size` bytes long, of `env`'s data file.
    static func start(of env: OpaquePointer, size: Int, pageSize: Int) -> UInt? {
        var fd: Int32 = -1
        var st = stat()
        // The meta pages are read from the map: they must be in the file.
        guard mdb_env_get_fd(env, &fd) == 0, fstat(fd, &st) == 0, Int(st.st_size) >= 2 * pageSize,
              let maps = readMaps() else { return nil }
        let major = (st.st_dev >> 8) & 0xFFF | (st.st_dev >> 32) & ~0xFFF
        let minor = st.st_dev & 0xFF | (st.st_dev >> 12) & ~0xFF
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            // start-end perms offset major:minor inode path
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5,
                  hex(fields[2]) == 0, decimal(fields[4]) == UInt64(st.st_ino),
                  let colon = fields[3].firstIndex(of: UInt8(ascii: ":")),
                  hex(fields[3][..<colon]) == UInt64(major), hex(fields[3][(colon + 1)...]) == UInt64(minor),
                  let dash = fields[0].firstIndex(of: UInt8(ascii: "-")),
                  let start = hex(fields[0][..<dash]), let end = hex(fields[0][(dash + 1)...]),
                  end &- start == UInt64(size),
                  !line.reversed().starts(with: " (deleted)".utf8.reversed()),
                  isMetaPage(UInt(start), 0, pageSize), isMetaPage(UInt(start), 1, pageSize) else { continue }
            return UInt(start)
        }
        return nil
    }

    /// Whether page `number` of a map at `start` is an LMDB meta page: its header names it,
    /// flags it `P_META` (0x08), and LMDB's magic number follows.
    private static func isMetaPage(_ start: UInt, _ number: Int, _ pageSize: Int) -> Bool {
        guard let page = UnsafeRawPointer(bitPattern: start + UInt(number * pageSize)) else { return false }
        return page.load(as: UInt.self) == UInt(number) && page.load(fromByteOffset: 10, as: UInt16.self) & 0x08 != 0
            && page.load(fromByteOffset: 16, as: UInt32.self) == 0xBEEF_C0DE
    }

    /// The bytes of `/proc/self/maps`.
    private static func readMaps() -> [UInt8]? {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
    }

    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt64? { number(digits, radix: 16) }
    private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt64? { number(digits, radix: 10) }

    private static func number(_ digits: ArraySlice<UInt8>, radix: Int) -> UInt64? {
        UInt64(String(decoding: digits, as: UTF8.self), radix: radix)
    }
}

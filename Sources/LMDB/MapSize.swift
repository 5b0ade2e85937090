import Glibc

/// How large an environment's memory map is: small at first, doubled as the file grows, and
/// never more than half the address space this process has left (`ulimit -v`), so that many
/// files fit in one process and a limited one still opens them.
///
/// The map costs address space, not memory or disk (without `MDB_WRITEMAP` the file grows
/// only as pages are written), but a process has a bounded amount of it: 1,000 files of a
/// 4 GiB map take 4 TiB of the 128 TiB a 64-bit Linux process has.
enum MapSize {
    /// The map of a new or small file: room for large writes before the first growth.
    static let minimum = 4 << 30
    /// Maps are whole multiples of this (a multiple of every page size LMDB uses).
    static let granule = 64 << 20

    /// The map to open a file of `fileSize` bytes with: twice the file, at least `minimum`,
    /// within the address space left; 0 when not even the file fits.
    static func initial(forFileOf fileSize: Int) -> Int {
        let wanted = roundedUp(max(minimum, 2 * fileSize))
        guard let left = addressSpaceLeft() else { return wanted }
        let allowed = roundedDown(left / 2)
        if allowed >= wanted { return wanted }
        let needed = roundedUp(fileSize + granule)
        return allowed >= needed ? allowed : (left >= needed ? needed : 0)
    }

    /// The map to grow to from `size` when the file uses `used` bytes of it: twice the larger
    /// of the two, once the file fills half the map or a write found it full (`isFull`);
    /// nil when it need not or cannot grow.
    static func grown(from size: Int, used: Int, isFull: Bool) -> Int? {
        guard isFull || used > size / 2 else { return nil }
        var target = roundedUp(2 * max(size, used))
        if let left = addressSpaceLeft() {
            // Remapping frees the old map before it maps the new one: the new one may use it.
            target = min(target, roundedDown(size + left / 2))
        }
        return target > size ? target : nil
    }

    /// The size of the file at `path` (0 when it does not exist yet).
    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// Bytes of address space this process may still map (`RLIMIT_AS` minus what it maps
    /// now, from `/proc/self/statm`), or nil when it is unlimited.
    static func addressSpaceLeft() -> Int? {
        var limit = rlimit()  // RLIM_INFINITY is all ones
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return max(0, Int(clamping: limit.rlim_cur) - mappedBytes())
    }

    /// The bytes this process maps now: the first figure of `/proc/self/statm`, in pages.
    private static func mappedBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var text = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &text, text.count)
        guard count > 0 else { return 0 }
        let pages = text.prefix(count).prefix { $0 >= 0x30 && $0 <= 0x39 }.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func roundedUp(_ bytes: Int) -> Int { (bytes + granule - 1) / granule * granule }
    private static func roundedDown(_ bytes: Int) -> Int { bytes / granule * granule }
}

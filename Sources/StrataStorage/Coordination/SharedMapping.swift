import CStrataSync
import Glibc

/// The coordination file's bytes as every process maps them (`MAP_SHARED`): words written
/// here are seen by the other processes at once. Unmapped when the last holder lets go, which
/// may be after the file descriptor is closed (the notifier thread outlives it briefly).
package final class SharedMapping: @unchecked Sendable {
    // Sendable invariant: the pointer never changes; shared words are only accessed with
    // the atomic operations below.
    private let base: UnsafeMutableRawPointer
    private let length: Int

    init(fd: Int32, length: Int, writable: Bool) throws {
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        guard let base = mmap(nil, length, protection, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            throw StorageError(.fileAccess, "Mapping the coordination file failed: \(String(cString: strerror(errno)))")
        }
        self.base = base
        self.length = length
    }

    deinit { munmap(base, length) }

    func word32(_ offset: Int) -> UnsafeMutablePointer<UInt32> {
        (base + offset).assumingMemoryBound(to: UInt32.self)
    }

    func word64(_ offset: Int) -> UnsafeMutablePointer<UInt64> {
        (base + offset).assumingMemoryBound(to: UInt64.self)
    }

    func load32(_ offset: Int) -> UInt32 { strata_load32(word32(offset)) }
    func load64(_ offset: Int) -> UInt64 { strata_load64(word64(offset)) }
    func store32(_ offset: Int, _ value: UInt32) { strata_store32(word32(offset), value) }
    func store64(_ offset: Int, _ value: UInt64) { strata_store64(word64(offset), value) }

    /// The bytes at `offset`, for the header's magic and the slots' names.
    func bytes(_ offset: Int, count: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: base + offset, count: count))
    }

    /// Overwrites the bytes at `offset` (callers hold the file's registry lock).
    func write(_ bytes: [UInt8], at offset: Int) {
        bytes.withUnsafeBytes { (base + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    /// Sleeps while the 32-bit word at `offset` equals `expected`, at most `milliseconds`.
    func wait(_ offset: Int, whileEqualTo expected: UInt32, milliseconds: Int32) {
        _ = strata_futex_wait(word32(offset), expected, milliseconds)
    }

    /// Wakes every process and thread waiting on the word at `offset`.
    func wakeAll(_ offset: Int) {
        _ = strata_futex_wake_all(word32(offset))
    }
}

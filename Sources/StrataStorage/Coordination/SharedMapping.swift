import CStrataSync

/// The coordination file's bytes as every process maps them (`MAP_SHARED`): words written
/// here are seen by the other processes at once. Unmapped when the last holder lets go, which
/// may be after the file descriptor is closed (the notifier thread outlives it briefly).
package final class SharedMapping: @unchecked Sendable {
    // Sendable invariant: the pointer never changes; shared words are only accessed with
    // the atomic operations below.
    private let base: UnsafeMutableRawPointer
    /// The mapped bytes: always `CoordinationLayout.fileSize`, so every offset the layout
    /// names lies inside the mapping.
    private let length = CoordinationLayout.fileSize

    /// Maps the whole coordination file `fd` (which is `CoordinationLayout.fileSize` bytes
    /// long: the caller checked or made it so) at `path`.
    init(fd: Int32, writable: Bool, path: String) throws {
        do {
            base = try SystemCalls.map(fd, length: length, writable: writable, path: path)
        } catch {
            throw StorageError(.fileAccess, "Mapping the coordination file failed: \(error.reason)")
        }
    }

    deinit { SystemCalls.unmap(base, length: length) }

    /// The shared word at `offset`. Checked: the word lies inside the mapping and is
    /// naturally aligned (the layout's offsets are), as the atomic operations and the futex
    /// need; the page-aligned base keeps the alignment.
    func word32(_ offset: Int) -> UnsafeMutablePointer<UInt32> {
        precondition(offset >= 0 && offset <= length - 4 && offset % 4 == 0, "coordination word \(offset) outside the layout")
        return (base + offset).assumingMemoryBound(to: UInt32.self)
    }

    /// The shared 64-bit word at `offset`, checked as `word32` is.
    func word64(_ offset: Int) -> UnsafeMutablePointer<UInt64> {
        precondition(offset >= 0 && offset <= length - 8 && offset % 8 == 0, "coordination word \(offset) outside the layout")
        return (base + offset).assumingMemoryBound(to: UInt64.self)
    }

    func load32(_ offset: Int) -> UInt32 { strata_load32(word32(offset)) }
    func load64(_ offset: Int) -> UInt64 { strata_load64(word64(offset)) }
    func store32(_ offset: Int, _ value: UInt32) { strata_store32(word32(offset), value) }
    func store64(_ offset: Int, _ value: UInt64) { strata_store64(word64(offset), value) }

    /// The bytes at `offset`, for the header's magic and the slots' names; checked to lie
    /// inside the mapping.
    func bytes(_ offset: Int, count: Int) -> [UInt8] {
        precondition(offset >= 0 && count >= 0 && offset <= length - count, "coordination bytes \(offset) outside the layout")
        return Array(UnsafeRawBufferPointer(start: base + offset, count: count))
    }

    /// Overwrites the bytes at `offset` (callers hold the file's registry lock); checked to
    /// lie inside the mapping.
    func write(_ bytes: [UInt8], at offset: Int) {
        precondition(offset >= 0 && offset <= length - bytes.count, "coordination bytes \(offset) outside the layout")
        bytes.withUnsafeBytes { (base + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    /// Sleeps while the 32-bit word at `offset` equals `expected`, at most `milliseconds`.
    func wait(_ offset: Int, whileEqualTo expected: UInt32, milliseconds: Int32) {
        SystemCalls.futexWait(word32(offset), whileEqualTo: expected, milliseconds: milliseconds)
    }

    /// Wakes every process and thread waiting on the word at `offset`.
    func wakeAll(_ offset: Int) {
        SystemCalls.futexWakeAll(word32(offset))
    }
}

extension Array where Element == UInt8 {
    /// Appends `bytes` with one copy. `append(contentsOf:)` given an `UnsafeRawBufferPointer`
    /// copies it a byte at a time (it has no contiguous-storage fast path); viewed as
    /// `UInt8` elements it is one `memcpy`.
    @inlinable
    mutating func append(bytes: UnsafeRawBufferPointer) {
        bytes.withMemoryRebound(to: UInt8.self) { append(contentsOf: $0) }
    }
}

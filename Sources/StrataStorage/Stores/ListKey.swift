/// The LMDB key of one entry of a list property's database (docs/FILE-FORMAT.md, "Lists"):
/// the owner's key, then for a chunk or directory node its id, or for a map's keys the byte
/// `K`. A plain value, laid out on the stack when used.
struct ListKey {
    /// The object owning the list.
    let owner: ObjectKey
    /// The id of the chunk or node; nil for the directory and a map's keys.
    let entry: UInt32?
    /// Whether the entry holds a map's keys.
    let isMapKeys: Bool

    /// The key of `owner`'s directory, or of its chunk or node `entry`.
    init(_ owner: ObjectKey, entry: UInt32? = nil) {
        self.owner = owner
        self.entry = entry
        isMapKeys = false
    }

    /// The key of `owner`'s map keys.
    init(mapKeysOf owner: ObjectKey) {
        self.owner = owner
        entry = nil
        isMapKeys = true
    }

    /// The key stored as `bytes`; nil for bytes no list entry has as its key.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard [8, 9, 12].contains(bytes.count), let owner = try? ObjectKeyCoding.decode(UnsafeRawBufferPointer(rebasing: bytes.prefix(8))) else {
            return nil
        }
        switch bytes.count {
        case 12: self.init(owner, entry: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).bigEndian)
        case 9:
            guard bytes[8] == 0x4B else { return nil }
            self.init(mapKeysOf: owner)
        default: self.init(owner)
        }
    }

    /// Calls `body` with the key's bytes: 8, 9 (map keys) or 12 (chunk or node).
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        // In memory: the owner big endian, then the id big endian or `K`.
        var bytes = (ObjectKeyCoding.encode(owner), entry?.bigEndian ?? (isMapKeys ? UInt32(0x4B).littleEndian : 0))
        let count = entry != nil ? 12 : (isMapKeys ? 9 : 8)
        return try Swift.withUnsafeBytes(of: &bytes) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }
}

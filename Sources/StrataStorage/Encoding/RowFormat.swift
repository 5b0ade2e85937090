import Foundation

// Row layout (docs/FILE-FORMAT.md, "Rows"). Changing it breaks the file format.
//
//   row    := flags:u8  slotCount:varint  [nulls: ceil(slotCount/8) bytes]  ends  payload
//   flags  := bits 0-1: width code w (slot end offsets are 1 << w bytes, little endian)
//             bit 2:    a null bitmap follows the slot count
//             bit 3:    sealed: the row ends with its 4-byte checksum (`Checksum`)
//   ends   := slotCount end offsets into payload; slot i is payload[end(i-1) ..< end(i)]
//
// So any one property is found with two reads and no decoding of the others. A slot beyond
// slotCount (a property added after the row was written) reads as the property's default.

/// Where and how one property is stored in a row: a plain value, cheap to copy, for reads
/// on hot paths (a `PropertySchema` carries its name).
@usableFromInline
package struct Slot: Sendable {
    @usableFromInline package let id: Int
    @usableFromInline package let type: PropertyType
    @usableFromInline package let isOptional: Bool
    /// A list property: its values are not in the row.
    package let isList: Bool

    package init(_ property: PropertySchema) {
        id = property.id
        type = property.type
        isOptional = property.isOptional
        isList = property.isList
    }
}

/// A read-only view of one encoded row. Reading a slot decodes only that slot.
///
/// A plain value: copying one counts no references. Its bytes lie in the memory map, or on an
/// encrypted file in decrypted memory (`RecordCrypto`); either way they stay valid while the
/// transaction that read them is open (a view from a `RowCursor` handing rows to objects,
/// while its block is held).
///
/// `@usableFromInline`, as are the other types whose methods are `@inlinable`: the methods
/// of a plain `package` type are not inlined into other modules, and a row is read on every
/// property access and every scanned row.
@usableFromInline
package struct RowView {
    @usableFromInline package let bytes: UnsafeRawBufferPointer
    @usableFromInline let slotCount: Int
    @usableFromInline let width: Int
    @usableFromInline let nullsOffset: Int
    @usableFromInline let endsOffset: Int
    @usableFromInline let payloadOffset: Int

    /// The row stored under `key` (8 bytes) in the rows database of `seed`: parsed without its
    /// seal once the seal is verified. Nil if it is damaged, or not sealed where
    /// `sealRequired` (a format 3 file).
    @inlinable @inline(__always)
    init?(stored bytes: UnsafeRawBufferPointer, _ seed: UInt32, key: UnsafeRawBufferPointer, sealRequired: Bool) {
        guard bytes.count >= 2 else { return nil }
        if bytes[0] & RowEncoder.sealedFlag != 0 {
            guard let body = Checksum.verified(bytes, seed, key: key) else { return nil }
            self.init(body)
        } else {
            if sealRequired { return nil }
            self.init(bytes)
        }
    }

    /// Parses the header of `bytes`, a row without its seal; returns nil if the bytes are not
    /// a well-formed row.
    @inlinable @inline(__always)
    package init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 2 else { return nil }
        let flags = bytes.load(as: UInt8.self)
        // A slot count below 128 is one varint byte: read without the varint loop.
        var offset = 2
        var count = UInt64(bytes.load(fromByteOffset: 1, as: UInt8.self))
        if count >= 0x80 {
            offset = 1
            guard let long = Varint.read(bytes, at: &offset), long < 1 << 16 else { return nil }
            count = long
        }
        self.bytes = bytes
        slotCount = Int(count)
        width = 1 << Int(flags & 3)
        nullsOffset = flags & 4 != 0 ? offset : -1
        endsOffset = offset + (flags & 4 != 0 ? (slotCount + 7) / 8 : 0)
        payloadOffset = endsOffset + slotCount * width
        guard payloadOffset <= bytes.count, width <= 4 else { return nil }
        // No slot may end before the one ahead of it or past the row: then every slot's
        // bytes lie inside the row, and reading one needs no further checks.
        let last = switch width {
        case 1: Self.lastEnd(UInt8.self, bytes, at: endsOffset, count: slotCount)
        case 2: Self.lastEnd(UInt16.self, bytes, at: endsOffset, count: slotCount)
        default: Self.lastEnd(UInt32.self, bytes, at: endsOffset, count: slotCount)
        }
        guard let last, payloadOffset + last <= bytes.count else { return nil }
    }

    /// The end of the last of `count` slot ends of type `T` (little endian) at `offset`, or nil
    /// when one ends before the one ahead of it (0 for none). One loop per width: the width is
    /// not asked again for every slot.
    @inlinable @inline(__always)
    static func lastEnd<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, _ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> Int? {
        var previous = 0
        var p = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped) + offset
        for _ in 0..<count {
            let end = Int(T(littleEndian: p.loadUnaligned(as: T.self)))
            if end < previous { return nil }
            previous = end
            p += MemoryLayout<T>.size
        }
        return previous
    }

    /// Where slot `slot` ends in the payload. The ends lie inside the row (`init` checked
    /// `payloadOffset`, which follows them).
    @inlinable @inline(__always)
    func end(_ slot: Int) -> Int {
        let p = bytes.baseAddress.unsafelyUnwrapped + (endsOffset &+ slot &* width)
        switch width {
        case 1: return Int(p.load(as: UInt8.self))
        case 2: return Int(p.loadUnaligned(as: UInt16.self).littleEndian)
        default: return Int(p.loadUnaligned(as: UInt32.self).littleEndian)
        }
    }

    /// Whether the row has a slot for this property id (rows written before a property was
    /// added do not).
    @inlinable @inline(__always)
    package func hasSlot(_ slot: Int) -> Bool { slot < slotCount }

    /// Whether the slot holds null (absent slots are not null: they read as the default).
    @inlinable @inline(__always)
    package func isNull(_ slot: Int) -> Bool {
        guard nullsOffset >= 0, slot < slotCount else { return false }
        return bytes[nullsOffset + slot >> 3] & (1 << UInt8(slot & 7)) != 0
    }

    /// The raw bytes of a slot (empty for an absent slot). Valid as long as `bytes` is.
    @inlinable @inline(__always)
    package func slotBytes(_ slot: Int) -> UnsafeRawBufferPointer {
        guard slot < slotCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = slot == 0 ? 0 : end(slot - 1)
        // In the row: `init` checked every slot's end.
        return UnsafeRawBufferPointer(start: bytes.baseAddress.unsafelyUnwrapped + payloadOffset + start, count: end(slot) - start)
    }

    /// An integer slot (minimal little-endian two's complement; empty is 0).
    @inlinable @inline(__always)
    package func int(_ slot: Int) -> Int64 {
        guard slot < slotCount else { return 0 }
        let start = slot == 0 ? 0 : end(slot - 1)
        return ValueCodec.decodeInt(bytes.baseAddress.unsafelyUnwrapped + payloadOffset + start, count: end(slot) - start)
    }

    /// A double slot.
    @inlinable @inline(__always)
    package func double(_ slot: Int) -> Double {
        let b = slotBytes(slot)
        return b.count == 8 ? Double(bitPattern: b.loadUnaligned(as: UInt64.self).littleEndian) : 0
    }

    /// Decodes one slot as a property of `type`; absent slots give the type's default
    /// (`null` for optionals).
    package func value(_ property: PropertySchema) -> Value {
        value(Slot(property))
    }

    /// Decodes one slot described by `slot` (the hot-path form: no strings to copy).
    @inlinable @inline(__always)
    package func value(_ slot: Slot) -> Value {
        if isNull(slot.id) { return .null }
        if !hasSlot(slot.id) { return slot.isOptional ? .null : ValueCodec.defaultValue(slot.type) }
        return ValueCodec.decode(slotBytes(slot.id), as: slot.type)
    }
}

/// The slots of a class's rows that hold mixed values, by property id: encoding one of them
/// writes the value's type code before its bytes. Empty, and free to ask, for a class without
/// mixed properties.
package struct MixedSlots: Sendable {
    private let flags: [Bool]

    /// No mixed slots.
    package static let none = MixedSlots(flags: [])

    private init(flags: [Bool]) { self.flags = flags }

    /// The mixed properties of `schema`.
    package init(_ schema: ClassSchema) {
        let mixed = schema.properties.filter { $0.type == .mixed && !$0.isList }.map(\.id)
        guard let last = mixed.max() else { flags = []; return }
        var flags = [Bool](repeating: false, count: last + 1)
        for id in mixed { flags[id] = true }
        self.flags = flags
    }

    /// Whether slot `id` holds mixed values.
    @inline(__always)
    package func contains(_ id: Int) -> Bool { id < flags.count && flags[id] }
}

/// What a row is sealed for: its object key, in the rows database of `seed` (`Table.rowSeed`).
package struct RowSeal {
    package let seed: UInt32
    package let key: ObjectKey

    package init(seed: UInt32, key: ObjectKey) {
        self.seed = seed
        self.key = key
    }

    /// Appends the seal of `row` (everything in it so far).
    func append(to row: inout [UInt8]) {
        let crc = row.withUnsafeBytes { checksum(of: $0) }
        withUnsafeBytes(of: crc.littleEndian) { row.append(bytes: $0) }
    }

    /// The seal of `row` (everything in it before the seal).
    func checksum(of row: UnsafeRawBufferPointer) -> UInt32 {
        var k = ObjectKeyCoding.encode(key)
        return withUnsafeBytes(of: &k) { Checksum.seal(seed, key: $0, row) }
    }
}

/// Builds encoded rows: from values indexed by property id, or by replacing some slots of an
/// existing row while copying the others' bytes as they are (no decoding).
///
/// A row given a `seal` is sealed for its object key: flag bit 3 set and its checksum appended
/// (`Checksum`); a row for a file of format 2 or earlier is not (`seal` nil).
@usableFromInline
package enum RowEncoder {
    /// Flag bit 3: the row ends with its seal.
    @usableFromInline static let sealedFlag: UInt8 = 8

    /// Encodes `values` (index = property id; missing trailing slots are allowed).
    package static func encode(_ values: [Value], _ mixed: MixedSlots = .none, seal: RowSeal? = nil) -> [UInt8] {
        withEncoded(values, mixed, seal: seal, copied)
    }

    /// Calls `body` with the row `encode(_:_:seal:)` makes, laid out in temporary memory: an
    /// insert puts it with no array made.
    package static func withEncoded<R>(_ values: [Value], _ mixed: MixedSlots = .none, seal: RowSeal? = nil,
                                       _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withBuilt(slotCount: values.count, seal: seal, { slot, payload in
            payload.append(values[slot], mixed: mixed.contains(slot))
        }, body)
    }

    /// Re-encodes `row` with some slots set to new values: `replacements` by ascending slot,
    /// each slot at most once.
    package static func encode<Changes: RandomAccessCollection<(id: Int, value: Value)>>(
        slotCount: Int, in row: RowView, replacing replacements: Changes, _ mixed: MixedSlots = .none, seal: RowSeal? = nil
    ) -> [UInt8] where Changes.Index == Int {
        withEncoded(slotCount: slotCount, in: row, replacing: replacements, mixed, seal: seal, copied)
    }

    /// Calls `body` with the row `encode(slotCount:in:replacing:_:seal:)` makes, laid out in
    /// temporary memory.
    package static func withEncoded<R, Changes: RandomAccessCollection<(id: Int, value: Value)>>(
        slotCount: Int, in row: RowView, replacing replacements: Changes, _ mixed: MixedSlots = .none, seal: RowSeal? = nil,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R where Changes.Index == Int {
        var next = 0
        return try withBuilt(slotCount: slotCount, seal: seal, { slot, payload in
            if next < replacements.count, replacements[next].id == slot {
                defer { next += 1 }
                return payload.append(replacements[next].value, mixed: mixed.contains(slot))
            }
            if row.isNull(slot) { return false }
            payload.append(row.slotBytes(slot))
            return true
        }, body)
    }

    /// Calls `body` with `row` with some slots set to new values (by ascending slot, each at
    /// most once), when that needs no new layout: every new value is as long as the bytes it
    /// replaces, and neither is null nor mixed (a number, a date, a string of the same length).
    /// The row is copied and those bytes overwritten. Returns nil, without calling `body`,
    /// otherwise.
    package static func withPatched<R>(_ row: RowView, replacing replacements: some Collection<(id: Int, value: Value)>,
                                       _ mixed: MixedSlots = .none, seal: RowSeal? = nil,
                                       _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        for (id, value) in replacements {
            guard row.hasSlot(id), !row.isNull(id), !value.isNull, !mixed.contains(id),
                  ValueCodec.withEncoded(value, \.count) == row.slotBytes(id).count else { return nil }
        }
        let length = row.bytes.count
        return try withUnsafeTemporaryAllocation(byteCount: length + (seal == nil ? 0 : 4), alignment: 1) { copy in
            copy.copyMemory(from: row.bytes)
            for (id, value) in replacements {
                let offset = row.slotBytes(id).baseAddress! - row.bytes.baseAddress!
                ValueCodec.withEncoded(value) { bytes in
                    // An empty value (0, "", empty data) may lend no address: nothing to copy.
                    if let source = bytes.baseAddress { (copy.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count) }
                }
            }
            if let seal {
                copy[0] |= sealedFlag
                copy.storeBytes(of: seal.checksum(of: UnsafeRawBufferPointer(rebasing: copy[..<length])).littleEndian, toByteOffset: length, as: UInt32.self)
            } else {
                copy[0] &= ~sealedFlag
            }
            return try body(UnsafeRawBufferPointer(copy))
        }
    }

    /// Lays out a row in temporary memory and calls `body` with it. `slot(i, &payload)`
    /// appends slot i's bytes and returns true, or returns false for null; it is asked for
    /// slots 0 ..< slotCount in order. The slot ends, the null bitmap and (up to
    /// `RowPayload.stackCapacity` bytes) the payload are gathered on the stack, and the row
    /// is laid out at its exact length: for a row of up to about a kilobyte nothing is
    /// allocated.
    private static func withBuilt<R>(slotCount: Int, seal: RowSeal?, _ slot: (Int, inout RowPayload) -> Bool,
                                     _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let nullBytes = (slotCount + 7) / 8
        return try withUnsafeTemporaryAllocation(of: Int.self, capacity: slotCount) { ends in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: nullBytes) { nulls in
                try withUnsafeTemporaryAllocation(byteCount: RowPayload.stackCapacity, alignment: 1) { stack in
                    nulls.initialize(repeating: 0)
                    var payload = RowPayload(stack)
                    var anyNull = false
                    for i in 0..<slotCount {
                        if !slot(i, &payload) {
                            nulls[i >> 3] |= 1 << UInt8(i & 7)
                            anyNull = true
                        }
                        ends[i] = payload.count
                    }
                    let widthCode: UInt8 = payload.count < 1 << 8 ? 0 : (payload.count < 1 << 16 ? 1 : 2)
                    let width = 1 << Int(widthCode)
                    var countBytes = 1
                    while slotCount >> (7 * countBytes) != 0 { countBytes += 1 }
                    let headerLength = 1 + countBytes + (anyNull ? nullBytes : 0) + slotCount * width
                    let length = headerLength + payload.count
                    return try payload.withBytes { payload in
                        try withUnsafeTemporaryAllocation(byteCount: length + (seal == nil ? 0 : 4), alignment: 1) { row in
                            let base = row.baseAddress!
                            base.storeBytes(of: widthCode | (anyNull ? 4 : 0) | (seal == nil ? 0 : sealedFlag), as: UInt8.self)
                            var o = 1
                            var count = slotCount
                            for i in 0..<countBytes {
                                base.storeBytes(of: UInt8(truncatingIfNeeded: count) | (i < countBytes - 1 ? 0x80 : 0), toByteOffset: o, as: UInt8.self)
                                count >>= 7
                                o += 1
                            }
                            if anyNull {
                                (base + o).copyMemory(from: nulls.baseAddress!, byteCount: nullBytes)
                                o += nullBytes
                            }
                            for end in ends.prefix(slotCount) {
                                switch width {
                                case 1: base.storeBytes(of: UInt8(truncatingIfNeeded: end), toByteOffset: o, as: UInt8.self)
                                case 2: base.storeBytes(of: UInt16(truncatingIfNeeded: end).littleEndian, toByteOffset: o, as: UInt16.self)
                                default: base.storeBytes(of: UInt32(truncatingIfNeeded: end).littleEndian, toByteOffset: o, as: UInt32.self)
                                }
                                o += width
                            }
                            if let source = payload.baseAddress { (base + o).copyMemory(from: source, byteCount: payload.count) }
                            if let seal {
                                base.storeBytes(of: seal.checksum(of: UnsafeRawBufferPointer(start: base, count: length)).littleEndian,
                                                toByteOffset: length, as: UInt32.self)
                            }
                            return try body(UnsafeRawBufferPointer(row))
                        }
                    }
                }
            }
        }
    }

    /// A row laid out in temporary memory, copied into an array of its own.
    private static func copied(_ row: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(row.count)
        bytes.append(bytes: row)
        return bytes
    }
}

/// The payload of a row being built (`RowEncoder`): in a buffer on the stack while it fits,
/// then in an array.
struct RowPayload {
    /// The bytes of payload gathered on the stack.
    static let stackCapacity = 512
    private let stack: UnsafeMutableRawBufferPointer
    /// The payload once it outgrew `stack`.
    private var spilled: [UInt8]?
    /// The bytes appended so far.
    private(set) var count = 0

    init(_ stack: UnsafeMutableRawBufferPointer) { self.stack = stack }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if spilled == nil, count + bytes.count <= stack.count {
            // An empty value (0, "", empty data) may lend no address: nothing to copy.
            if let source = bytes.baseAddress { (stack.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count) }
        } else {
            spill(adding: bytes.count)
            spilled!.append(bytes: bytes)
        }
        count += bytes.count
    }

    /// Appends the slot bytes of `value` (in a mixed slot, after its type code, as
    /// `ValueCodec.encode(_:mixed:into:)` does); returns false, appending nothing, for null.
    mutating func append(_ value: Value, mixed: Bool) -> Bool {
        if case .null = value { return false }
        if mixed, let tag = value.storedType { withUnsafeBytes(of: tag.rawValue) { append($0) } }
        ValueCodec.withEncoded(value) { append($0) }
        return true
    }

    /// Moves the payload into an array with room for `more` bytes and the stack's worth
    /// after them (a large value is copied once, not into twice its size), unless it is there.
    private mutating func spill(adding more: Int) {
        guard spilled == nil else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + more + stack.count)
        bytes.append(bytes: UnsafeRawBufferPointer(rebasing: stack[..<count]))
        spilled = bytes
    }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let spilled { return try spilled.withUnsafeBytes(body) }
        return try body(UnsafeRawBufferPointer(rebasing: stack[..<count]))
    }
}

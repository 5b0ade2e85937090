/// The byte layout of `ObjectImages`, the payload of a history entry's extensions
/// `HistoryEntry.Extension.oldValuesTag` and `newValuesTag` (docs/FILE-FORMAT.md, "Old values"):
///
///   images    := flags:u8 (bit 0: complete, bit 1: snapshot) classCount:varint class*
///   class     := name:str objectCount:varint object*          (objects by ascending key)
///   object    := keyDelta:varint rowLength:varint row listCount:varint list*
///                                                              (rowLength 0: no row recorded)
///   list      := propertyId:varint directory:str chunkCount:varint chunk* mapKeys:(0 | (length + 1):varint bytes)
///                                               (directory as stored, unsealed; length 0: the list had none)
///   chunk     := chunkId:varint bytes:str                      (ascending ids; the chunk, unsealed)
///   str       := length:varint bytes
extension ObjectImages {
    /// The encoded images.
    package func encoded() -> [UInt8] {
        var out: [UInt8] = []
        // Made once at about its size: the bytes recorded, and a key and lengths per object.
        let all = images
        let objects = all.values.reduce(0) { $0 + $1.rows.count + $1.lists.count + $1.cleared.count }
        out.reserveCapacity(byteCount + 12 * objects + 64)
        out.append((isComplete ? 1 : 0) | (isSnapshot ? 2 : 0))
        let classes = all.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        Varint.append(UInt64(classes.count), to: &out)
        for (name, c) in classes {
            Self.appendBytes(Array(name.utf8)[...], to: &out)
            Self.appendObjects(of: c, to: &out)
        }
        return out
    }

    /// Appends one class's objects in ascending key order: those with a row or lists recorded
    /// one by one, merged with the rows recorded when the class was cleared (an object with
    /// both has its row from `rows`).
    private static func appendObjects(of c: ClassImages, to out: inout [UInt8]) {
        var keys = c.rows.ascendingKeys()
        let listed = c.lists.keys.filter { !c.rowKeys.contains($0) }
        if !listed.isEmpty {
            keys += listed.map { (key: $0, position: -1) }
            keys.sort { $0.key < $1.key }
        }
        let cleared = c.cleared
        let shared = cleared.count == 0 ? 0 : keys.count { cleared.index(of: $0.key) != nil }
        Varint.append(UInt64(keys.count + cleared.count - shared), to: &out)
        var previous: ObjectKey = 0
        var next = 0  // the next cleared row to append
        for (key, position) in keys {
            while next < cleared.count, cleared.keys[next] < key {
                append(cleared.keys[next], row: cleared.row(at: next), after: &previous, to: &out)
                next += 1
            }
            var row = position >= 0 ? c.rows.row(at: position) : nil
            if next < cleared.count, cleared.keys[next] == key {
                row = row ?? cleared.row(at: next)
                next += 1
            }
            append(key, row: row, lists: c.lists.isEmpty ? [:] : c.lists[key] ?? [:], after: &previous, to: &out)
        }
        for i in next..<cleared.count {
            append(cleared.keys[i], row: cleared.row(at: i), after: &previous, to: &out)
        }
    }

    /// Appends one `object`: key `key` (following `previous`), its row (nil: none recorded) and
    /// its lists by ascending property id.
    private static func append(_ key: ObjectKey, row: ArraySlice<UInt8>?, lists: [Int: List] = [:],
                               after previous: inout ObjectKey, to out: inout [UInt8]) {
        Varint.append(key &- previous, to: &out)
        previous = key
        appendBytes(row ?? [], to: &out)
        Varint.append(UInt64(lists.count), to: &out)
        guard !lists.isEmpty else { return }
        for (id, list) in lists.sorted(by: { $0.key < $1.key }) {
            Varint.append(UInt64(id), to: &out)
            appendBytes(list.directory[...], to: &out)
            Varint.append(UInt64(list.chunks.count), to: &out)
            for (chunk, bytes) in list.chunks.sorted(by: { $0.key < $1.key }) {
                Varint.append(UInt64(chunk), to: &out)
                appendBytes(bytes[...], to: &out)
            }
            if let keys = list.mapKeys {
                Varint.append(UInt64(keys.count) + 1, to: &out)
                out.append(contentsOf: keys)
            } else {
                out.append(0)
            }
        }
    }

    /// Decodes encoded images; nil if they are damaged.
    package init?(decoding bytes: [UInt8]) {
        self.init()
        let decoded: Bool = bytes.withUnsafeBytes { b in
            var o = 0
            guard let flags = b.first else { return false }
            o = 1
            isComplete = flags & 1 != 0
            isSnapshot = flags & 2 != 0
            guard let classCount = Varint.read(b, at: &o) else { return false }
            for _ in 0..<classCount {
                guard let name = Self.readBytes(b, &o), let objectCount = Varint.read(b, at: &o) else { return false }
                var c = ClassImages()
                var key: ObjectKey = 0
                for _ in 0..<objectCount {
                    guard let delta = Varint.read(b, at: &o), let rowLength = Varint.read(b, at: &o), rowLength <= b.count - o else { return false }
                    key &+= delta
                    if rowLength > 0 {
                        _ = Self.record(UnsafeRawBufferPointer(rebasing: b[o..<(o + Int(rowLength))]), key, in: &c)
                        o += Int(rowLength)
                    }
                    guard let listCount = Varint.read(b, at: &o) else { return false }
                    var lists: [Int: List] = [:]
                    for _ in 0..<listCount {
                        guard let id = Varint.read(b, at: &o), id < 1 << 16, var list = Self.readList(b, &o),
                              let keysLength = Varint.read(b, at: &o) else { return false }
                        if keysLength > 0 {
                            guard keysLength - 1 <= b.count - o else { return false }
                            list.mapKeys = Array(b[o..<(o + Int(keysLength - 1))])
                            o += Int(keysLength - 1)
                        }
                        lists[Int(id)] = list
                    }
                    if !lists.isEmpty { c.lists[key] = lists }
                }
                setImages(c, of: String(decoding: name, as: UTF8.self))
            }
            return o == b.count
        }
        if !decoded { return nil }
    }

    /// Reads a list's directory and entries: nil unless the directory decodes (or is empty)
    /// and the old list had each entry, given in ascending order.
    private static func readList(_ bytes: UnsafeRawBufferPointer, _ o: inout Int) -> List? {
        guard let directory = readBytes(bytes, &o), let chunkCount = Varint.read(bytes, at: &o),
              directory.isEmpty || directory.withUnsafeBytes({ ListEncoding.Directory($0) }) != nil else { return nil }
        var chunks: [UInt32: [UInt8]] = [:]
        var previous: UInt64?
        for _ in 0..<chunkCount {
            guard let id = Varint.read(bytes, at: &o), previous.map({ id > $0 }) ?? true, id <= UInt32.max,
                  let chunk = readBytes(bytes, &o) else { return nil }
            chunks[UInt32(id)] = chunk
            previous = id
        }
        let list = List(directory: directory, chunks: chunks)
        return list.holdsOldEntriesOnly ? list : nil
    }

    private static func appendBytes(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        Varint.append(UInt64(bytes.count), to: &out)
        bytes.withUnsafeBytes { out.append(bytes: $0) }
    }

    private static func readBytes(_ bytes: UnsafeRawBufferPointer, _ o: inout Int) -> [UInt8]? {
        guard let n = Varint.read(bytes, at: &o), n <= bytes.count - o else { return nil }
        defer { o += Int(n) }
        return Array(bytes[o..<(o + Int(n))])
    }
}

extension HistoryEntry {
    /// The commit's before-images: nil when the entry has none (written with old values off,
    /// or by Strata before they were recorded), and then the versions before it cannot be
    /// rebuilt. Throws `.invalidDatabase` when they do not decode.
    package func oldValues() throws(StorageError) -> ObjectImages? {
        guard let ext = extensions.first(where: { $0.tag == Extension.oldValuesTag }) else { return nil }
        guard let decoded = ObjectImages(decoding: ext.bytes) else {
            throw StorageError(.invalidDatabase, "The old values in the history entry of version \(version) do not decode")
        }
        return decoded
    }

    /// Whether the state before this commit can be rebuilt from the state after it.
    package var isReversible: Bool {
        guard let ext = extensions.first(where: { $0.tag == Extension.oldValuesTag }) else { return false }
        return ext.bytes.first.map { $0 & 1 != 0 } ?? false
    }
}

/// Maps (docs/FILE-FORMAT.md, "Maps"): a map property is stored as a list of its values in the
/// order of their keys, and the keys in one entry beside the list's directory, so a key is
/// found by a binary search over the decoded keys and its value is read from one chunk.
extension ListStore {
    /// The key of the entry holding the sorted keys of `owner`'s map: owner(8 BE) then 'K',
    /// between the directory (8 bytes) and the chunks (12 bytes).
    static func mapKeysKey(_ owner: ObjectKey) -> ListKey { ListKey(mapKeysOf: owner) }

    /// The keys of `owner`'s map `property`, in increasing order.
    package func mapKeys(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) -> [String] {
        try read(table, property, key: Self.mapKeysKey(owner)) { (bytes) throws(StorageError) in
            guard let bytes else {
                try checkMissingDirectory(table, property, owner: owner)
                return []
            }
            guard let keys = MapKeysEncoding.decode(bytes) else { throw damagedList(table, property, owner) }
            return keys
        }
    }

    /// The value under `key` in `owner`'s map `property`, or nil when the key is absent.
    package func mapValue(_ table: Table, _ property: PropertySchema, owner: ObjectKey, forKey key: String) throws(StorageError) -> Value? {
        let keys = try mapKeys(table, property, owner: owner)
        let place = Self.place(of: key, in: keys)
        guard place.isMember else { return nil }
        return try value(table, property, owner: owner, at: place.index)
    }

    /// Stores `value` under `key` in `owner`'s map `property`, replacing the value there; false
    /// when the key was new.
    @discardableResult
    package func setMapValue(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ value: Value, forKey key: String) throws(StorageError) -> Bool {
        try Self.checkMapKey(key)
        var keys = try mapKeys(table, property, owner: owner)
        let place = Self.place(of: key, in: keys)
        if place.isMember {
            try replace(table, property, owner: owner, at: place.index, with: value)
            return true
        }
        try insertElements(table, property, owner: owner, [value], at: place.index)
        keys.insert(key, at: place.index)
        try put(table, property, key: Self.mapKeysKey(owner), MapKeysEncoding.encode(keys))
        return false
    }

    /// Removes `key` and its value from `owner`'s map `property`; false when it was absent.
    @discardableResult
    package func removeMapValue(_ table: Table, _ property: PropertySchema, owner: ObjectKey, forKey key: String) throws(StorageError) -> Bool {
        var keys = try mapKeys(table, property, owner: owner)
        let place = Self.place(of: key, in: keys)
        guard place.isMember else { return false }
        try remove(table, property, owner: owner, at: place.index)
        keys.remove(at: place.index)
        try putMapKeys(table, property, owner, keys)
        return true
    }

    /// Sets to null every value of `owner`'s map `property` that is `value` (a deleted object).
    func nullifyMapValues(_ table: Table, _ property: PropertySchema, owner: ObjectKey, equalTo value: Value) throws(StorageError) {
        for (i, v) in try values(table, property, owner: owner).enumerated() where v == value {
            try replace(table, property, owner: owner, at: i, with: .null)
        }
    }

    func putMapKeys(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ keys: [String]) throws(StorageError) {
        if keys.isEmpty {
            try deleteEntry(table, property, key: Self.mapKeysKey(owner))
        } else {
            try put(table, property, key: Self.mapKeysKey(owner), MapKeysEncoding.encode(keys))
        }
    }

    /// Rejects a key RealmSwift rejects: one containing "." or starting with "$".
    package static func checkMapKey(_ key: String) throws(StorageError) {
        if key.contains(".") || key.hasPrefix("$") {
            throw StorageError(.invalidInput, "Map key '\(key)' is not allowed: a key cannot contain '.' or start with '$'")
        }
    }

    /// Where `key` is or would go in sorted `keys` (by UTF-8 bytes, as the keys are stored).
    static func place(of key: String, in keys: [String]) -> (index: Int, isMember: Bool) {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] == key { return (middle, true) }
            if keys[middle].utf8.lexicographicallyPrecedes(key.utf8) { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }
}

/// How a map's keys are stored (docs/FILE-FORMAT.md, "Maps"): count:varint then, per key in
/// increasing UTF-8 byte order, length:varint utf8. Changing it breaks the file format.
enum MapKeysEncoding {
    static func encode(_ keys: [String]) -> [UInt8] {
        var out: [UInt8] = []
        Varint.append(UInt64(keys.count), to: &out)
        for k in keys {
            Varint.append(UInt64(k.utf8.count), to: &out)
            out.append(contentsOf: k.utf8)
        }
        return out
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> [String]? {
        var o = 0
        guard let n = Varint.read(bytes, at: &o), n <= bytes.count else { return nil }
        var keys: [String] = []
        keys.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let length = Varint.read(bytes, at: &o), length <= bytes.count - o else { return nil }
            keys.append(StoredString.decode(UnsafeRawBufferPointer(rebasing: bytes[o..<o + Int(length)])))
            o += Int(length)
        }
        return o == bytes.count ? keys : nil
    }
}

import LMDB

/// The backlinks of links held by mixed values (`Value.typedLink`), for every class in one
/// database (docs/FILE-FORMAT.md, "Typed links"): a mixed slot names its target's class in
/// the value, so one target key can be linked from any mixed property of any class. The key is
/// the target's class name, a 0 byte and its object key (8 bytes big endian); each duplicate
/// is an origin: its class name, a 0 byte, the property id (4 bytes), the owner's key
/// (8 bytes) and how many times that property holds the target (4 bytes; 1 for a single
/// value, the count for a list or map of mixed values). Written with the links themselves, so
/// a delete finds and clears the mixed values that point at the deleted object.
package struct TypedLinkStore {
    let transaction: StorageTransaction

    /// One object whose mixed property holds a link to a given target.
    package struct Origin: Equatable {
        /// The class of the object holding the link.
        package let className: String
        /// The stable id of its mixed property.
        package let property: Int
        /// Its key.
        package let owner: ObjectKey
        /// How many times the property holds the target.
        package let count: Int
    }

    /// The objects whose mixed properties hold a link to object `key` of class `className`.
    package func origins(of className: String, _ key: ObjectKey) throws(StorageError) -> [Origin] {
        guard let db = transaction.database(MetaKeys.typedLinks) else { return [] }
        let target = Self.targetKey(className, key)
        var found: [Origin] = []
        let txn = transaction.lmdb
        try StorageError.translating("Reading the links to '\(className)' object \(key) held by mixed values") {
            try target.withUnsafeBytes { k in
                try txn.withCursor(db) { cursor in
                    try cursor.forEachDuplicate(of: k) { value in
                        if let origin = Self.origin(value) { found.append(origin) }
                    }
                }
            }
        }
        return found
    }

    /// Every link held by a mixed value to any object of class `className`: each target key
    /// with its origins.
    package func origins(ofClass className: String) throws(StorageError) -> [(target: ObjectKey, origin: Origin)] {
        guard let db = transaction.database(MetaKeys.typedLinks) else { return [] }
        let prefix = Array(className.utf8) + [0]
        var found: [(ObjectKey, Origin)] = []
        let txn = transaction.lmdb
        try StorageError.translating("Reading the links to '\(className)' objects held by mixed values") {
            try prefix.withUnsafeBytes { p in
                try txn.withCursor(db) { cursor in
                    var entry = try cursor.seek(atLeast: p)
                    while let e = entry, e.key.count == prefix.count + 8, e.key.starts(with: prefix) {
                        let target = try ObjectKeyCoding.decode(UnsafeRawBufferPointer(rebasing: e.key.suffix(8)))
                        if let origin = Self.origin(e.value) { found.append((target, origin)) }
                        entry = try cursor.next()
                    }
                }
            }
        }
        return found
    }

    /// Every entry: each target (class and key) with one of its origins, in key order.
    package func all() throws(StorageError) -> [(className: String, target: ObjectKey, origin: Origin?)] {
        guard let db = transaction.database(MetaKeys.typedLinks) else { return [] }
        var found: [(String, ObjectKey, Origin?)] = []
        let txn = transaction.lmdb
        try StorageError.translating("Reading the links held by mixed values") {
            try txn.withCursor(db) { cursor in
                try cursor.forEach { k, v in
                    guard let zero = k.firstIndex(of: 0), k.count == zero + 9 else {
                        found.append(("", 0, nil))
                        return true
                    }
                    let name = String(decoding: UnsafeRawBufferPointer(rebasing: k[..<zero]), as: UTF8.self)
                    found.append((name, try ObjectKeyCoding.decode(UnsafeRawBufferPointer(rebasing: k[(zero + 1)...])), Self.origin(v)))
                    return true
                }
            }
        }
        return found
    }

    /// Adds `delta` to the times `owner`'s mixed property `property` of `origin` holds a link
    /// to object `key` of class `className` (the entry goes when that reaches 0).
    func changeOccurrences(_ origin: Table, _ property: PropertySchema, of className: String, _ key: ObjectKey,
                           in owner: ObjectKey, by delta: Int) throws(StorageError) {
        let db = try writableDatabase()
        let target = Self.targetKey(className, key)
        let prefix = Self.originPrefix(origin.name, property.id, owner)
        let txn = transaction.lmdb
        try StorageError.translating("Updating the links held by '\(origin.name).\(property.name)'") {
            try target.withUnsafeBytes { k in
                try txn.withCursor(db) { cursor in
                    var count = 0
                    if let e = try prefix.withUnsafeBytes({ try cursor.seek(key: k, valueAtLeast: $0) }),
                       e.value.count == prefix.count + 4, e.value.starts(with: prefix) {
                        count = Int(UInt32(bigEndian: e.value.loadUnaligned(fromByteOffset: prefix.count, as: UInt32.self)))
                        try cursor.deleteCurrent()
                    }
                    count += delta
                    guard count > 0 else { return }
                    var value = prefix
                    withUnsafeBytes(of: UInt32(count).bigEndian) { value.append(bytes: $0) }
                    try value.withUnsafeBytes { try txn.put(db, key: k, value: $0) }
                }
            }
        }
    }

    /// The database, which every process that opens the file for writing has (created then).
    func writableDatabase() throws(StorageError) -> Database {
        guard let db = transaction.database(MetaKeys.typedLinks) else {
            throw StorageError(.fail, "'\(transaction.file.path)' was opened without the database of links held by mixed values")
        }
        return db
    }

    private static func targetKey(_ className: String, _ key: ObjectKey) -> [UInt8] {
        var bytes = Array(className.utf8)
        bytes.append(0)
        IndexKey.appendBigEndian(key, to: &bytes)
        return bytes
    }

    private static func originPrefix(_ className: String, _ property: Int, _ owner: ObjectKey) -> [UInt8] {
        var bytes = Array(className.utf8)
        bytes.append(0)
        withUnsafeBytes(of: UInt32(property).bigEndian) { bytes.append(bytes: $0) }
        IndexKey.appendBigEndian(owner, to: &bytes)
        return bytes
    }

    /// Decodes a duplicate (nil for one of the wrong shape: `strata check` reports those).
    static func origin(_ value: UnsafeRawBufferPointer) -> Origin? {
        guard let zero = value.firstIndex(of: 0), value.count == zero + 1 + 16 else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: value[..<zero]), as: UTF8.self)
        let property = Int(UInt32(bigEndian: value.loadUnaligned(fromByteOffset: zero + 1, as: UInt32.self)))
        let owner = UInt64(bigEndian: value.loadUnaligned(fromByteOffset: zero + 5, as: UInt64.self))
        let count = Int(UInt32(bigEndian: value.loadUnaligned(fromByteOffset: zero + 13, as: UInt32.self)))
        return Origin(className: name, property: property, owner: owner, count: count)
    }
}

extension StorageTransaction {
    /// The backlinks of the links this transaction's mixed values hold.
    package var typedLinks: TypedLinkStore { TypedLinkStore(transaction: self) }
}

import LMDB

/// The entries of lists (directories, nodes, chunks): keys, reads and writes.
extension ListStore {
    /// The key of `owner`'s directory, or of its chunk or node `chunk`.
    static func key(_ owner: ObjectKey, chunk: UInt32? = nil) -> ListKey { ListKey(owner, entry: chunk) }

    func listDatabase(_ table: Table, _ property: PropertySchema) throws(StorageError) -> Database {
        guard let db = table.lists[property.id] else {
            throw StorageError(.fail, "'\(table.name).\(property.name)' is not a list")
        }
        return db
    }

    /// Calls `body` with the value stored under `key` (a directory, chunk or map keys), its
    /// seal verified and removed (`Checksum`) or decrypted, or nil when there is none.
    func read<T>(_ table: Table, _ property: PropertySchema, key: ListKey,
                         _ body: (UnsafeRawBufferPointer?) throws(StorageError) -> T) throws(StorageError) -> T {
        let db = try listDatabase(table, property)
        let txn = transaction.lmdb
        let sealRequired = transaction.seals, seed = table.listSeeds[property.id] ?? 0
        return try StorageError.translating("Reading the list '\(table.name).\(property.name)'") {
            try key.withUnsafeBytes { k in
                guard let stored = try txn.get(db, key: k) else { return try body(nil) }
                if let crypto = transaction.crypto {
                    return try crypto.withOpened(table.listNames[property.id] ?? [], key: k, stored) { (plain) throws in
                        guard let plain else { throw damagedList(table, property, key.owner) }
                        return try body(plain)
                    }
                }
                guard let opened = Checksum.opened(stored, seed, key: k, required: sealRequired) else {
                    throw damagedList(table, property, key.owner)
                }
                return try body(opened)
            }
        }
    }

    func chunk(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ id: UInt32) throws(StorageError) -> [[UInt8]?] {
        try read(table, property, key: Self.key(owner, chunk: id)) { (bytes) throws(StorageError) in
            guard let bytes, let elements = ListEncoding.elements(bytes) else { throw damagedList(table, property, owner) }
            return elements
        }
    }

    func damagedList(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey) -> StorageError {
        let path = transaction.file.path
        let kind = property.isMap ? "map" : property.isSet ? "set" : "list"
        return StorageError(.invalidDatabase, "'\(path)' is damaged: the \(kind) '\(table.name).\(property.name)' of object \(owner) \(transaction.seals ? "does not match its checksum or " : "")cannot be read; run `strata check \(path)`")
    }

    /// Writes `value` under `key`, sealed in a file whose records are sealed, encrypted in an
    /// encrypted one.
    func put(_ table: Table, _ property: PropertySchema, key: ListKey, _ value: [UInt8]) throws(StorageError) {
        let db = try listDatabase(table, property)
        try recordOldList(table, property, key)
        let txn = transaction.lmdb
        let sealed = transaction.seals, seed = table.listSeeds[property.id] ?? 0
        try StorageError.translating("Writing the list '\(table.name).\(property.name)'") {
            try key.withUnsafeBytes { k in
                let stored = if let crypto = transaction.crypto {
                    value.withUnsafeBytes { crypto.seal(table.listNames[property.id] ?? [], key: k, $0) }
                } else {
                    sealed ? Checksum.sealed(value, seed, key: k) : value
                }
                try stored.withUnsafeBytes { try txn.put(db, key: k, value: $0) }
            }
        }
    }

    func deleteEntry(_ table: Table, _ property: PropertySchema, key: ListKey) throws(StorageError) {
        let db = try listDatabase(table, property)
        try recordOldList(table, property, key)
        let txn = transaction.lmdb
        try StorageError.translating("Writing the list '\(table.name).\(property.name)'") {
            _ = try key.withUnsafeBytes { try txn.delete(db, key: $0) }
        }
    }

    /// Records the before-image of the list an entry `key` belongs to, before this write
    /// changes the entry: the list's old directory and map keys at its first change, and the
    /// entry's old bytes when it is a chunk or node the old list had.
    func recordOldList(_ table: Table, _ property: PropertySchema, _ key: ListKey) throws(StorageError) {
        try transaction.recordOldList(table, property, owner: key.owner)
        if let entry = key.entry { try transaction.recordOldChunk(table, property, owner: key.owner, entry) }
    }

    func decode(_ element: [UInt8]?, _ property: PropertySchema) -> Value {
        guard let element else { return .null }
        return element.withUnsafeBytes { ValueCodec.decode($0, as: property.type) }
    }

    func checkListValue(_ table: Table, _ property: PropertySchema, _ value: Value) throws(StorageError) {
        if case .null = value {
            if property.isOptional { return }
            throw StorageError(.invalidInput, "'\(table.name).\(property.name)' cannot hold nil")
        }
        if property.type == .link { try transaction.objects.checkLinkTarget(table, property, value) }
        if property.type == .mixed { try transaction.objects.checkMixedValue(table, property, value) }
        try ObjectWrites.checkSize(table, value)
    }
}

/// The old contents of lists, read before a commit's first change to them and written back
/// when a commit is undone (`OldValues`).
extension ListStore {
    /// The contents of `owner`'s list `property` as an `OldValues.List`.
    func image(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) -> OldValues.List {
        let dir = try directory(table, property, owner)
        var elements: [UInt8] = []
        Varint.append(UInt64(dir.total), to: &elements)
        for c in dir.chunks {
            try read(table, property, key: Self.key(owner, chunk: c.id)) { (bytes) throws(StorageError) in
                guard let bytes else { throw damagedList(table, property, owner) }
                elements.append(contentsOf: bytes)
            }
        }
        var mapKeys: [UInt8]?
        if property.isMap {
            mapKeys = try read(table, property, key: Self.mapKeysKey(owner)) { $0.map(Array.init) }
        }
        return OldValues.List(elements: elements, mapKeys: mapKeys)
    }

    /// Replaces `owner`'s list `property` with `image` as it is, with its backlinks, recording
    /// nothing: the list of a version being rebuilt.
    func restore(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ image: OldValues.List) throws(StorageError) {
        try clear(table, property, owner: owner)
        var o = 0
        let elements: [[UInt8]?]? = image.elements.withUnsafeBytes { bytes in
            guard let total = Varint.read(bytes, at: &o),
                  let elements = ListEncoding.elements(UnsafeRawBufferPointer(rebasing: bytes[o...])),
                  elements.count == total else { return nil }
            return elements
        }
        guard let elements else { throw damagedList(table, property, owner) }
        if elements.isEmpty { return }
        var dir = ListEncoding.Directory()
        try writeRuns(table, property, owner, &dir, at: 0, elements: elements)
        dir.total = elements.count
        try putDirectory(table, property, owner, dir)
        if let keys = image.mapKeys { try put(table, property, key: Self.mapKeysKey(owner), keys) }
        if property.type == .link {
            for case .link(let target) in elements.map({ decode($0, property) }) {
                try transaction.links.changeOccurrences(table, property, of: target, in: owner, by: 1)
            }
        }
    }

    /// Empties `owner`'s list `property` and its backlinks, recording nothing.
    func clear(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) {
        let dir = try directory(table, property, owner)
        if dir.total == 0 && !property.isMap { return }
        if property.type == .link {
            for case .link(let target) in try values(table, property, owner: owner) {
                try transaction.links.changeOccurrences(table, property, of: target, in: owner, by: -1)
            }
        }
        for c in dir.chunks { try deleteEntry(table, property, key: Self.key(owner, chunk: c.id)) }
        try deleteEntry(table, property, key: Self.key(owner))
        if property.isMap { try deleteEntry(table, property, key: Self.mapKeysKey(owner)) }
    }
}

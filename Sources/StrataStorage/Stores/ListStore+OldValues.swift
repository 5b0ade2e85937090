/// The before-images of lists (`ObjectImages.List`): taken at a commit's first change to a list,
/// assembled back into the old elements, and written back when a commit is undone.
extension ListStore {
    /// The start of `owner`'s list `property`'s before-image: its directory and map keys as
    /// they are now (the chunks follow as the commit changes them).
    func image(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) -> ObjectImages.List {
        let directory = try read(table, property, key: Self.key(owner)) { $0.map(Array.init) } ?? []
        var mapKeys: [UInt8]?
        if property.isMap {
            mapKeys = try read(table, property, key: Self.mapKeysKey(owner)) { $0.map(Array.init) }
        }
        return ObjectImages.List(directory: directory, mapKeys: mapKeys)
    }

    /// The directory `image` holds (empty when the list had none).
    private func oldDirectory(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                              _ image: ObjectImages.List) throws(StorageError) -> ListEncoding.Directory {
        if image.directory.isEmpty { return ListEncoding.Directory() }
        guard let dir = image.directory.withUnsafeBytes({ ListEncoding.Directory($0) }) else { throw damagedList(table, property, owner) }
        return dir
    }

    /// The chunks, in order, and the nodes of the list `image` holds the directory of: each
    /// node as the image holds it, or else as it is now.
    private func oldLayout(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                           _ image: ObjectImages.List) throws(StorageError) -> (chunks: [ListEncoding.Entry], nodes: [UInt32]) {
        let dir = try oldDirectory(table, property, owner, image)
        let chunks = try chunks(of: dir) { (entry) throws(StorageError) in
            guard let bytes = image.chunks[entry.id] else { return try node(table, property, owner, entry) }
            guard let node = bytes.withUnsafeBytes({ ListEncoding.Node($0, count: entry.count) }) else { throw damagedList(table, property, owner) }
            return node
        }
        return (chunks, dir.isNested ? dir.entries.map(\.id) : [])
    }

    /// The elements `owner`'s list `property` had before the commit whose before-image is
    /// `image`: each chunk (and node) of its old directory as the image holds it, or else as
    /// it is now. Exact while the entries the image does not hold are as that commit left
    /// them: when the commit is undone with every later one undone first, or when no later
    /// commit changed the list.
    func oldElements(_ table: Table, _ property: PropertySchema, owner: ObjectKey,
                     _ image: ObjectImages.List) throws(StorageError) -> [[UInt8]?] {
        var elements: [[UInt8]?] = []
        elements.reserveCapacity(image.count)
        for c in try oldLayout(table, property, owner, image).chunks {
            let chunk: [[UInt8]?]
            if let bytes = image.chunks[c.id] {
                chunk = try decodedChunk(table, property, owner, bytes)
            } else {
                chunk = try self.chunk(table, property, owner, c.id)
            }
            guard chunk.count == c.count else { throw damagedList(table, property, owner) }
            elements.append(contentsOf: chunk)
        }
        return elements
    }

    /// The elements of the chunk `bytes` (a before-image's).
    private func decodedChunk(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                              _ bytes: [UInt8]) throws(StorageError) -> [[UInt8]?] {
        guard let elements = bytes.withUnsafeBytes({ ListEncoding.elements($0) }) else { throw damagedList(table, property, owner) }
        return elements
    }

    /// Puts `owner`'s list `property` back as `image` has it, with its backlinks, recording
    /// nothing: the list of a version being rebuilt, undoing the commit `image` is from when
    /// every later commit is undone. The old directory, map keys and the chunks and nodes the
    /// image holds are written back under their ids; the entries the commit created are
    /// deleted; the others the commit did not touch and stay. The list then has the layout it
    /// had before the commit, ids included, as undoing the commit before it needs.
    func restore(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ image: ObjectImages.List) throws(StorageError) {
        let old = try oldLayout(table, property, owner, image)
        let current = try layout(table, property, owner)
        let untouched = Set((old.chunks.lazy.map(\.id) + old.nodes).filter { image.chunks[$0] == nil })
        let currentIDs = current.chunks.map(\.id) + current.nodes
        guard untouched.isSubset(of: currentIDs) else { throw damagedList(table, property, owner) }
        for c in current.chunks where !untouched.contains(c.id) {
            if property.canHoldLinks { try changeBacklinks(table, property, owner, of: chunk(table, property, owner, c.id), by: -1) }
            try deleteEntry(table, property, key: Self.key(owner, chunk: c.id))
        }
        for id in current.nodes where !untouched.contains(id) { try deleteEntry(table, property, key: Self.key(owner, chunk: id)) }
        for c in old.chunks {
            guard let bytes = image.chunks[c.id] else { continue }
            let elements = try decodedChunk(table, property, owner, bytes)
            guard elements.count == c.count else { throw damagedList(table, property, owner) }
            try changeBacklinks(table, property, owner, of: elements, by: 1)
            try put(table, property, key: Self.key(owner, chunk: c.id), bytes)
        }
        for id in old.nodes {
            guard let bytes = image.chunks[id] else { continue }
            try put(table, property, key: Self.key(owner, chunk: id), bytes)
        }
        if image.directory.isEmpty {
            try deleteEntry(table, property, key: Self.key(owner))
        } else {
            try put(table, property, key: Self.key(owner), image.directory)
        }
        if let keys = image.mapKeys {
            try put(table, property, key: Self.mapKeysKey(owner), keys)
        } else if property.isMap {
            try deleteEntry(table, property, key: Self.mapKeysKey(owner))
        }
    }

    /// Adds `delta` to the backlinks of the objects `elements` (of a list of objects or of
    /// mixed values) link to.
    private func changeBacklinks(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                                 of elements: [[UInt8]?], by delta: Int) throws(StorageError) {
        guard property.canHoldLinks else { return }
        for element in elements {
            try transaction.links.changeOccurrences(of: decode(element, property), table, property, in: owner, by: delta)
        }
    }

    /// Empties `owner`'s list `property` and its backlinks, recording nothing.
    func clear(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws(StorageError) {
        let (dir, chunks, nodes) = try layout(table, property, owner)
        if dir.total == 0 && !property.isMap { return }
        if property.canHoldLinks {
            for v in try values(table, property, owner: owner) { try transaction.links.changeOccurrences(of: v, table, property, in: owner, by: -1) }
        }
        try deleteEntries(table, property, owner, nodes: nodes, chunks: chunks)
        if property.isMap { try deleteEntry(table, property, key: Self.mapKeysKey(owner)) }
    }
}

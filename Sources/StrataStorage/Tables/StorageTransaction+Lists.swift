import LMDB

// Lists (docs/FILE-FORMAT.md, "Lists"): each list property has its own database holding, per
// owner object, a directory and chunks of at most 256 elements (ListEncoding). Reading element i
// reads the directory and one chunk; inserting or removing rewrites one chunk and the
// directory. Lists of objects also keep backlinks: target key → (owner key, occurrences).

extension StorageTransaction {
    /// Number of elements in `owner`'s list `property`.
    package func listCount(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws -> Int {
        try read(table, property, key: Self.listKey(owner)) { bytes in
            guard let bytes else { return 0 }
            var o = 0
            guard let total = Varint.read(bytes, at: &o) else { throw damagedList(table, property, owner) }
            return Int(total)
        }
    }

    /// Element `index` of `owner`'s list `property`: reads the directory and one chunk, and
    /// decodes only that element.
    package func listValue(_ table: Table, _ property: PropertySchema, owner: ObjectKey, at index: Int) throws -> Value {
        let found = try read(table, property, key: Self.listKey(owner)) { bytes -> (total: Int, chunk: UInt32, offset: Int)? in
            guard let bytes else { return nil }
            guard let found = ListEncoding.Directory.find(index, in: bytes) else { throw damagedList(table, property, owner) }
            return found
        }
        guard let found, index >= 0, index < found.total else {
            throw StorageError(.invalidInput, "Index \(index) is out of bounds (the list has \(found?.total ?? 0) elements)")
        }
        return try read(table, property, key: Self.listKey(owner, chunk: found.chunk)) { bytes in
            guard let bytes, let element = ListEncoding.element(at: found.offset, in: bytes) else { throw damagedList(table, property, owner) }
            return element.map { ValueCodec.decode($0, as: property.type) } ?? .null
        }
    }

    /// Every element of `owner`'s list `property`, in order.
    package func listValues(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws -> [Value] {
        let dir = try directory(table, property, owner)
        var values: [Value] = []
        values.reserveCapacity(dir.total)
        let type = property.type
        for c in dir.chunks {
            // Decoded in place from the chunk's bytes: no copy of each element first.
            try read(table, property, key: Self.listKey(owner, chunk: c.id)) { bytes in
                let whole = bytes.map { ListEncoding.forEachElement(in: $0) { values.append($0.map { ValueCodec.decode($0, as: type) } ?? .null) } }
                guard whole == true else { throw damagedList(table, property, owner) }
            }
        }
        return values
    }

    /// Inserts `values` at `index` (0...count) of `owner`'s list `property`.
    package func listInsert(_ table: Table, _ property: PropertySchema, owner: ObjectKey, _ values: [Value], at index: Int) throws {
        if values.isEmpty { return }
        for v in values { try checkListValue(table, property, v) }
        var dir = try directory(table, property, owner)
        guard index >= 0, index <= dir.total else {
            throw StorageError(.invalidInput, "Index \(index) is out of bounds (the list has \(dir.total) elements)")
        }
        let new = values.map { ListEncoding.element($0, of: property.type) }
        if dir.chunks.isEmpty {
            try writeRuns(table, property, owner, &dir, at: 0, elements: new)
        } else {
            let (c, offset) = dir.locate(index)!
            var elements = try chunk(table, property, owner, dir.chunks[c].id)
            elements.insert(contentsOf: new, at: offset)
            try replaceChunk(table, property, owner, &dir, c, with: elements)
        }
        dir.total += values.count
        try putDirectory(table, property, owner, dir)
        for v in values { if case .link(let target) = v { try changeListBacklink(table, property, target, owner, by: 1) } }
        record(table) { $0.recordModify(owner, property: property.id) }
    }

    /// Removes element `index` of `owner`'s list `property` and returns it.
    @discardableResult
    package func listRemove(_ table: Table, _ property: PropertySchema, owner: ObjectKey, at index: Int) throws -> Value {
        var dir = try directory(table, property, owner)
        guard index >= 0, index < dir.total, let (c, offset) = dir.locate(index) else {
            throw StorageError(.invalidInput, "Index \(index) is out of bounds (the list has \(dir.total) elements)")
        }
        var elements = try chunk(table, property, owner, dir.chunks[c].id)
        let removed = decode(elements.remove(at: offset), property)
        try replaceChunk(table, property, owner, &dir, c, with: elements)
        dir.total -= 1
        try putDirectory(table, property, owner, dir)
        if case .link(let target) = removed { try changeListBacklink(table, property, target, owner, by: -1) }
        record(table) { $0.recordModify(owner, property: property.id) }
        return removed
    }

    /// Replaces element `index` of `owner`'s list `property` with `value`.
    package func listReplace(_ table: Table, _ property: PropertySchema, owner: ObjectKey, at index: Int, with value: Value) throws {
        try checkListValue(table, property, value)
        var dir = try directory(table, property, owner)
        guard index >= 0, index < dir.total, let (c, offset) = dir.locate(index) else {
            throw StorageError(.invalidInput, "Index \(index) is out of bounds (the list has \(dir.total) elements)")
        }
        var elements = try chunk(table, property, owner, dir.chunks[c].id)
        let old = decode(elements[offset], property)
        elements[offset] = ListEncoding.element(value, of: property.type)
        try replaceChunk(table, property, owner, &dir, c, with: elements)
        try putDirectory(table, property, owner, dir)
        if case .link(let target) = old { try changeListBacklink(table, property, target, owner, by: -1) }
        if case .link(let target) = value { try changeListBacklink(table, property, target, owner, by: 1) }
        record(table) { $0.recordModify(owner, property: property.id) }
    }

    /// Empties `owner`'s list `property`.
    package func listRemoveAll(_ table: Table, _ property: PropertySchema, owner: ObjectKey) throws {
        let dir = try directory(table, property, owner)
        if dir.total == 0 { return }
        if property.type == .link {
            for v in try listValues(table, property, owner: owner) {
                if case .link(let target) = v { try changeListBacklink(table, property, target, owner, by: -1) }
            }
        }
        for c in dir.chunks { try deleteEntry(table, property, key: Self.listKey(owner, chunk: c.id)) }
        try deleteEntry(table, property, key: Self.listKey(owner))
        record(table) { $0.recordModify(owner, property: property.id) }
    }

    /// Removes every occurrence of object `target` from the lists of objects that hold it
    /// (before `target` is deleted).
    func unlistIncoming(_ targetTable: Table, _ target: ObjectKey) throws {
        for (originSchema, property) in schema.lists(of: targetTable.name) {
            guard let origin = try table(originSchema.name) else { continue }
            for owner in try origins(origin, property, linkingTo: target) {
                let kept = try listValues(origin, property, owner: owner).filter { $0 != .link(target) }
                try listRemoveAll(origin, property, owner: owner)
                try listInsert(origin, property, owner: owner, kept, at: 0)
            }
        }
    }

    /// Empties every list of objects of `targetTable` held by other classes (before the class
    /// is cleared).
    func unlistAllIncoming(_ targetTable: Table) throws {
        for (originSchema, property) in schema.lists(of: targetTable.name) where originSchema.name != targetTable.name {
            guard let origin = try table(originSchema.name), let db = origin.lists[property.id] else { continue }
            var owners: [ObjectKey] = []
            try lmdbCall("Reading the lists of '\(origin.name).\(property.name)'") {
                try lmdb.withCursor(db) { cursor in
                    var entry = try cursor.first()
                    while let e = entry {
                        if e.key.count == 8 { owners.append(ObjectKeyCoding.decode(e.key)) }
                        entry = try cursor.next()
                    }
                    try lmdb.empty(db)
                    if let backlinks = origin.backlinks[property.id] { try lmdb.empty(backlinks) }
                }
            }
            record(origin) { c in for owner in owners { c.recordModify(owner, property: property.id) } }
        }
    }

    // MARK: Chunks and directories

    private static func listKey(_ owner: ObjectKey, chunk: UInt32? = nil) -> [UInt8] {
        var key: [UInt8] = []
        IndexKey.appendBigEndian(owner, to: &key)
        if let chunk { withUnsafeBytes(of: chunk.bigEndian) { key.append(contentsOf: $0) } }
        return key
    }

    private func listDatabase(_ table: Table, _ property: PropertySchema) throws -> Database {
        guard let db = table.lists[property.id] else {
            throw StorageError(.fail, "'\(table.name).\(property.name)' is not a list")
        }
        return db
    }

    private func read<T>(_ table: Table, _ property: PropertySchema, key: [UInt8],
                         _ body: (UnsafeRawBufferPointer?) throws -> T) throws -> T {
        let db = try listDatabase(table, property)
        return try lmdbCall("Reading the list '\(table.name).\(property.name)'") {
            try key.withUnsafeBytes { try body(try lmdb.get(db, key: $0)) }
        }
    }

    private func directory(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey) throws -> ListEncoding.Directory {
        try read(table, property, key: Self.listKey(owner)) { bytes in
            guard let bytes else { return ListEncoding.Directory() }
            guard let dir = ListEncoding.Directory(bytes) else { throw damagedList(table, property, owner) }
            return dir
        }
    }

    private func chunk(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ id: UInt32) throws -> [[UInt8]?] {
        try read(table, property, key: Self.listKey(owner, chunk: id)) { bytes in
            guard let bytes, let elements = ListEncoding.elements(bytes) else { throw damagedList(table, property, owner) }
            return elements
        }
    }

    private func damagedList(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey) -> StorageError {
        StorageError(.invalidDatabase, "'\(file.path)' is damaged: the list '\(table.name).\(property.name)' of object \(owner) cannot be read")
    }

    private func put(_ table: Table, _ property: PropertySchema, key: [UInt8], _ value: [UInt8]) throws {
        let db = try listDatabase(table, property)
        try lmdbCall("Writing the list '\(table.name).\(property.name)'") {
            try key.withUnsafeBytes { k in try value.withUnsafeBytes { try lmdb.put(db, key: k, value: $0) } }
        }
    }

    private func deleteEntry(_ table: Table, _ property: PropertySchema, key: [UInt8]) throws {
        let db = try listDatabase(table, property)
        try lmdbCall("Writing the list '\(table.name).\(property.name)'") {
            _ = try key.withUnsafeBytes { try lmdb.delete(db, key: $0) }
        }
    }

    private func putDirectory(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ dir: ListEncoding.Directory) throws {
        if dir.total == 0 {
            try deleteEntry(table, property, key: Self.listKey(owner))
        } else {
            try put(table, property, key: Self.listKey(owner), dir.encoded())
        }
    }

    /// Writes chunk `c` as `elements`, splitting it when it overflows and dropping it when empty.
    private func replaceChunk(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                              _ dir: inout ListEncoding.Directory, _ c: Int, with elements: [[UInt8]?]) throws {
        let id = dir.chunks[c].id
        if elements.isEmpty {
            try deleteEntry(table, property, key: Self.listKey(owner, chunk: id))
            dir.chunks.remove(at: c)
            return
        }
        let runs = ListEncoding.runs(elements)
        try put(table, property, key: Self.listKey(owner, chunk: id), ListEncoding.chunk(runs[0]))
        dir.chunks[c].count = runs[0].count
        var position = c + 1
        for run in runs.dropFirst() {
            let newID = dir.nextChunk
            dir.nextChunk &+= 1
            try put(table, property, key: Self.listKey(owner, chunk: newID), ListEncoding.chunk(run))
            dir.chunks.insert((newID, run.count), at: position)
            position += 1
        }
    }

    /// Writes `elements` as new chunks at directory position `position`.
    private func writeRuns(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                           _ dir: inout ListEncoding.Directory, at position: Int, elements: [[UInt8]?]) throws {
        var position = position
        for run in ListEncoding.runs(elements) {
            let id = dir.nextChunk
            dir.nextChunk &+= 1
            try put(table, property, key: Self.listKey(owner, chunk: id), ListEncoding.chunk(run))
            dir.chunks.insert((id, run.count), at: position)
            position += 1
        }
    }

    private func decode(_ element: [UInt8]?, _ property: PropertySchema) -> Value {
        guard let element else { return .null }
        return element.withUnsafeBytes { ValueCodec.decode($0, as: property.type) }
    }

    private func checkListValue(_ table: Table, _ property: PropertySchema, _ value: Value) throws {
        if case .null = value {
            if property.isOptional { return }
            throw StorageError(.invalidInput, "'\(table.name).\(property.name)' cannot hold nil")
        }
        if property.type == .link { try checkLinkTarget(table, property, value) }
        if property.type == .mixed { try checkMixedValue(table, property, value) }
        try checkSizes(table, [value])
    }

    // MARK: Backlinks of object lists: target → (owner key, occurrences)

    /// Adds `delta` occurrences of `target` in `owner`'s list to the backlinks.
    private func changeListBacklink(_ table: Table, _ property: PropertySchema, _ target: ObjectKey,
                                    _ owner: ObjectKey, by delta: Int) throws {
        guard let db = table.backlinks[property.id] else { return }
        var key = ObjectKeyCoding.encode(target)
        var probe: [UInt8] = []
        IndexKey.appendBigEndian(owner, to: &probe)
        probe += [0, 0, 0, 0]
        try lmdbCall("Updating the backlinks of '\(table.name).\(property.name)'") {
            try withUnsafeBytes(of: &key) { k in
                try lmdb.withCursor(db) { cursor in
                    var count = 0
                    if let e = try probe.withUnsafeBytes({ try cursor.seek(key: k, valueAtLeast: $0) }), e.value.count == 12,
                       ObjectKeyCoding.decode(e.value) == owner {
                        count = Int(UInt32(bigEndian: e.value.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
                        try cursor.deleteCurrent()
                    }
                    count += delta
                    guard count > 0 else { return }
                    var value = Array(probe.prefix(8))
                    withUnsafeBytes(of: UInt32(count).bigEndian) { value.append(contentsOf: $0) }
                    try value.withUnsafeBytes { try lmdb.put(db, key: k, value: $0) }
                }
            }
        }
    }
}

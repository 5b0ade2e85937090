import LMDB

/// The part of a list's directory a write at one position reads and rewrites: the list's
/// chunks when its directory is flat; when it is nested, the chunks of the one node holding
/// the position.
struct ChunkRun {
    var directory: ListEncoding.Directory
    /// For a nested directory: the position in `directory.entries` of the run's node.
    let node: Int?
    /// The run's chunks, in list order.
    var chunks: [ListEncoding.Entry]
    /// The list position of the run's first element.
    let start: Int

    /// The chunk holding list position `index` (or, for the run's end, the last chunk and
    /// its end), and the offset in it.
    func locate(_ index: Int) -> (chunk: Int, offset: Int)? {
        ListEncoding.locate(index - start, in: chunks).map { ($0.entry, $0.offset) }
    }
}

extension ListEncoding.Directory {
    /// Takes the next chunk or node id.
    mutating func takeID() -> UInt32 {
        defer { nextChunk &+= 1 }
        return nextChunk
    }
}

/// Directories: reading them, the run of chunks a write changes, writing them back (nesting a
/// long list's, splitting its nodes), and every chunk of a list.
extension ListStore {
    func directory(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey) throws(StorageError) -> ListEncoding.Directory {
        try read(table, property, key: Self.key(owner)) { (bytes) throws(StorageError) in
            guard let bytes else {
                try checkMissingDirectory(table, property, owner: owner)
                return ListEncoding.Directory()
            }
            guard let dir = ListEncoding.Directory(bytes) else { throw damagedList(table, property, owner) }
            return dir
        }
    }

    /// The node of a nested directory that `entry` names.
    func node(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ entry: ListEncoding.Entry) throws(StorageError) -> ListEncoding.Node {
        try read(table, property, key: Self.key(owner, chunk: entry.id)) { (bytes) throws(StorageError) in
            guard let bytes, let node = ListEncoding.Node(bytes, count: entry.count) else { throw damagedList(table, property, owner) }
            return node
        }
    }

    /// The run of chunks holding position `index` of `owner`'s list `property`, for a write
    /// to change: an index in `0..<count`, or also `count` (where an append goes) when `orEnd`,
    /// which a nil index stands for.
    func run(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, at index: Int?, orEnd: Bool = false) throws(StorageError) -> ChunkRun {
        let dir = try directory(table, property, owner)
        let index = index ?? dir.total
        guard index >= 0, index < dir.total || (orEnd && index == dir.total) else {
            throw StorageError(.invalidInput, "Index \(index) is out of bounds (the list has \(dir.total) elements)")
        }
        guard dir.isNested else { return ChunkRun(directory: dir, node: nil, chunks: dir.entries, start: 0) }
        guard let (n, offset) = ListEncoding.locate(index, in: dir.entries) else { throw damagedList(table, property, owner) }
        // The node's before-image first: it tells which of its chunks the old list had.
        try recordOldList(table, property, Self.key(owner, chunk: dir.entries[n].id))
        return ChunkRun(directory: dir, node: n, chunks: try node(table, property, owner, dir.entries[n]).chunks, start: index - offset)
    }

    /// Writes `run` back, the list now `delta` elements longer: its chunks into its node (in
    /// several when they overflow it, none when empty) or into the flat directory (nested
    /// once it overflows, in a file whose format has nested directories), then the directory.
    func store(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ run: ChunkRun, adding delta: Int) throws(StorageError) {
        var dir = run.directory
        dir.total += delta
        if let n = run.node {
            dir.entries.remove(at: n)
            try insertNodes(table, property, owner, &dir, at: n, holding: run.chunks, reusing: run.directory.entries[n].id)
        } else if transaction.nestsLists, run.chunks.count > ListEncoding.nodeCapacity {
            dir.entries = []
            dir.isNested = true
            try insertNodes(table, property, owner, &dir, at: 0, holding: run.chunks, reusing: nil)
        } else {
            dir.entries = run.chunks
        }
        if dir.total == 0 {
            try deleteEntry(table, property, key: Self.key(owner))
        } else {
            try put(table, property, key: Self.key(owner), dir.encoded())
        }
    }

    /// Writes `chunks` as nodes of `dir` at entry position `position`: one node, or when they
    /// overflow one, nodes of half a node's capacity; none when there are no chunks. The
    /// first node takes id `reused` (whose node is deleted when none is written).
    private func insertNodes(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ dir: inout ListEncoding.Directory,
                             at position: Int, holding chunks: [ListEncoding.Entry], reusing reused: UInt32?) throws(StorageError) {
        let size = chunks.count > ListEncoding.nodeCapacity ? ListEncoding.nodeCapacity / 2 : ListEncoding.nodeCapacity
        var reused = reused
        for (i, first) in stride(from: 0, to: chunks.count, by: size).enumerated() {
            let part = Array(chunks[first..<min(first + size, chunks.count)])
            let id = reused ?? dir.takeID()
            reused = nil
            try put(table, property, key: Self.key(owner, chunk: id), ListEncoding.Node(part).encoded())
            dir.entries.insert((id, part.reduce(0) { $0 + $1.count }), at: position + i)
        }
        if let reused { try deleteEntry(table, property, key: Self.key(owner, chunk: reused)) }
    }

    /// The chunks of the list `dir` describes, in order: its entries, or when it is nested
    /// the chunks of each node, as `node` reads it.
    func chunks(of dir: ListEncoding.Directory,
                _ node: (ListEncoding.Entry) throws(StorageError) -> ListEncoding.Node) throws(StorageError) -> [ListEncoding.Entry] {
        guard dir.isNested else { return dir.entries }
        var chunks: [ListEncoding.Entry] = []
        for entry in dir.entries { chunks += try node(entry).chunks }
        return chunks
    }

    /// `owner`'s list `property` as stored: its directory, every chunk in order, and the
    /// nodes of a nested directory.
    func layout(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey) throws(StorageError)
        -> (directory: ListEncoding.Directory, chunks: [ListEncoding.Entry], nodes: [UInt32]) {
        let dir = try directory(table, property, owner)
        let chunks = try chunks(of: dir) { (entry) throws(StorageError) in try node(table, property, owner, entry) }
        return (dir, chunks, dir.isNested ? dir.entries.map(\.id) : [])
    }

    /// Deletes the `nodes` and `chunks` of `owner`'s list `property`, then its directory.
    func deleteEntries(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                       nodes: [UInt32], chunks: [ListEncoding.Entry]) throws(StorageError) {
        // Nodes first: a nested list's before-image takes a chunk's old bytes once it holds
        // the chunk's node.
        for id in nodes + chunks.map(\.id) { try deleteEntry(table, property, key: Self.key(owner, chunk: id)) }
        try deleteEntry(table, property, key: Self.key(owner))
    }

    /// Replaces `removing` elements at `offset` of chunk `c` of `run` with `new` and returns the
    /// removed ones. The chunk's bytes are spliced, not decoded, unless the result overflows a
    /// chunk and is split (`replaceChunk`); a chunk left empty is dropped.
    func splice(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ run: inout ChunkRun, _ c: Int,
                at offset: Int, removing: Int, inserting new: [[UInt8]?]) throws(StorageError) -> [[UInt8]?] {
        let (spliced, removed) = try read(table, property, key: Self.key(owner, chunk: run.chunks[c].id)) { (bytes) throws(StorageError) in
            guard let bytes, let place = ListEncoding.boundaries(offset, offset + removing, in: bytes), place.count == run.chunks[c].count,
                  let removed = ListEncoding.elements(UnsafeRawBufferPointer(rebasing: bytes[place.first..<place.second])) else {
                throw damagedList(table, property, owner)
            }
            var spliced = Array(bytes[..<place.first])
            for e in new { ListEncoding.append(element: e, to: &spliced) }
            spliced.append(bytes: UnsafeRawBufferPointer(rebasing: bytes[place.second...]))
            return (spliced, removed)
        }
        let count = run.chunks[c].count - removing + new.count
        if count > 0, count <= ListEncoding.chunkCapacity, spliced.count <= ListEncoding.chunkBytes {
            try put(table, property, key: Self.key(owner, chunk: run.chunks[c].id), spliced)
            run.chunks[c].count = count
        } else {
            guard let elements = spliced.withUnsafeBytes({ ListEncoding.elements($0) }) else { throw damagedList(table, property, owner) }
            try replaceChunk(table, property, owner, &run, c, with: elements)
        }
        return removed
    }

    /// Writes chunk `c` of `run` as `elements`, splitting it when it overflows and dropping it
    /// when empty.
    private func replaceChunk(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                      _ run: inout ChunkRun, _ c: Int, with elements: [[UInt8]?]) throws(StorageError) {
        let id = run.chunks[c].id
        if elements.isEmpty {
            try deleteEntry(table, property, key: Self.key(owner, chunk: id))
            run.chunks.remove(at: c)
            return
        }
        let runs = ListEncoding.runs(elements)
        try put(table, property, key: Self.key(owner, chunk: id), ListEncoding.chunk(runs[0]))
        run.chunks[c].count = runs[0].count
        try writeRuns(table, property, owner, &run, at: c + 1, elements: runs.dropFirst())
    }

    /// Writes `runs` as new chunks at position `position` of `run`.
    func writeRuns(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey,
                   _ run: inout ChunkRun, at position: Int, elements runs: some Sequence<ArraySlice<[UInt8]?>>) throws(StorageError) {
        var position = position
        for elements in runs {
            let id = run.directory.takeID()
            try put(table, property, key: Self.key(owner, chunk: id), ListEncoding.chunk(elements))
            run.chunks.insert((id, elements.count), at: position)
            position += 1
        }
    }
}

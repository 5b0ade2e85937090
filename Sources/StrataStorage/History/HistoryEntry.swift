import Foundation

/// One commit's history entry, stored under its version in `strata.history` in the same LMDB
/// transaction as the data it describes (docs/FILE-FORMAT.md, "History").
package struct HistoryEntry: Equatable, Sendable {
    package var version: UInt64
    /// Commit time, seconds since 1970.
    package var time: Double
    package var pid: Int32
    package var processName: String
    package var description: String?
    package var changes: ChangeSet
    /// Tagged sections after the change set (docs/FILE-FORMAT.md, "Extensions"): the commit's
    /// before-images under `Extension.oldValuesTag` (`ObjectImages`), the pages in use before it
    /// under `Extension.pagesBeforeTag`, and on a replication origin its after-images under
    /// `Extension.newValuesTag` and the schema it set under `Extension.schemaTag`. Unknown tags
    /// are kept as they are.
    package var extensions: [Extension]

    /// One tagged section at the end of an entry.
    package struct Extension: Equatable, Sendable {
        /// The before-images of what the commit modified or deleted (`ObjectImages`).
        package static let oldValuesTag: UInt8 = 1
        /// The pages in use by the file's newest committed version when the write began (the
        /// previous version's size), as a varint.
        package static let pagesBeforeTag: UInt8 = 2
        /// The after-images of what the commit inserted or modified (`ObjectImages`), recorded
        /// on a replication origin.
        package static let newValuesTag: UInt8 = 3
        /// The stored schema after the commit (its JSON), when the commit changed it, recorded
        /// on a replication origin.
        package static let schemaTag: UInt8 = 4
        /// Marks a migration's commit (empty): its change set is empty, though it may have
        /// rewritten every object.
        package static let migrationTag: UInt8 = 5

        package var tag: UInt8
        package var bytes: [UInt8]
        package init(tag: UInt8, bytes: [UInt8]) {
            self.tag = tag
            self.bytes = bytes
        }
    }

    package init(version: UInt64, time: Double, pid: Int32, processName: String, description: String?, changes: ChangeSet,
                 extensions: [Extension] = []) {
        self.version = version
        self.time = time
        self.pid = pid
        self.processName = processName
        self.description = description
        self.changes = changes
        self.extensions = extensions
    }

    /// The pages in use by the previous version (`Extension.pagesBeforeTag`): entry V records
    /// the size of version V-1. Nil for entries written without it, or a damaged section.
    package var pagesInUseBefore: UInt64? {
        guard let ext = extensions.first(where: { $0.tag == Extension.pagesBeforeTag }) else { return nil }
        return ext.bytes.withUnsafeBytes { bytes in
            var o = 0
            guard let pages = Varint.read(bytes, at: &o), o == bytes.count else { return nil }
            return pages
        }
    }

    /// Whether the commit was a migration (`Extension.migrationTag`): what it changed is not
    /// in its change set.
    package var isMigration: Bool { extensions.contains { $0.tag == Extension.migrationTag } }

    /// Record layout version (the first byte). Changing the layout means a new value.
    /// Layout 2 is layout 1 sealed: followed by its checksum (`Checksum`), in files of format 3.
    static let layout: UInt8 = 1
    /// The layout of a sealed record.
    static let sealedLayout: UInt8 = 2

    //   entry   := layout:u8 version:varint time:f64le pid:varint name:str hasDesc:u8 [desc:str]
    //              classCount:varint class*
    //   class   := name:str cleared:u8 keys(inserted) keys(deleted) modCount:varint (keyDelta:varint mask:varint)*
    //   keys    := count:varint keyDelta:varint*       (sorted ascending, first delta from 0)
    //   str     := length:varint utf8
    //   then, to the end of the record: ext* where ext := tag:u8 length:varint bytes

    /// The encoded record, sealed when `sealed` (then stored under `key`, the version's key).
    package func encoded(sealedFor key: UnsafeRawBufferPointer? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encodedSizeEstimate)
        out.append(key == nil ? Self.layout : Self.sealedLayout)
        Varint.append(version, to: &out)
        withUnsafeBytes(of: time.bitPattern.littleEndian) { out.append(bytes: $0) }
        Varint.append(UInt64(UInt32(bitPattern: pid)), to: &out)
        Self.appendString(processName, to: &out)
        out.append(description == nil ? 0 : 1)
        if let description { Self.appendString(description, to: &out) }
        let classes = changes.classes.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        Varint.append(UInt64(classes.count), to: &out)
        for (name, c) in classes {
            Self.appendString(name, to: &out)
            out.append(c.cleared ? 1 : 0)
            Self.appendKeys(c.inserted.sorted(), to: &out)
            Self.appendKeys(c.deleted.sorted(), to: &out)
            Varint.append(UInt64(c.modified.count), to: &out)
            var previous: UInt64 = 0
            // A dictionary's keys and values list its entries in the same order.
            let keys = Array(c.modified.keys), masks = Array(c.modified.values)
            for i in KeyOrder.ascendingPositions(keys) {
                Varint.append(keys[i] - previous, to: &out)
                Varint.append(masks[i], to: &out)
                previous = keys[i]
            }
        }
        for ext in extensions {
            out.append(ext.tag)
            Varint.append(UInt64(ext.bytes.count), to: &out)
            out.append(contentsOf: ext.bytes)
        }
        if let key { Checksum.appendSeal(to: &out, Checksum.historySeed, key: key) }
        return out
    }

    /// About the size of the encoded record (at least, for all but very long key lists): one
    /// allocation for it, rather than one per doubling of a growing array.
    private var encodedSizeEstimate: Int {
        var size = 40 + processName.utf8.count + (description?.utf8.count ?? 0)
        for (name, c) in changes.classes {
            size += 16 + name.utf8.count + 3 * (c.inserted.count + c.deleted.count + 2 * c.modified.count)
        }
        for ext in extensions { size += 6 + ext.bytes.count }
        return size
    }

    /// The record stored under `key` without its seal once it is verified: nil if it is
    /// damaged, or unsealed where `sealRequired` (a file of format 3 or later).
    package static func opened(_ stored: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, sealRequired: Bool) -> UnsafeRawBufferPointer? {
        guard let first = stored.first else { return nil }
        if first == layout { return sealRequired ? nil : stored }
        guard first == sealedLayout else { return nil }
        return Checksum.verified(stored, Checksum.historySeed, key: key)
    }

    /// The version and commit time of an encoded record, read from its header alone.
    /// Read before the seal is verified: for the retention of old entries, never for data.
    package static func header(_ bytes: UnsafeRawBufferPointer) -> (version: UInt64, time: Double)? {
        guard bytes.count > 9, bytes[0] == layout || bytes[0] == sealedLayout else { return nil }
        var o = 1
        guard let version = Varint.read(bytes, at: &o), o + 8 <= bytes.count else { return nil }
        return (version, Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self))))
    }

    /// Decodes a record (`opened`: a sealed one without its seal); nil if it is damaged or of
    /// an unknown layout.
    package init?(decoding bytes: UnsafeRawBufferPointer) {
        var o = 0
        guard bytes.count > 9, bytes[0] == Self.layout || bytes[0] == Self.sealedLayout else { return nil }
        o = 1
        guard let version = Varint.read(bytes, at: &o), o + 8 <= bytes.count else { return nil }
        let time = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self)))
        o += 8
        guard let pid = Varint.read(bytes, at: &o), let name = Self.readString(bytes, &o), o < bytes.count else { return nil }
        var description: String?
        let hasDescription = bytes[o]
        o += 1
        if hasDescription == 1 {
            guard let d = Self.readString(bytes, &o) else { return nil }
            description = d
        }
        guard let classCount = Varint.read(bytes, at: &o) else { return nil }
        var changes = ChangeSet()
        for _ in 0..<classCount {
            guard let className = Self.readString(bytes, &o), o < bytes.count else { return nil }
            let cleared = bytes[o] == 1
            o += 1
            guard let inserted = Self.readKeys(bytes, &o), let deleted = Self.readKeys(bytes, &o),
                  let modCount = Varint.read(bytes, at: &o) else { return nil }
            var modified: [ObjectKey: UInt64] = [:]
            var previous: UInt64 = 0
            for _ in 0..<modCount {
                guard let delta = Varint.read(bytes, at: &o), let mask = Varint.read(bytes, at: &o) else { return nil }
                previous &+= delta
                modified[previous] = mask
            }
            changes.classes[className] = ClassChanges(inserted: inserted, deleted: deleted, modified: modified, cleared: cleared)
        }
        var extensions: [Extension] = []
        while o < bytes.count {
            let tag = bytes[o]
            o += 1
            guard let n = Varint.read(bytes, at: &o), n <= bytes.count - o else { return nil }
            extensions.append(Extension(tag: tag, bytes: Array(bytes[o..<(o + Int(n))])))
            o += Int(n)
        }
        self.init(version: version, time: time, pid: Int32(truncatingIfNeeded: pid), processName: name,
                  description: description, changes: changes, extensions: extensions)
    }

    private static func appendString(_ s: String, to out: inout [UInt8]) {
        Varint.append(UInt64(s.utf8.count), to: &out)
        out.append(contentsOf: s.utf8)
    }

    private static func readString(_ bytes: UnsafeRawBufferPointer, _ o: inout Int) -> String? {
        guard let n = Varint.read(bytes, at: &o), n <= bytes.count - o else { return nil }
        defer { o += Int(n) }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[o..<(o + Int(n))]), as: UTF8.self)
    }

    private static func appendKeys(_ keys: [ObjectKey], to out: inout [UInt8]) {
        Varint.append(UInt64(keys.count), to: &out)
        var previous: UInt64 = 0
        for k in keys {
            Varint.append(k &- previous, to: &out)
            previous = k
        }
    }

    private static func readKeys(_ bytes: UnsafeRawBufferPointer, _ o: inout Int) -> [ObjectKey]? {
        guard let n = Varint.read(bytes, at: &o), n <= bytes.count else { return nil }
        var keys: [ObjectKey] = []
        keys.reserveCapacity(Int(n))
        var previous: UInt64 = 0
        for _ in 0..<n {
            guard let d = Varint.read(bytes, at: &o) else { return nil }
            previous &+= d
            keys.append(previous)
        }
        return keys
    }
}

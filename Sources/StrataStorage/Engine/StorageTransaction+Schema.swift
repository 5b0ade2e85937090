import LMDB

/// The tables of the stored classes in one transaction, and the schema changes of a write.
extension StorageTransaction {
    /// The table of the class named `name`, or nil if the file has no such class.
    package func table(_ name: String) throws(StorageError) -> Table? {
        if let t = tables[name] { return t }
        guard let classSchema = schema.classes[name], let specs = Table.databases(of: name, in: schema) else { return nil }
        var rows: Database?
        var indexes: [Int: Database] = [:]
        var backlinks: [Int: Database] = [:]
        var lists: [Int: Database] = [:]
        for spec in specs {
            guard let db = database(spec.name) else {
                throw StorageError(.invalidDatabase, "'\(file.path)' is damaged: the database '\(spec.name)' is missing")
            }
            switch spec.role {
            case .rows: rows = db
            case .index(let p): indexes[p] = db
            case .backlinks(let p): backlinks[p] = db
            case .list(let p): lists[p] = db
            }
        }
        guard let rows else {
            throw StorageError(.invalidDatabase, "'\(file.path)' is damaged: the rows of '\(name)' are missing")
        }
        let table = Table(schema: classSchema, rows: rows, indexes: indexes, backlinks: backlinks, lists: lists,
                          embeddedTargets: schema.embeddedClassNames)
        tables[name] = table
        return table
    }

    /// Adds classes to (or replaces classes in) the stored schema, creating their databases.
    package func store(classes: [ClassSchema]) throws(StorageError) {
        precondition(isWrite, "schema changes need a write transaction")
        if !isCreating {
            try file.handles.beginCreating()
            isCreating = true
        }
        try StorageError.translating("Creating the tables of \(classes.map(\.name))") {
            for c in classes {
                for spec in Table.databases(for: c) where database(spec.name) == nil {
                    created[spec.name] = try lmdb.openDatabase(spec.name, flags: spec.flags.union(.create))
                }
            }
        }
        for c in classes {
            // A class turning embedded or not changes what other classes' links own.
            if schema.classes[c.name]?.isEmbedded != c.isEmbedded { tables.removeAll() }
            schema.classes[c.name] = c
            tables[c.name] = nil
        }
        schemaChanged = true
        changeCounter?.bump()
    }

    /// Removes classes from the stored schema (a migration's `deleteData` of a class the new
    /// schema no longer has); the caller empties their databases.
    package func removeFromSchema(_ names: [String]) {
        precondition(isWrite, "schema changes need a write transaction")
        for name in names {
            schema.classes[name] = nil
            tables[name] = nil
        }
        schemaChanged = true
        changeCounter?.bump()
    }
}

/// The object keys a write transaction hands out to classes without an integer primary key,
/// stored in the meta counters at commit.
struct KeyCounters {
    /// Per class: the key the next new object gets.
    var next: [String: UInt64] = [:]
    /// Per class: the highest key in its rows, when known (a new higher key is appended).
    var last = LastKeys()
}

/// The highest object key of each class, by class name, when known. The class met last is
/// kept apart from the others, so that a loop inserting into one class reads and writes its
/// entry with a comparison of names, not a hash of one per object.
struct LastKeys {
    /// Every class's entry but `recent`'s.
    private var others: [String: ObjectKey] = [:]
    /// The class met last and its entry, newer than any of `others` for the same class.
    private var recent: (name: String, key: ObjectKey?)?

    subscript(name: String) -> ObjectKey? {
        get {
            if let recent, recent.name == name { return recent.key }
            return others[name]
        }
        set {
            if let recent, recent.name != name { others[recent.name] = recent.key }
            recent = (name, newValue)
        }
    }
}

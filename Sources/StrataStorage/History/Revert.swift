import Foundation

/// Undoing one past commit with a new one (`strata revert`): the objects it inserted are
/// deleted, those it deleted come back (with new object keys where keys are not primary
/// keys), and the properties it modified get their old values, through the ordinary writes,
/// so the new commit's history entry, indexes, backlinks and observers see it as any write.
extension StorageTransaction {
    /// What a later commit changed that the revert of `entry` would overwrite: one line per
    /// object and property ("Dog 7 (name, age) by version 12"), empty when there is none.
    package func revertConflicts(_ entry: HistoryEntry) throws -> [String] {
        var conflicts: [String] = []
        try history.forEach(after: entry.version, newestFirst: false) { later in
            for (name, c) in entry.changes.classes {
                guard let l = later.changes.classes[name], let table = try table(name) else { continue }
                let touchedLater = Set(l.inserted).union(l.deleted)
                for key in try revertedKeys(entry, name, c) {
                    let mask = c.modified[key] ?? .max
                    let conflict: UInt64 = l.cleared || touchedLater.contains(key) ? mask : mask & (l.modified[key] ?? 0)
                    guard conflict != 0 else { continue }
                    let names = table.schema.properties.filter { conflict & ClassChanges.bit($0.id) != 0 }.map(\.name)
                    conflicts.append("\(name) \(try describeObject(table, key, entry)) (\(names.joined(separator: ", "))) by version \(later.version)")
                }
            }
            return true
        }
        return conflicts
    }

    /// Writes the undoing of `entry`: throws `.invalidInput` when it has no old values, touches
    /// embedded objects, or an object it would link to no longer exists.
    package func revert(_ entry: HistoryEntry) throws {
        guard let old = try entry.oldValues(), old.isComplete else {
            throw StorageError(.invalidInput, "Version \(entry.version) of '\(file.path)' cannot be reverted: its history entry has no old values")
        }
        var tables: [(Table, ClassChanges)] = []
        for (name, c) in entry.changes.classes.sorted(by: { $0.key < $1.key }) {
            guard let table = try table(name) else { continue }
            if table.schema.isEmbedded {
                throw StorageError(.invalidInput, "Version \(entry.version) changed embedded '\(name)' objects; revert does not handle embedded objects")
            }
            tables.append((table, c))
        }
        for (table, c) in tables { for key in c.inserted where try rows.read(table, key) != nil { try objects.delete(table, key) } }
        // Deleted objects come back without links and lists first, so that they can link to
        // one another; `newKeys` maps their old keys to those they get now.
        var newKeys: [String: [ObjectKey: ObjectKey]] = [:]
        var restored: [(Table, ObjectKey, ObjectImages.Object)] = []
        for (table, c) in tables {
            let images = old.classes[table.name] ?? [:]
            for key in c.cleared ? images.keys.sorted() : c.deleted {
                guard let image = images[key], let row = image.row else { continue }
                let values = try scalarValues(table, key, row, links: false)
                let newKey = try objects.insert(table, values: values)
                newKeys[table.name, default: [:]][key] = newKey
                restored.append((table, key, image))
            }
        }
        func translated(_ value: Value, _ property: PropertySchema) -> Value {
            switch value {
            case .link(let target): property.linkTarget.flatMap { newKeys[$0]?[target] }.map { .link($0) } ?? value
            case .typedLink(let name, let target): newKeys[name]?[target].map { .typedLink(name, $0) } ?? value
            default: value
            }
        }
        for (table, key, image) in restored {
            let owner = newKeys[table.name]![key]!
            let links = try scalarValues(table, key, image.row!, links: true)
            let changes = (table.links + table.mixedProperties).compactMap { p -> (PropertySchema, Value)? in
                let v = translated(links[p.id], p)
                return v == .null ? nil : (p, v)
            }
            if !changes.isEmpty { try objects.update(table, owner, changes) }
            for (id, list) in image.lists {
                guard let p = table.listProperties.first(where: { $0.id == id }) else { continue }
                try restoreList(table, p, owner, list, imageOf: key, translated)
            }
        }
        for (table, c) in tables {
            let images = old.classes[table.name] ?? [:]
            for (key, mask) in c.modified.sorted(by: { $0.key < $1.key }) {
                guard let image = images[key], try rows.read(table, key) != nil else { continue }
                if let row = image.row {
                    let values = try scalarValues(table, key, row, links: true)
                    let changes = table.schema.properties.filter { !$0.isList && !$0.isPrimaryKey && mask & ClassChanges.bit($0.id) != 0 }
                        .map { ($0, translated(values[$0.id], $0)) }
                    if !changes.isEmpty { try objects.update(table, key, changes, onlyIfDifferent: true) }
                }
                for (id, list) in image.lists {
                    guard let p = table.listProperties.first(where: { $0.id == id }) else { continue }
                    try restoreList(table, p, key, list, imageOf: key, translated)
                }
            }
        }
    }

    /// The values of `row` (an image's), by property id: with links (mixed values' included)
    /// when `links`, else null in their place.
    private func scalarValues(_ table: Table, _ key: ObjectKey, _ row: [UInt8], links: Bool) throws(StorageError) -> [Value] {
        let values: [Value]? = row.withUnsafeBytes { bytes in
            RowView(bytes).map { view in
                (0..<table.slotCount).map { id in
                    guard let p = table.schema.properties.first(where: { $0.id == id }), !p.isList else { return .null }
                    if p.type == .link && !links { return .null }
                    let value = view.hasSlot(id) ? view.value(p) : .null
                    if case .typedLink = value, !links { return .null }
                    return value
                }
            }
        }
        guard let values else { throw rows.damaged(table, key) }
        return values
    }

    /// Replaces `owner`'s list `property` with the elements it had before the commit `image`
    /// is from (no later commit changed it: `revertConflicts`), links translated. `imaged` is
    /// the key the object had then (another when it comes back from a delete).
    private func restoreList(_ table: Table, _ property: PropertySchema, _ owner: ObjectKey, _ image: ObjectImages.List,
                             imageOf imaged: ObjectKey, _ translated: (Value, PropertySchema) -> Value) throws(StorageError) {
        let values = try lists.oldElements(table, property, owner: imaged, image).map { translated(lists.decode($0, property), property) }
        if property.isMap {
            let keys = image.mapKeys.map { bytes in bytes.withUnsafeBytes { MapKeysEncoding.decode($0) } } ?? []
            guard let keys, keys.count == values.count else { throw lists.damagedList(table, property, owner) }
            try lists.removeAll(table, property, owner: owner)
            for (key, value) in zip(keys, values) { try lists.setMapValue(table, property, owner: owner, value, forKey: key) }
        } else {
            try lists.rewrite(table, property, owner: owner, values)
        }
    }

    /// The keys of `className`'s objects that `entry` inserted, deleted or modified (for a
    /// cleared class, every object it had, from the images).
    private func revertedKeys(_ entry: HistoryEntry, _ className: String, _ c: ClassChanges) throws -> [ObjectKey] {
        let imaged = c.cleared ? Array(try entry.oldValues()?.classes[className]?.keys ?? [:].keys) : []
        return Array(Set(c.inserted + c.deleted + Array(c.modified.keys) + imaged)).sorted()
    }

    /// An object as a revert conflict names it: its primary key if the image or the stored
    /// row has one, else `#key`.
    private func describeObject(_ table: Table, _ key: ObjectKey, _ entry: HistoryEntry) throws -> String {
        guard let pk = table.primaryKey else { return "#\(key)" }
        if let row = try rows.read(table, key) { return describe(row.value(pk)) }
        if let bytes = try entry.oldValues()?.classes[table.name]?[key]?.row, let value = bytes.withUnsafeBytes({ RowView($0)?.value(pk) }) {
            return describe(value)
        }
        return "#\(key)"
    }
}

import Foundation
import Strata
import StrataStorage

/// The `--json` shapes of `log`, `show` and `diff` (documented in docs/HISTORY.md).
enum HistoryJSON {
    /// An object: `{"key": "#objectKey", "primaryKey": value}` (the key a string, exact in
    /// any JSON reader); `primaryKey` is absent when the
    /// class has none or it is unknown, JSON null for a nil key; `properties` only for
    /// modified objects; `values` (by property name) only when some are known.
    struct Object: Encodable {
        let id: Realm.HistoryEntry.ObjectID
        let properties: [String]?
        let values: [String: JSONScalar]?
        let oldValues: [String: JSONScalar]?

        enum Keys: String, CodingKey { case key, primaryKey, properties, values, oldValues }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode("#\(id.objectKey)", forKey: .key)
            switch id.primaryKey {
            case nil: break
            case .int(let v)?: try c.encode(v, forKey: .primaryKey)
            case .string(let v)?: try c.encode(v, forKey: .primaryKey)
            case .uuid(let v)?: try c.encode(v.uuidString, forKey: .primaryKey)
            case .objectId(let v)?: try c.encode(v.stringValue, forKey: .primaryKey)
            case .null?: try c.encodeNil(forKey: .primaryKey)
            }
            try c.encodeIfPresent(properties, forKey: .properties)
            try c.encodeIfPresent(values, forKey: .values)
            try c.encodeIfPresent(oldValues, forKey: .oldValues)
        }
    }

    /// One class in full: `{"name", "cleared", "inserted": [Object], "deleted": [Object],
    /// "modified": [Object with properties]}`.
    struct ClassDetail: Encodable {
        let name: String
        let cleared: Bool
        let inserted: [Object]
        let deleted: [Object]
        let modified: [Object]
    }

    /// One class in a log line: counts and the modified property names.
    struct ClassSummary: Encodable {
        let name: String
        let cleared: Bool
        let inserted: Int
        let deleted: Int
        let modified: Int
        let properties: [String]

        /// The summary of one class's changes.
        init(_ c: Realm.HistoryEntry.ClassChanges) {
            name = c.className
            cleared = c.cleared
            inserted = c.inserted.count
            deleted = c.deleted.count
            modified = c.modified.count
            properties = c.modifiedProperties
        }
    }

    /// An entry's header fields: version, time, timestamp, pid, process, description.
    struct Header: Encodable {
        let version: UInt64
        let time: String
        let timestamp: Double
        let pid: Int32
        let process: String
        @NullWhenNil var description: String?

        init(version: UInt64, date: Date, pid: Int32, process: String, description: String?) {
            self.version = version
            time = HistoryFile.preciseTime(date)
            timestamp = date.timeIntervalSince1970
            self.pid = pid
            self.process = process
            self.description = description
        }
    }

    /// An entry's header fields, the size in use of the version before it (null when the
    /// entry does not record it), and its classes, as summaries (`log`) or in full (`show`).
    struct Entry<Class: Encodable>: Encodable {
        let header: Header
        let bytesInUseBefore: Int?
        let classes: [Class]

        /// The header fields of `entry`, with its classes as given.
        init(entry: Realm.HistoryEntry, classes: [Class]) {
            header = Header(version: entry.version, date: entry.date, pid: entry.pid, process: entry.processName,
                            description: entry.description)
            bytesInUseBefore = entry.bytesInUseBefore
            self.classes = classes
        }

        private enum Keys: String, CodingKey { case bytesInUseBefore, classes }
        func encode(to encoder: Encoder) throws {
            try header.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(bytesInUseBefore, forKey: .bytesInUseBefore)
            try c.encode(classes, forKey: .classes)
        }
    }

    /// `blame`: one commit that touched the object: the entry header fields, `"change"`
    /// (`"inserted"`, `"deleted"` or `"modified"`), `"properties"`, and `"values"` and
    /// `"oldValues"` (by property name) where known.
    struct ObjectChange: Encodable {
        let header: Header
        let change: String
        let properties: [String]
        let values: [String: JSONScalar]?
        let oldValues: [String: JSONScalar]?

        init(_ c: ObjectHistory.Change) {
            header = Header(version: c.entry.version, date: Date(timeIntervalSince1970: c.entry.time), pid: c.entry.pid,
                            process: c.entry.processName, description: c.entry.description)
            change = c.sign == "+" ? "inserted" : c.sign == "-" ? "deleted" : "modified"
            properties = c.properties.map(\.name)
            func named(_ cells: [Cell]?) -> [String: JSONScalar]? {
                cells.map { Dictionary(zip(c.properties.map(\.name), $0.map(\.json)), uniquingKeysWith: { a, _ in a }) }
            }
            values = named(c.after)
            oldValues = named(c.before)
        }

        private enum Keys: String, CodingKey { case change, properties, values, oldValues }
        func encode(to encoder: Encoder) throws {
            try header.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(change, forKey: .change)
            try c.encode(properties, forKey: .properties)
            try c.encodeIfPresent(values, forKey: .values)
            try c.encodeIfPresent(oldValues, forKey: .oldValues)
        }
    }

    /// `diff`: `{"from": A, "to": B, "classes": [class in full]}`.
    struct Range: Encodable {
        let from: UInt64
        let to: UInt64
        let classes: [ClassDetail]
    }
}
